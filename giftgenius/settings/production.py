"""Production: debug off, secrets from the environment, HTTPS-only cookies, no fault injection."""

import os

from .base import *  # noqa: F403

DEBUG = False
SECRET_KEY = os.environ["SECRET_KEY"]  # required: fail at start-up rather than run insecurely
# Fault injection can never be switched on here, whatever the environment says.
FAULT_INJECTION_ENABLED = False

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = True
SECURE_HSTS_SECONDS = 31536000
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True

# --- Payments: real money goes through a real provider ---
from checkout.payments import config as payment_config  # noqa: E402

payment_config.refuse_simulator_in_production(PAYMENT_PROVIDER, os.environ)  # noqa: F405

# --- OAuth 2.1 sign-in for /mcp and /api/tools ---
from django.core.exceptions import ImproperlyConfigured  # noqa: E402

if MCP_TRUST_OPENAI_SUBJECT:  # noqa: F405
    raise ImproperlyConfigured(
        "MCP_TRUST_OPENAI_SUBJECT must be off in production: /mcp signs users in with OAuth 2.1."
    )
if OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES:  # noqa: F405
    raise ImproperlyConfigured(
        "OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES must be off in production: a client's metadata URL "
        "could otherwise make the server fetch from its own network."
    )
# Redirect URIs must be https here (RFC 9700 §2.1); loopback http callbacks are a dev convenience.
OAUTH2_PROVIDER = {
    **OAUTH2_PROVIDER,  # noqa: F405
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https"],
    "ALLOW_LOCALHOST_LOOPBACK": False,
    "COMPLIANT_BCP_RFC9700_REDIRECT_URI_SCHEME": True,
}
