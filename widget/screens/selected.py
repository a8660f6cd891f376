"""The chosen gift (`selected.html`), on its way to checkout."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from widget.screens.actions import back_action, checkout_action
from widget.screens.card import gift_card


def selected_context(workflow_id: Any, gift: dict[str, Any]) -> dict[str, Any]:
    return {
        "workflow_id": workflow_id,
        "heading": _("Your choice"),
        "gift": gift_card(gift, workflow_id, selectable=False, language=translation.get_language()),
        "actions": [
            checkout_action(workflow_id, _("Continue to checkout")),
            back_action(workflow_id, "ideas"),
        ],
    }
