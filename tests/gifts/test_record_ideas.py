"""suggest_gifts records its ideas with one conditional UPDATE, a workflow that
changed since the call read it is never overwritten with a stale picture of it, and a
"Regenerate" that finds the ideas already recorded writes nothing."""

from __future__ import annotations

import uuid

import pytest

from checkout.selectors import workflow_order_id
from gifts import services
from gifts.models import Step, WorkflowContext
from gifts.selectors import owned_workflow
from tests.concurrency import in_threads
from tests.conftest import ToolClient
from tests.fixtures import BRIEF, start, suggest, workflow_with_gift
from tool_runtime.errors import ToolError
from tool_runtime.principals import issue_api_token

pytestmark = pytest.mark.usefixtures("demo_catalog")

NEW_BRIEF = {"relationship": "parent", "interests": ["tea"], "currency": "USD"}


def read(workflow_id: str, user) -> WorkflowContext:
    workflow = owned_workflow(owner_pk=user.pk, workflow_id=uuid.UUID(workflow_id))
    assert workflow is not None
    return workflow


def test_a_workflow_as_read_is_updated_by_one_statement(api, user, django_assert_num_queries):
    workflow_id, _ = workflow_with_gift(api)
    workflow = read(workflow_id, user)

    with django_assert_num_queries(1):  # no SELECT … FOR UPDATE first
        recorded = services.record_ideas(workflow=workflow, brief=NEW_BRIEF, product_ids=[7, 8])

    stored = WorkflowContext.objects.get(pk=workflow_id)
    assert (stored.current_step, stored.selected_product_id) == (Step.IDEAS, None)
    assert (stored.brief, stored.last_suggestions) == (NEW_BRIEF, [7, 8])
    assert stored.updated_at == recorded.updated_at
    assert stored.visited_steps == [Step.BRIEF, Step.IDEAS, Step.GIFT_SELECTED]


def test_a_workflow_changed_since_it_was_read_is_locked_and_updated_as_it_is_now(api, user):
    workflow_id = start(api)
    suggest(api, workflow_id)
    stale = read(workflow_id, user)  # at ideas, nothing selected
    product_id = stale.last_suggestions[0]
    selected = api.call("select_gift", {"workflow_id": workflow_id, "product_id": product_id})
    assert selected.status == 200  # the row moved on to gift_selected meanwhile

    recorded = services.record_ideas(workflow=stale, brief=NEW_BRIEF, product_ids=[product_id])

    stored = WorkflowContext.objects.get(pk=workflow_id)
    # Applied to the row as it is now: leaving gift_selected drops the selection it now has.
    assert stored.current_step == Step.IDEAS and stored.selected_product_id is None
    assert stored.visited_steps == [Step.BRIEF, Step.IDEAS, Step.GIFT_SELECTED]
    assert stored.brief == NEW_BRIEF and stored.last_suggestions == [product_id]
    assert recorded.updated_at == stored.updated_at


def test_a_regenerate_that_finds_the_same_ideas_writes_nothing(
    api, user, django_assert_num_queries
):
    workflow_id = start(api)
    suggest(api, workflow_id)
    workflow = read(workflow_id, user)
    before = WorkflowContext.objects.get(pk=workflow_id)

    with django_assert_num_queries(0):
        recorded = services.record_ideas(
            workflow=workflow,
            brief=dict(workflow.brief),
            product_ids=list(workflow.last_suggestions),
        )

    stored = WorkflowContext.objects.get(pk=workflow_id)
    assert stored.updated_at == before.updated_at == recorded.updated_at
    assert (recorded.current_step, recorded.last_suggestions) == (
        Step.IDEAS,
        before.last_suggestions,
    )


@pytest.mark.parametrize(
    "change",
    [
        {"brief": {**BRIEF, "relationship": "colleague"}},  # another brief, the same ideas
        {"ideas": "reversed"},  # the same brief, the ideas in another order
    ],
    ids=["brief", "ideas"],
)
def test_any_change_to_the_brief_or_the_ideas_is_written(api, user, change):
    workflow_id = start(api)
    suggest(api, workflow_id)
    workflow = read(workflow_id, user)
    before = WorkflowContext.objects.get(pk=workflow_id)
    brief = change.get("brief", dict(workflow.brief))
    ideas = list(workflow.last_suggestions)
    if change.get("ideas"):
        ideas.reverse()
    assert len(ideas) > 1

    services.record_ideas(workflow=workflow, brief=brief, product_ids=ideas)

    stored = WorkflowContext.objects.get(pk=workflow_id)
    assert stored.updated_at > before.updated_at
    assert (stored.brief["relationship"], stored.last_suggestions) == (brief["relationship"], ideas)


