"""The gift workflow's steps and the one place their transitions are enforced."""

from __future__ import annotations

from gifts.models import Step, WorkflowContext

ORDER = [Step.BRIEF, Step.IDEAS, Step.GIFT_SELECTED, Step.CHECKOUT, Step.COMPLETED]
# Where gifts may still be looked for (suggest_gifts, search_products): before any checkout.
BEFORE_CHECKOUT = frozenset({Step.BRIEF, Step.IDEAS, Step.GIFT_SELECTED})

# Forward moves the tools may make; going back is `navigate_back`, to a visited step only.
FORWARD: dict[str, set[str]] = {
    Step.BRIEF: {Step.IDEAS},
    Step.IDEAS: {Step.IDEAS, Step.GIFT_SELECTED},
    Step.GIFT_SELECTED: {Step.IDEAS, Step.GIFT_SELECTED, Step.CHECKOUT},
    Step.CHECKOUT: {Step.CHECKOUT, Step.COMPLETED, Step.GIFT_SELECTED},
    Step.COMPLETED: {Step.FAILED},  # a completed purchase later cancelled or rolled back
    Step.FAILED: set(),
}


class TransitionError(Exception):
    pass


def can_move(current: str, target: str) -> bool:
    return target in FORWARD.get(current, set())


def move(workflow: WorkflowContext, target: str) -> None:
    """Move forward (or sideways) to `target`, recording it as visited. Caller saves."""
    if not can_move(workflow.current_step, target):
        raise TransitionError(f"{workflow.current_step} → {target} is not a workflow transition")
    workflow.current_step = target
    if target not in workflow.visited_steps:
        workflow.visited_steps = [*workflow.visited_steps, target]


def can_go_back(workflow: WorkflowContext, target: str) -> bool:
    if target not in workflow.visited_steps or target not in ORDER:
        return False
    current = workflow.current_step
    if current not in ORDER or current == Step.COMPLETED:
        return False
    return ORDER.index(target) < ORDER.index(current)


def back_targets(workflow: WorkflowContext) -> list[str]:
    return [step for step in ORDER if can_go_back(workflow, step)]
