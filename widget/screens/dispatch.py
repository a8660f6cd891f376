"""Which screen shows a tool's outcome, and with what context.

A screen is a template's name (jinja2/widget/fragments/<name>.html) and its context, built by
the module of the same name in this package.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tool_runtime.outcome import ToolOutcome
from widget import selectors
from widget.screens.brief import brief_context
from widget.screens.checkout import checkout_context, refused_form_context
from widget.screens.done import done_context
from widget.screens.empty import empty_context
from widget.screens.error import error_context
from widget.screens.payment import payment_failure_context
from widget.screens.resume import resume_context
from widget.screens.selected import selected_context
from widget.screens.status import status_context
from widget.screens.suggestions import search_context, suggestions_context
from widget.screens.summary import summary_context

Screen = tuple[str, dict[str, Any]]  # a template's name and its context


def screen_inputs(tool: str, outcome: ToolOutcome) -> tuple[Any, Callable[[], Screen]] | None:
    """For the screens drawn most (the workflow redrawn, a list of ideas): everything the screen
    is computed from besides the language, the script prefix and the picture origin (the caller
    keys those), and how to compute it. None: the screen is built from the outcome every time."""
    if not outcome.ok:
        return None
    body = outcome.body
    workflow_id = body.get("workflow_id")
    if tool in {"get_workflow", "user_navigated_to_step"}:
        # The workflow and its shown products' live stock are read here, on every call.
        view = selectors.workflow_view(workflow_id, loaded=outcome.workflow)
        step = body.get("current_step")
        return (workflow_id, step, view), lambda: workflow_step_screen(workflow_id, step, view)
    if tool == "suggest_gifts":
        brief = selectors.workflow_brief(workflow_id, loaded=outcome.workflow)
        return (body, brief), lambda: ideas_screen(body, brief)
    return None


def screen_for(
    tool: str, outcome: ToolOutcome, *, hosted: bool = True, arguments: Any = None
) -> Screen:
    """`arguments`: what the call was sent, where the caller has it; a refused form is drawn
    again with them."""
    body = outcome.body
    if not outcome.ok:
        error = outcome.error or {}
        if tool == "prepare_order" and (form := refused_form_context(error, arguments)):
            return "checkout", form
        if tool == "commit_order" and (failed := payment_failure_context(tool, error)):
            return "error", failed
        return "error", error_context(tool, error)
    if tool == "start_gift_workflow":
        return "brief", brief_context(body.get("workflow_id"), {})
    if tool == "search_products":
        return "suggestions", search_context(body)
    if tool == "select_gift":
        return "selected", selected_context(body["workflow_id"], body["gift"])
    if tool == "get_payment_methods":
        return "checkout", checkout_context(body)
    if tool == "prepare_order":
        return "summary", summary_context(body, outcome.meta)
    if tool in {"commit_order", "get_order", "cancel_order"}:
        return "status", status_context(body, hosted=hosted, meta=outcome.meta)
    return "done", done_context()


def ideas_screen(body: dict[str, Any], brief: dict[str, Any]) -> Screen:
    if body.get("gifts"):
        return "suggestions", suggestions_context(body["workflow_id"], body["gifts"], brief=brief)
    return "empty", empty_context(body, brief=brief)


def workflow_step_screen(
    workflow_id: Any, step: str | None, view: selectors.WorkflowView | None
) -> Screen:
    """Redraw whatever step the workflow is at now (after Back or 'show where I am')."""
    step = step or (view.current_step if view else "brief")
    if view is None or step == "brief":
        return "brief", brief_context(workflow_id, view.brief if view else {})
    if step == "ideas":
        if view.offered:
            return "suggestions", suggestions_context(workflow_id, view.offered, brief=view.brief)
        return "brief", brief_context(workflow_id, view.brief)
    if step == "gift_selected" and view.selected:
        return "selected", selected_context(workflow_id, view.selected)
    return "resume", resume_context(workflow_id, step)