def test_the_same_ideas_on_a_selected_gift_still_go_back_to_ideas(api, user):
    workflow_id, _ = workflow_with_gift(api)
    workflow = read(workflow_id, user)

    services.record_ideas(
        workflow=workflow, brief=dict(workflow.brief), product_ids=list(workflow.last_suggestions)
    )

    stored = WorkflowContext.objects.get(pk=workflow_id)
    assert (stored.current_step, stored.selected_product_id) == (Step.IDEAS, None)


def test_a_regenerate_read_before_a_selection_does_not_undo_it(api, user):
    """Writing nothing, the regenerated call takes effect where it read the row: before the
    selection made since, which therefore stands (as if the two had run one after the other)."""
    workflow_id = start(api)
    suggest(api, workflow_id)
    stale = read(workflow_id, user)
    product_id = stale.last_suggestions[0]
    selected = api.call("select_gift", {"workflow_id": workflow_id, "product_id": product_id})
    assert selected.status == 200

    services.record_ideas(
        workflow=stale, brief=dict(stale.brief), product_ids=list(stale.last_suggestions)
    )

    stored = WorkflowContext.objects.get(pk=workflow_id)
    assert (stored.current_step, stored.selected_product_id) == (Step.GIFT_SELECTED, product_id)


def test_suggest_gifts_regenerated_answers_the_same_and_keeps_the_recorded_row(api):
    workflow_id = start(api)
    first = suggest(api, workflow_id)
    recorded = WorkflowContext.objects.get(pk=workflow_id)

    again = suggest(api, workflow_id)

    assert again.status == first.status == 200
    assert again.body["gifts"] == first.body["gifts"]
    assert WorkflowContext.objects.get(pk=workflow_id).updated_at == recorded.updated_at


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_simultaneous_briefs_leave_one_whole_brief_with_its_own_ideas(user, api):
    workflow_id = start(api)
    bearer = issue_api_token(user=user)
    budgets = [(10 + 5 * i, 40 + 10 * i) for i in range(8)]

    def ask(i: int):
        low, high = budgets[i]
        body = {"workflow_id": workflow_id, **BRIEF, "budget_min": low, "budget_max": high}
        return ToolClient(bearer).call("suggest_gifts", body)

    results = in_threads(8, ask)

    assert all(r.status == 200 for r in results), [r.body for r in results]
    stored = WorkflowContext.objects.get(pk=workflow_id)
    # What each call offered: its ideas, then their variants (selectable too).
    answered = {
        (str(budgets[i][0]), str(budgets[i][1])): [g["product_id"] for g in r.body["gifts"]]
        + [v["product_id"] for g in r.body["gifts"] for v in g["variants"]]
        for i, r in enumerate(results)
    }
    key = (stored.brief["budget_min"], stored.brief["budget_max"])
    # The last writer's brief and that same call's ideas: never one call's brief with another's.
    assert stored.last_suggestions == answered[key]
    assert stored.current_step == Step.IDEAS
    assert stored.visited_steps == [Step.BRIEF, Step.IDEAS]


@pytest.mark.parametrize("tool", ["suggest_gifts", "search_products"])
def test_ideas_never_overwrite_a_workflow_that_moved_on_to_checkout(api, user, tool):
    from checkout.models import Order
    from tests.fixtures import prepare

    workflow_id, product_id = workflow_with_gift(api)
    stale = read(workflow_id, user)  # passed the gate at gift_selected …
    assert prepare(api, workflow_id).status == 200  # … then the person went to checkout
    before = WorkflowContext.objects.get(pk=workflow_id)

    with pytest.raises(ToolError) as refused:
        if tool == "suggest_gifts":
            services.record_ideas(workflow=stale, brief=NEW_BRIEF, product_ids=[product_id])
        else:
            services.record_search_results(workflow=stale, product_ids=[product_id])

    assert refused.value.code == "TOOL_NOT_AVAILABLE_IN_STEP"
    assert refused.value.details["current_step"] == Step.CHECKOUT
    after = WorkflowContext.objects.get(pk=workflow_id)
    assert (after.current_step, after.brief, after.last_suggestions) == (
        Step.CHECKOUT,
        before.brief,
        before.last_suggestions,
    )
    assert (
        workflow_order_id(workflow=after) == workflow_order_id(workflow=before)
        and Order.objects.count() == 1
    )
