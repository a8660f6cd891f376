"""The Jinja2 environment the widget fragments render with.

Fragments are rendered on every tool call that shows a view; Django's template engine spent
about 1 ms on one, more than the tool itself. Jinja2 compiles them to Python. Texts are
translated by Django's own catalogs (the same msgids), under the active `translation.override`.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext
from jinja2 import Environment


def environment(**options: Any) -> Environment:
    options.pop("autoescape", None)  # fragments carry user data: escaping is never off
    env = Environment(autoescape=True, extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    return env
