"""No gift matched the brief (`empty.html`): why, the changes that would find some, and the
brief itself to change."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from widget.formatting import money
from widget.screens.actions import Action
from widget.screens.brief import brief_form

CHANGE_LABELS = {
    "raise_budget_max": lambda v: _("Raise the budget to %(value)s") % {"value": v},
    "lower_budget_min": lambda v: _("Lower the minimum to %(value)s") % {"value": v},
    "drop_interest": lambda v: _("Leave out “%(value)s”") % {"value": v},
    "drop_age": lambda v: _("Ignore the age"),
    "use_interests": lambda v: _("Try %(value)s instead") % {"value": ", ".join(v or [])},
}


def changed_brief(brief: dict[str, Any], suggestion: dict[str, Any]) -> dict[str, Any] | None:
    """suggest_gifts' arguments for the brief with `suggestion` applied; None where it cannot
    be (an unknown change, or one that leaves no interest or relationship to search for)."""
    args = {
        k: brief[k]
        for k in ("relationship", "interests", "budget_min", "budget_max", "currency", "age")
        if brief.get(k) is not None
    }
    change, value = suggestion.get("change"), suggestion.get("value")
    if change == "raise_budget_max":
        args["budget_max"] = value
    elif change == "lower_budget_min":
        args["budget_min"] = value
    elif change == "drop_interest":
        args["interests"] = [i for i in args.get("interests", []) if i != value]
    elif change == "drop_age":
        args.pop("age", None)
    elif change == "use_interests":
        args["interests"] = list(value or [])
    else:
        return None
    if not args.get("interests") or not args.get("relationship"):
        return None
    return args


def empty_context(body: dict[str, Any], *, brief: dict[str, Any]) -> dict[str, Any]:
    workflow_id = body.get("workflow_id")
    actions = []
    for suggestion in body.get("suggestions") or []:
        args = changed_brief(brief, suggestion)
        label = CHANGE_LABELS.get(suggestion.get("change"))
        if args is None or label is None:
            continue
        matches = suggestion.get("matches") or 0
        text = label(suggestion.get("value"))
        if matches:
            text = _("%(change)s (%(count)s ideas)") % {"change": text, "count": matches}
        actions.append(
            Action(
                "suggest_gifts",
                text,
                {"workflow_id": str(workflow_id), **args},
                testid="apply-suggestion",
            )
        )
    return {
        "workflow_id": workflow_id,
        "heading": _("No gifts match this brief yet."),
        # The model's no_results_reason is English; the person reads one built from the codes.
        "reason": empty_reason(suggestions=body.get("suggestions") or [], brief=brief),
        "actions": actions,
        # The brief itself, to change right here: the suggestions may not cover what is wrong
        # (dropping the only interest leaves nothing to search for).
        "form": brief_form(workflow_id=workflow_id, brief=brief),
    }


def empty_reason(*, suggestions: list[dict[str, Any]], brief: dict[str, Any]) -> str:
    """Why nothing matched, in the active language, from the suggestions' change codes (what
    the server found would help) rather than its English sentence for the model."""
    changes = {s.get("change") for s in suggestions if isinstance(s, dict)}
    unknown = [
        str(s["value"])
        for s in suggestions
        if isinstance(s, dict) and s.get("change") == "drop_interest" and s.get("value")
    ]
    if changes & {"raise_budget_max", "lower_budget_min"}:
        currency = brief.get("currency") or ""
        return _(
            "Gifts for these interests exist, but none costs between %(low)s and %(high)s."
        ) % {
            "low": money(brief.get("budget_min"), currency),
            "high": money(brief.get("budget_max"), currency),
        }
    if unknown:
        return _("Nothing in the catalog matches “%(interests)s”.") % {
            "interests": ", ".join(unknown)
        }
    if "drop_age" in changes:
        return _("Gifts for these interests exist, but none for this age.")
    return _("No gift matches these interests, budget and age together.")
