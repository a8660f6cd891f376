"""Local development (`make run`): debug on, fault injection available for the QA preview."""

import os

from .base import *  # noqa: F403
from .base import env_bool

DEBUG = env_bool("DEBUG", True)
FAULT_INJECTION_ENABLED = env_bool("FAULT_INJECTION_ENABLED", True)
WIDGET_DEMO_SHIPPING = env_bool("WIDGET_DEMO_SHIPPING", True)  # the QA preview's demo address
# Receipts are printed by the sweeps' process (`make run` runs it beside the server).
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
# Under debug an edited fragment template shows at once: no remembered renderings.
WIDGET_FRAGMENT_CACHE_SIZE = int(
    os.environ.get("WIDGET_FRAGMENT_CACHE_SIZE", "0" if DEBUG else "1024")
)

# Serve static files straight from the app and project folders (no collectstatic in development).
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Local and test hosts stand in for ChatGPT, so the subject in _meta is trusted here.
MCP_TRUST_OPENAI_SUBJECT = env_bool("MCP_TRUST_OPENAI_SUBJECT", True)
