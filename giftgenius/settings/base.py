"""Settings shared by every environment; everything deployment-specific comes from the environment."""

import os
from pathlib import Path
from urllib.parse import urlsplit

from django.utils.translation import gettext_lazy as _

from checkout.payments import config as payment_config

from .databases import database_settings

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-insecure-key-change-me")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"])
# The public origin the widget and the MCP endpoint are reached at (used for widget CSP and
# the MCP host/origin check). Explicit origins only, never wildcards.
PUBLIC_ORIGIN = os.environ.get("PUBLIC_ORIGIN", "http://127.0.0.1:8000")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "ninja",
    "import_export",
    # The layers, bottom up: each imports only the ones listed before it (pyproject.toml's
    # import contract checks it).
    "tool_runtime",
    "gifts",
    "checkout",
    "widget",
    "giftgenius",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "giftgenius.admin_query.PrintableAdminQuery",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "giftgenius.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "giftgenius.asgi.application"
# Threads serving Django requests in each app process (see giftgenius/asgi.py).
DJANGO_THREADS = int(os.environ.get("DJANGO_THREADS", "8"))

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
    {
        # The widget fragments (widget/jinja2/): rendered on every tool call, so compiled.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "APP_DIRS": True,
        "OPTIONS": {"environment": "widget.jinja.environment"},
    },
]

# Each Django thread keeps its connection between requests (opening one costs more than a
# whole simple tool call); health checks drop connections the database has closed.
CONN_MAX_AGE = int(os.environ.get("CONN_MAX_AGE", "300"))
DATABASES = database_settings(
    url=os.environ.get("DATABASE_URL", ""),
    default_sqlite_path=Path(
        os.environ.get("SQLITE_PATH", BASE_DIR / "var" / "giftgenius.sqlite3")
    ),
    conn_max_age=CONN_MAX_AGE,
    prepared_statements=env_bool("DATABASE_PREPARED_STATEMENTS", True),
)
DATABASE_ROUTERS = ["checkout.payments.router.PaymentLedgerRouter"]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("pl", _("Polish")),
    ("uk", _("Ukrainian")),
    ("ru", _("Russian")),
    ("zh-hans", _("Simplified Chinese")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates and times to the second with their zone, in every language (giftgenius/formats).
FORMAT_MODULE_PATH = ["giftgenius.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "var" / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

LOGIN_URL = "admin:login"

# --- Strict Content-Security-Policy (django-csp 4). Pages narrow frame-ancestors further. ---
CSP_SELF = "'self'"
from csp.constants import NONCE as CSP_NONCE  # noqa: E402 - the sentinel django-csp swaps for the nonce

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [CSP_SELF],
        "script-src": [CSP_SELF, CSP_NONCE],
        "style-src": [CSP_SELF],
        "img-src": [CSP_SELF, "data:"],
        "connect-src": [CSP_SELF],
        "font-src": [CSP_SELF],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": [CSP_SELF],
        "frame-ancestors": ["'none'"],
    },
}

