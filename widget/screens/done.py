"""A tool's outcome with no screen of its own (`done.html`): only that it is done."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


def done_context() -> dict[str, Any]:
    return {"heading": _("Done.")}
