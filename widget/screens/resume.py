"""A heading and where to go from here (`resume.html`): the standalone page's start, and a
workflow redrawn at a step that has no screen of its own."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from widget.screens.actions import Action, checkout_action, start_over_action


def start_context() -> dict[str, Any]:
    """The first screen of the standalone browser page: one button that starts a gift search."""
    return {
        "heading": _("Find the right gift in a minute."),
        "actions": [
            Action("start_gift_workflow", _("Find a gift"), {}, testid="start", style="primary")
        ],
    }


def resume_context(workflow_id: Any, step: str) -> dict[str, Any]:
    """The workflow at `step` (checkout, completed, or over): what it is at, and the way on."""
    if step == "checkout":
        return {
            "workflow_id": workflow_id,
            "heading": _("You were about to check out."),
            "actions": [checkout_action(workflow_id, _("Continue to checkout"))],
        }
    if step == "completed":
        return {
            "workflow_id": workflow_id,
            "heading": _("This purchase is complete."),
            "actions": [start_over_action()],
        }
    return {
        "workflow_id": workflow_id,
        "heading": _("This gift search has ended."),
        "actions": [start_over_action()],
    }