# --- GiftGenius domain settings ---
SUPPORTED_CURRENCIES = ["USD"]
RESERVATION_TTL_SECONDS = int(os.environ.get("RESERVATION_TTL_SECONDS", "900"))
# A QA preview's bearer token lives this long (a working day); the sweeps delete expired ones.
PREVIEW_TOKEN_TTL_SECONDS = int(os.environ.get("PREVIEW_TOKEN_TTL_SECONDS", str(8 * 3600)))
IDEMPOTENCY_KEY_TTL_SECONDS = int(os.environ.get("IDEMPOTENCY_KEY_TTL_SECONDS", str(24 * 3600)))
# Agentic Commerce Protocol checkout sessions (/acp): the versions answered, the country a
# session is priced for until the agent sends an address, and the policy links it shows.
ACP_SUPPORTED_VERSIONS = ("2026-04-17",)
ACP_DEFAULT_COUNTRY = os.environ.get("ACP_DEFAULT_COUNTRY", "US")
ACP_TERMS_URL = os.environ.get("ACP_TERMS_URL", f"{PUBLIC_ORIGIN.rstrip('/')}/terms")
ACP_PRIVACY_URL = os.environ.get("ACP_PRIVACY_URL", f"{PUBLIC_ORIGIN.rstrip('/')}/privacy")
# A session older than this is not found (its draft's stock hold lapsed long before).
ACP_SESSION_TTL_SECONDS = int(os.environ.get("ACP_SESSION_TTL_SECONDS", str(24 * 3600)))
# The acquirer an agent names when it authenticates a card (3-D Secure) for us: the session's
# `authentication_metadata.acquirer_details`. Set them to the values your acquirer assigned.
ACP_3DS_ACQUIRER_DETAILS = {
    "acquirer_bin": os.environ.get("ACP_3DS_ACQUIRER_BIN", "000000"),
    "acquirer_country": os.environ.get("ACP_3DS_ACQUIRER_COUNTRY", "US"),
    "acquirer_merchant_id": os.environ.get("ACP_3DS_ACQUIRER_MERCHANT_ID", "giftgenius"),
    "merchant_name": os.environ.get("ACP_3DS_MERCHANT_NAME", "GiftGenius"),
}
# How far a signed request's Timestamp may be from now.
ACP_SIGNATURE_MAX_SKEW_SECONDS = 300
# How long an agent's order-events endpoint may take to answer one event (then: retried).
ACP_ORDER_EVENTS_TIMEOUT_SECONDS = float(os.environ.get("ACP_ORDER_EVENTS_TIMEOUT_SECONDS", "10"))
# ChatGPT's payment sheet (window.openai.requestCheckout), a private beta: off unless enabled.
CHATGPT_PAYMENT_SHEET = os.environ.get("CHATGPT_PAYMENT_SHEET", "") == "1"
# The merchant id ChatGPT's sheet pays (the Stripe profile's Network ID).
CHATGPT_MERCHANT_ID = os.environ.get("CHATGPT_MERCHANT_ID", "")
IDEMPOTENCY_LOCK_TIMEOUT_SECONDS = int(os.environ.get("IDEMPOTENCY_LOCK_TIMEOUT_SECONDS", "60"))
LOOP_GUARD_MAX_FAILURES = int(os.environ.get("LOOP_GUARD_MAX_FAILURES", "3"))
LOOP_GUARD_WINDOW_SECONDS = int(os.environ.get("LOOP_GUARD_WINDOW_SECONDS", "600"))
# Seconds a process may reuse a verified bearer token (tool_runtime.caller_cache): a revocation
# takes effect at once in the process that made it and within this bound in every other one.
CALLER_CACHE_SECONDS = float(os.environ.get("CALLER_CACHE_SECONDS", "10"))
# Successful read-tool calls are logged in batches (tool_runtime.call_log): at most this many rows
# wait, for at most CALL_LOG_FLUSH_SECONDS. A batch size of 1 writes every row at once.
CALL_LOG_BATCH_SIZE = int(os.environ.get("CALL_LOG_BATCH_SIZE", "50"))
CALL_LOG_FLUSH_SECONDS = float(os.environ.get("CALL_LOG_FLUSH_SECONDS", "1.0"))
# Seconds a process may reuse catalog details (names, prices) it has read; stock is always live.
CATALOG_CACHE_SECONDS = float(os.environ.get("CATALOG_CACHE_SECONDS", "30"))
# Rendered widget views a process remembers (widget.fragment_cache); 0 turns it off.
WIDGET_FRAGMENT_CACHE_SIZE = int(os.environ.get("WIDGET_FRAGMENT_CACHE_SIZE", "1024"))
# Upstream retries (stamina): bounded attempts inside a deadline well under a tool-call timeout.
UPSTREAM_RETRY_ATTEMPTS = int(os.environ.get("UPSTREAM_RETRY_ATTEMPTS", "3"))
UPSTREAM_RETRY_DEADLINE_SECONDS = float(os.environ.get("UPSTREAM_RETRY_DEADLINE_SECONDS", "3.0"))
UPSTREAM_RETRY_WAIT_INITIAL_SECONDS = float(
    os.environ.get("UPSTREAM_RETRY_WAIT_INITIAL_SECONDS", "0.05")
)
UPSTREAM_RETRY_WAIT_MAX_SECONDS = float(os.environ.get("UPSTREAM_RETRY_WAIT_MAX_SECONDS", "0.5"))
# Fault injection exists for tests and the QA preview only; production forces it off.
FAULT_INJECTION_ENABLED = env_bool("FAULT_INJECTION_ENABLED", False)
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
# Act for the ChatGPT user named by the request's _meta["openai/subject"] when no bearer token
# is sent. That subject is asserted by whoever calls /mcp, so it is for development and tests
# only: production settings refuse to start with it on (sign-in is OAuth there).
MCP_TRUST_OPENAI_SUBJECT = env_bool("MCP_TRUST_OPENAI_SUBJECT", False)
# The MCP SDK wraps every message in an OpenTelemetry span. Nothing here exports spans (the
# call log, the JSON logs and /metrics are the observability), and even unexported they cost
# ~2.5 % of a /mcp call's CPU; MCP_OPENTELEMETRY_SPANS=1 keeps them for a deployment
# that installs an OpenTelemetry SDK and exporter.
MCP_OPENTELEMETRY_SPANS = env_bool("MCP_OPENTELEMETRY_SPANS", False)

