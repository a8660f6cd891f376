"""Receipts: one confirmation e-mail per completed order, a receipt link of its own, and the
staff's resend and revoke.

The e-mail is an outbox message (kind RECEIPT_KIND) written in the completion's transaction and
sent by the sweeps; the widget composes and sends it (it registers the handler, as it renders
everything a person reads). The link carries `Order.receipt_key`: random, not the order id,
replaced when staff revoke it, and given only to the person (the e-mail and the widget's
`_meta`), never to the model.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from checkout import outbox
from checkout.models import Order, OrderAuditEntry, OrderStatus, StaffAction
from tool_runtime.observability import get_logger

RECEIPT_KIND = "receipt_email"
# The confirmation's key: one per order, so a second completion path writes nothing twice.
CONFIRMATION = "confirmation"
RESEND = "resend"

log = get_logger("giftgenius.checkout.receipts")


@dataclass(frozen=True)
class StaffReport:
    order_id: uuid.UUID
    outcome: str  # done | refused
    detail: str = ""


def new_receipt_key() -> str:
    return secrets.token_urlsafe(32)


def do_enqueue_confirmation(*, order: Order) -> None:
    """Queue a just-completed order's one confirmation e-mail.

    Call inside the completion's transaction, right after the compare-and-swap that moved the
    order to completed (and gave it `receipt_key`): the message is written with it or not at
    all, and only the one caller that won the swap writes it."""
    outbox.enqueue(
        kind=RECEIPT_KIND,
        key=f"receipt:{order.pk}:{CONFIRMATION}",
        payload={"copy": CONFIRMATION},
        order_id=order.pk,
        key_is_new=True,
    )


def order_for_receipt(*, receipt_key: str) -> Order | None:
    """The completed order a receipt link opens, or None (unknown, revoked, or not paid)."""
    if not receipt_key or len(receipt_key) > 64:
        return None
    return (
        Order.objects.filter(receipt_key=receipt_key, status=OrderStatus.COMPLETED)
        .select_related("owner")
        .prefetch_related("lines")
        .first()
    )


def resend_receipts(
    *, order_ids: Iterable[uuid.UUID], actor: AbstractBaseUser, reason: str
) -> list[StaffReport]:
    """Staff's explicit resend: one more copy per completed order, audited. Other orders are
    refused (and the refusal audited too)."""
    reports = []
    for order_id in order_ids:
        with transaction.atomic():
            order = Order.objects.select_for_update().filter(pk=order_id).first()
            if order is None:
                continue
            if order.status != OrderStatus.COMPLETED:
                report = StaffReport(order.pk, "refused", "Only a completed order has a receipt.")
                _audit(order, actor, StaffAction.RESEND_RECEIPT, reason, "refused", report.detail)
            else:
                report = StaffReport(order.pk, "done", "A copy will be sent by the next sweep.")
                entry = _audit(order, actor, StaffAction.RESEND_RECEIPT, reason, "done")
                # Keyed by the audit entry: exactly one more copy per explicit action.
                outbox.enqueue(
                    kind=RECEIPT_KIND,
                    key=f"receipt:{order.pk}:{RESEND}:{entry.pk}",
                    payload={"copy": RESEND},
                    order_id=order.pk,
                )
        log.info(
            "receipt_resend",
            order_id=str(order_id),
            actor=actor.get_username(),
            outcome=report.outcome,
        )
        reports.append(report)
    return reports


def revoke_receipt_links(
    *, order_ids: Iterable[uuid.UUID], actor: AbstractBaseUser, reason: str
) -> list[StaffReport]:
    """Staff revoke an order's receipt link: the old link stops working at once. A completed
    order gets a new link (sent with the next resend); audited."""
    reports = []
    for order_id in order_ids:
        with transaction.atomic():
            order = Order.objects.select_for_update().filter(pk=order_id).first()
            if order is None:
                continue
            new_key = new_receipt_key() if order.status == OrderStatus.COMPLETED else ""
            Order.objects.filter(pk=order.pk).update(receipt_key=new_key)
            detail = "A new link replaces it." if new_key else "The order has no receipt link now."
            _audit(order, actor, StaffAction.REVOKE_RECEIPT_LINK, reason, "done", detail)
        log.info("receipt_link_revoked", order_id=str(order_id), actor=actor.get_username())
        reports.append(StaffReport(order.pk, "done", detail))
    return reports


def _audit(
    order: Order, actor: AbstractBaseUser, action: str, reason: str, outcome: str, detail: str = ""
) -> OrderAuditEntry:
    return OrderAuditEntry.objects.create(
        actor=actor, order=order, action=action, reason=reason, outcome=outcome, detail=detail
    )
