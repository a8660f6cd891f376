"""The checkout saga: create_order → reserve_items → charge_card → complete, and its undoing.

Every step is persisted in SagaStep and the order's status moves after every step, so a process
that dies half-way leaves a record the recovery sweep finishes or compensates (checkout.sweeps).

One job per module; each imports only those listed before it:
- states: the groupings of order statuses (and outcomes) the modules share;
- step_log: the persisted step rows, their log lines, and the crash point tests patch;
- locks: the workflow row lock, and the order in which checkout takes its locks;
- lease: an order's short lease, held by whoever settles it with the provider;
- outcome: what the saga answers;
- compensation: refund → release the stock → close the order;
- cancellation: a person's or staff's cancellation, built on the compensation;
- draft: create_order → reserve_items (a draft with its stock held);
- charge: claim → charge_card → complete, and recording what the provider said;
- recovery: finishing or compensating what a dead process left, reconciling payments.

Rules kept throughout:
- no database transaction is open while the payment provider is called;
- the provider idempotency key of a charge is stored on the Payment row BEFORE the call, so
  recovery can always ask the provider what became of it;
- an order has ONE provider key and one Payment row, whatever the number of saga runs: a rerun
  after a retryable failure asks the provider under the same key, so it answers with the one
  charge it holds for the order (or makes it now) and can never capture a second time;
- state changes are compare-and-swap updates (`filter(status=...).update(...)`), so a saga, a
  sweep and a cancellation racing on one order can never both win;
- a charge outcome is recorded as the provider states it, never guessed: unknown → payment_pending;
- the workflow row is the lock that serialises a person's actions on one checkout (locks).

Nothing is re-exported here: import the module that does the job.
"""