# --- MCP endpoint (/mcp) host/origin checks and the widget resource's CSP (explicit, no wildcards) ---
_public = urlsplit(PUBLIC_ORIGIN)
_PUBLIC_ORIGIN = f"{_public.scheme}://{_public.netloc}"
# Django's ".example.com" / "*" patterns have no MCP equivalent; only concrete hosts carry over.
_MCP_HOSTS = [h for h in ALLOWED_HOSTS if h and not h.startswith((".", "*"))]
_LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "[::1]"}
# Each allowed host is accepted bare; loopback (development, tests) with any port too. Host and
# port are matched as whole tokens (giftgenius.transports.mcp_http), so `host:*` is no prefix.
MCP_ALLOWED_HOSTS = env_list(
    "MCP_ALLOWED_HOSTS",
    sorted(
        {
            _public.netloc,
            *_MCP_HOSTS,
            *(f"{h}:*" for h in _MCP_HOSTS if h in _LOOPBACK_HOSTS),
        }
    ),
)
# Browsers send Origin; plain http is accepted only from loopback (local development).
MCP_ALLOWED_ORIGINS = env_list(
    "MCP_ALLOWED_ORIGINS",
    sorted(
        {
            _PUBLIC_ORIGIN,
            "https://chatgpt.com",
            *(f"https://{h}" for h in _MCP_HOSTS),
            *(f"http://{h}:*" for h in _MCP_HOSTS if h in _LOOPBACK_HOSTS),
        }
    ),
)
WIDGET_DOMAIN = os.environ.get("WIDGET_DOMAIN", _PUBLIC_ORIGIN)
WIDGET_CONNECT_DOMAINS = env_list("WIDGET_CONNECT_DOMAINS", [_PUBLIC_ORIGIN])
WIDGET_RESOURCE_DOMAINS = env_list("WIDGET_RESOURCE_DOMAINS", [_PUBLIC_ORIGIN])

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "loggers": {
        **{
            app: {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")}
            for app in ("giftgenius", "widget", "checkout", "gifts", "tool_runtime")
        },
        "django": {"handlers": ["console"], "level": "WARNING"},
    },
}
UPSTREAM_RETRY_WAIT_JITTER_SECONDS = float(
    os.environ.get("UPSTREAM_RETRY_WAIT_JITTER_SECONDS", "0.1")
)
# --- Payments (checkout.payments) ---
# PAYMENT_PROVIDER=simulator (default: the built-in simulator, its own ledger DB) | stripe, or a
# dotted path; Stripe's configuration is checked here, so a missing key stops start-up.
PAYMENT_PROVIDER = payment_config.provider_path(os.environ)
_stripe = payment_config.stripe_settings(
    os.environ, required=PAYMENT_PROVIDER == payment_config.STRIPE
)
STRIPE_API_KEY = _stripe["STRIPE_API_KEY"]
STRIPE_WEBHOOK_SECRET = _stripe["STRIPE_WEBHOOK_SECRET"]
STRIPE_API_BASE = _stripe["STRIPE_API_BASE"]
STRIPE_TIMEOUT_SECONDS = float(os.environ.get("STRIPE_TIMEOUT_SECONDS", "10"))
# How far back a lookup by provider key lists PaymentIntents (checkout.payments.stripe_provider).
STRIPE_LOOKUP_WINDOW_SECONDS = int(os.environ.get("STRIPE_LOOKUP_WINDOW_SECONDS", str(48 * 3600)))
# Provider retries (stamina, one layer: checkout.payments.gateway), always with the same key.
PAYMENT_RETRY_ATTEMPTS = int(os.environ.get("PAYMENT_RETRY_ATTEMPTS", "3"))
PAYMENT_RETRY_DEADLINE_SECONDS = float(os.environ.get("PAYMENT_RETRY_DEADLINE_SECONDS", "5.0"))
PAYMENT_RETRY_WAIT_INITIAL_SECONDS = float(
    os.environ.get("PAYMENT_RETRY_WAIT_INITIAL_SECONDS", "0.1")
)
PAYMENT_RETRY_WAIT_MAX_SECONDS = float(os.environ.get("PAYMENT_RETRY_WAIT_MAX_SECONDS", "1.0"))
PAYMENT_RETRY_WAIT_JITTER_SECONDS = float(
    os.environ.get("PAYMENT_RETRY_WAIT_JITTER_SECONDS", "0.1")
)
# pm_card_pending: seconds before a pending simulated charge settles (on the next read after it).
SIMULATOR_PENDING_SETTLE_SECONDS = float(os.environ.get("SIMULATOR_PENDING_SETTLE_SECONDS", "0"))
# Signed provider webhooks (POST /webhooks/stripe, checkout.webhooks), checked against
# STRIPE_WEBHOOK_SECRET above. Without a secret the endpoint answers 404.
# An order sent to hosted checkout holds its stock for the payment page's life: Stripe keeps a
# Checkout Session open 30 minutes at least (and 24 hours at most); other orders keep
# RESERVATION_TTL_SECONDS. An order still awaiting payment this long after its page opened is
# reconciled by the sweep, asking the provider (a lost webhook).
HOSTED_CHECKOUT_HOLD_SECONDS = int(os.environ.get("HOSTED_CHECKOUT_HOLD_SECONDS", "1800"))
HOSTED_CHECKOUT_RECONCILE_SECONDS = int(os.environ.get("HOSTED_CHECKOUT_RECONCILE_SECONDS", "300"))
STRIPE_WEBHOOK_TOLERANCE_SECONDS = int(os.environ.get("STRIPE_WEBHOOK_TOLERANCE_SECONDS", "300"))
WEBHOOK_MAX_BODY_BYTES = 1024 * 1024
# --- The shop, and the e-mail it sends (receipts, through the outbox) ---
SHOP_NAME = os.environ.get("SHOP_NAME", "GiftGenius")
# The shop's policy pages for the ACP product feed's seller links, as "type=url" pairs, e.g.
# "refund_policy=https://shop.example/refunds,terms_of_service=https://shop.example/terms".
SHOP_LINKS = env_list("SHOP_LINKS", [])
# E-mails write times in the shop's zone and name it (the person's own zone is not known there).
SHOP_TIME_ZONE = os.environ.get("SHOP_TIME_ZONE", "Europe/Warsaw")
# SMTP from the environment by default; a provider's Django backend (EMAIL_BACKEND) works too.
# `make run` prints e-mails to the console (settings.dev); tests use Django's locmem outbox.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "GiftGenius <orders@giftgenius.example>")

