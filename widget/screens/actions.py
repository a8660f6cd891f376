"""The buttons of every screen (`_action.html`), and the few that several screens offer."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.urls import get_script_prefix, reverse
from django.utils.translation import gettext as _


@dataclass
class Action:
    """One button: which tool it calls with which arguments (the bridge picks the transport)."""

    tool: str
    label: str
    args: dict[str, Any] = field(default_factory=dict)
    testid: str = ""
    style: str = "secondary"
    idempotent: bool = False  # the bridge adds an idempotency key kept in widget state
    inherit: str = ""  # argument names the bridge copies from the action on screen
    followup: str = ""  # in ChatGPT ask the model instead (the tool is not widget-callable)
    aria_label: str = ""
    # What the button says while its call runs; the view stays on screen meanwhile (a payment
    # keeps its summary in sight) instead of giving way to the next view's skeleton.
    busy_label: str = ""
    # An ACP checkout session the bridge hands to ChatGPT's payment sheet instead of calling
    # the tool, where the host offers one (checkout.agentic.payment_sheet).
    checkout_session: dict[str, Any] | None = None

    @property
    def url(self) -> str:
        return action_url(self.tool)

    @property
    def args_json(self) -> str:
        return json.dumps(self.args, separators=(",", ":"), default=str, ensure_ascii=False)

    @property
    def session_json(self) -> str:
        return json.dumps(self.checkout_session, separators=(",", ":"), ensure_ascii=False)


def action_url(tool: str) -> str:
    """The widget's endpoint for `tool` (a button's or form's target)."""
    return _action_url(get_script_prefix(), tool)


@lru_cache(maxsize=256)
def _action_url(script_prefix: str, tool: str) -> str:
    """Reversing costs more than the rest of a button; the URL depends only on these two."""
    return reverse("widget:action", args=[tool])


def checkout_action(workflow_id: Any, label: str) -> Action:
    args = {"workflow_id": str(workflow_id)} if workflow_id else {}
    return Action(
        "get_payment_methods",
        label,
        args,
        testid="go-to-checkout",
        style="primary",
        inherit="" if workflow_id else "workflow_id",
    )


def back_action(workflow_id: Any, step: str, *, label: str = "") -> Action:
    return Action(
        "user_navigated_to_step",
        label or _("Back"),
        {"workflow_id": str(workflow_id), "step_id": step},
        testid="back",
    )


def back_to_checkout_action(workflow_id: Any) -> Action:
    """Back from the order's review to the checkout form, as it was filled in: a read that
    moves nothing, so the draft and its stock hold stay until the form is sent again."""
    return Action(
        "get_payment_methods", _("Back"), {"workflow_id": str(workflow_id)}, testid="back"
    )


def start_over_action() -> Action:
    return Action(
        "start_gift_workflow",
        _("Find another gift"),
        {},
        testid="start-over",
        followup=_("Let's look for another gift."),
    )
