"""The brief (`brief.html`): who the gift is for, their interests, the budget and age."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from gifts.schemas import RELATIONSHIPS
from widget.screens.actions import action_url

DEFAULT_BRIEF = {"relationship": "friend", "interests": "", "budget_min": "20", "budget_max": "60"}


def brief_context(workflow_id: Any, brief: dict[str, Any]) -> dict[str, Any]:
    return {
        "workflow_id": workflow_id,
        "heading": _("Who is the gift for?"),
        "form": brief_form(workflow_id=workflow_id, brief=brief),
    }


def brief_form(*, workflow_id: Any, brief: dict[str, Any]) -> dict[str, Any]:
    """The brief form's choices and values (the brief view's and the empty view's)."""
    relationship_labels = {
        "partner": pgettext("relationship", "Partner"),
        "spouse": pgettext("relationship", "Spouse"),
        "mother": pgettext("relationship", "Mother"),
        "father": pgettext("relationship", "Father"),
        "parent": pgettext("relationship", "Parent"),
        "child": pgettext("relationship", "Child"),
        "sibling": pgettext("relationship", "Sibling"),
        "grandparent": pgettext("relationship", "Grandparent"),
        "friend": pgettext("relationship", "Friend"),
        "colleague": pgettext("relationship", "Colleague"),
        "teacher": pgettext("relationship", "Teacher"),
        "other": pgettext("relationship", "Someone else"),
    }
    interests = brief.get("interests") or []
    return {
        "relationships": [(r, relationship_labels[r]) for r in RELATIONSHIPS],
        "filled": {
            "relationship": brief.get("relationship") or DEFAULT_BRIEF["relationship"],
            "interests": ", ".join(interests) if isinstance(interests, list) else str(interests),
            "budget_min": brief.get("budget_min") or DEFAULT_BRIEF["budget_min"],
            "budget_max": brief.get("budget_max") or DEFAULT_BRIEF["budget_max"],
            "age": brief.get("age") if brief.get("age") is not None else "",
            "currency": brief.get("currency") or "USD",
        },
        "form_args": json.dumps({"workflow_id": str(workflow_id)} if workflow_id else {}),
        "form_inherit": "" if workflow_id else "workflow_id",
        "action_url": action_url("suggest_gifts"),
    }