# The outbox (checkout.outbox: webhook events to apply, e-mails to send): a delivery that fails
# is retried by the sweeps after base·2^(n-1) seconds (capped), then parked for a person after
# this many tries.
OUTBOX_MAX_ATTEMPTS = int(os.environ.get("OUTBOX_MAX_ATTEMPTS", "5"))
OUTBOX_RETRY_BASE_SECONDS = float(os.environ.get("OUTBOX_RETRY_BASE_SECONDS", "30"))
OUTBOX_RETRY_MAX_SECONDS = float(os.environ.get("OUTBOX_RETRY_MAX_SECONDS", "3600"))

# --- OAuth 2.1 sign-in for /mcp and /api/tools ---
# GiftGenius is its own authorization server (django-oauth-toolkit): authorization code with
# PKCE S256, dynamic client registration, tokens bound to the resource asked for (RFC 8707).
INSTALLED_APPS += ["oauth2_provider"]
OAUTH_ACCESS_TOKEN_SECONDS = int(os.environ.get("OAUTH_ACCESS_TOKEN_SECONDS", "900"))
OAUTH2_PROVIDER = {
    # Plain names here; the consent page shows the localized texts of tool_runtime.registry.SCOPES.
    "SCOPES": {
        "gifts:read": "Read gift searches and orders",
        "gifts:write": "Start gift searches and choose gifts",
        "orders:write": "Prepare, pay for and cancel orders",
    },
    "DEFAULT_SCOPES": ["gifts:read", "gifts:write", "orders:write"],
    "PKCE_REQUIRED": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": OAUTH_ACCESS_TOKEN_SECONDS,
    "REFRESH_TOKEN_EXPIRE_SECONDS": int(os.environ.get("OAUTH_REFRESH_TOKEN_SECONDS", "2592000")),
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "REQUEST_APPROVAL_PROMPT": "force",  # the person consents on every sign-in
    # MCP hosts' redirect URIs are https; native clients may use a loopback http callback.
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https", "http"],
    "ALLOW_LOCALHOST_LOOPBACK": True,
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
    "OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": [
        "client_secret_basic",
        "client_secret_post",
        "none",
    ],
    "OAUTH2_PROTECTED_RESOURCE_NAME": "GiftGenius",
    # RFC 9700 behaviour: S256 only (plain refused), no implicit or password grant, tokens only
    # in the Authorization header, tokens stored hashed, `iss` in the authorization response.
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_REFRESH_TOKEN": True,
    # MCP hosts register themselves (RFC 7591) without an account, bounded by
    # giftgenius.oauth.boundaries (size, redirect URIs, grant types, rate), or name themselves
    # by the https URL of a Client ID Metadata Document, fetched by giftgenius.oauth.client_metadata.
    "DCR_ENABLED": True,
    "DCR_REGISTRATION_PERMISSION_CLASSES": ("oauth2_provider.dcr.AllowAllDCRPermission",),
    "CIMD_ENABLED": True,
    "CIMD_METADATA_FETCHER": "giftgenius.oauth.client_metadata.ClientMetadataFetcher",
    "CIMD_FETCH_TIMEOUT_SECONDS": float(os.environ.get("OAUTH_CIMD_FETCH_TIMEOUT_SECONDS", "5")),
    "CIMD_MAX_DOCUMENT_SIZE": 16 * 1024,
    "CIMD_METADATA_MIN_AGE_SECONDS": 300,
    "CIMD_METADATA_MAX_AGE_SECONDS": 86400,
    "OAUTH2_VALIDATOR_CLASS": "giftgenius.oauth.validator.GiftGeniusOAuth2Validator",
}
# The toolkit's swappable models, named as its migrations expect (our own rows point to them).
OAUTH2_PROVIDER_APPLICATION_MODEL = "oauth2_provider.Application"
# Dynamic client registration's bounds. The rate counts per client address in the default
# cache: per process unless CACHES names a shared one. A host registers once per user sign-in
# at most, so 60 an hour from one address is generous for a platform with a few egress IPs.
OAUTH_REGISTRATION_MAX_BYTES = int(os.environ.get("OAUTH_REGISTRATION_MAX_BYTES", "16384"))
OAUTH_REGISTRATION_MAX_REDIRECT_URIS = int(
    os.environ.get("OAUTH_REGISTRATION_MAX_REDIRECT_URIS", "10")
)
OAUTH_REGISTRATION_RATE = os.environ.get("OAUTH_REGISTRATION_RATE", "60/h")
# How many reverse proxies in front of the app append the client's address to X-Forwarded-For.
# 0 (the default): the header is ignored and the peer address counts, as anyone can send it.
OAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("OAUTH_TRUSTED_PROXY_COUNT", "0"))
# The paths of our protected resources: a token is issued only for a resource under one of them
# on a host of ALLOWED_HOSTS (RFC 8707 resource indicators).
OAUTH_RESOURCE_PATHS = ("/mcp", "/api/tools")
# Client ID Metadata Documents are fetched from public addresses only. Tests (which serve one
# on loopback with their own CA) turn these on; production settings refuse them.
OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES = env_bool("OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES", False)
OAUTH_CIMD_CA_FILE = os.environ.get("OAUTH_CIMD_CA_FILE", "")
# A plain sign-in (no `next`) lands on a page that says so.
LOGIN_REDIRECT_URL = "oauth-signed-in"
# oauthlib and the toolkit log codes and redirect URLs (with the code) at DEBUG, and Stripe's SDK
# whole response bodies (a card's expiry, a PaymentIntent's client secret): warnings only,
# whatever LOG_LEVEL says, so no token, secret, code or card detail reaches the logs.
LOGGING["loggers"].update(
    {
        "oauthlib": {"handlers": ["console"], "level": "WARNING", "propagate": False},
        "oauth2_provider": {"handlers": ["console"], "level": "WARNING", "propagate": False},
        "stripe": {"handlers": ["console"], "level": "WARNING", "propagate": False},
    }
)
# --- Widget look and locale ---
# Origins a real catalog's product pictures load from (explicit https://host, never a wildcard).
# They join the page CSP's img-src and the widget resource's resource domains.
WIDGET_IMAGE_ORIGINS = env_list("WIDGET_IMAGE_ORIGINS", [])
CONTENT_SECURITY_POLICY["DIRECTIVES"]["img-src"] = [CSP_SELF, "data:", *WIDGET_IMAGE_ORIGINS]
# The demo pictures carry a version in their name, so browsers may keep them for a year.
from widget.static_headers import picture_cache_headers  # noqa: E402 - needs no Django setup

WHITENOISE_ADD_HEADERS_FUNCTION = picture_cache_headers
# Root-relative picture URLs (the demo catalog's) are made absolute against this origin in the
# MCP widget, whose frame is on another origin; its origin joins the widget's resource domains.
WIDGET_IMAGE_BASE_URL = os.environ.get("WIDGET_IMAGE_BASE_URL", _PUBLIC_ORIGIN)
# The checkout form starts with a made-up demo address ("Demo Buyer") only where QA clicks
# through (development and tests); a real person's starts empty, or with the address they
# already typed in the same workflow.
WIDGET_DEMO_SHIPPING = env_bool("WIDGET_DEMO_SHIPPING", False)
