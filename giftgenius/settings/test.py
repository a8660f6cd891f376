"""Test settings: the embedded database unless DATABASE_URL says otherwise, fast hashing."""

from .base import *  # noqa: F403
from .base import BASE_DIR, DATABASES

# Live-server threads must not keep connections open past a test: the test databases are
# flushed and finally dropped, which open connections would block on PostgreSQL.
for _alias in DATABASES.values():
    _alias["CONN_MAX_AGE"] = 0

DEBUG = False
FAULT_INJECTION_ENABLED = True
WIDGET_DEMO_SHIPPING = True  # flows click through checkout with the demo address
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SECRET_KEY = "test-only-secret-key"  # noqa: S105
# On SQLite the test databases are files (not shared memory) so live-server threads and
# subprocesses see the same data the test wrote.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    (BASE_DIR / "var").mkdir(exist_ok=True)
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "var" / "test-giftgenius.sqlite3")}
    DATABASES["payment_ledger"]["TEST"] = {
        "NAME": str(BASE_DIR / "var" / "test-payment-ledger.sqlite3"),
        "DEPENDENCIES": [],
    }
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Retries keep their attempt count in tests, but never wait.
UPSTREAM_RETRY_WAIT_INITIAL_SECONDS = 0.0
UPSTREAM_RETRY_WAIT_MAX_SECONDS = 0.0
UPSTREAM_RETRY_WAIT_JITTER_SECONDS = 0.0
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
# Payment retries keep their attempt count in tests, but never wait.
PAYMENT_RETRY_WAIT_INITIAL_SECONDS = 0.0
PAYMENT_RETRY_WAIT_MAX_SECONDS = 0.0
PAYMENT_RETRY_WAIT_JITTER_SECONDS = 0.0
# Tests rebuild the catalog per test; the detail cache has its own test with a TTL.
CATALOG_CACHE_SECONDS = 0.0

# Local and test hosts stand in for ChatGPT, so the subject in _meta is trusted here.
MCP_TRUST_OPENAI_SUBJECT = True
# Read-tool rows still batch in tests, but no background thread writes them (it would write
# outside the test's transaction): the test clients and the metrics flush them deterministically.
CALL_LOG_FLUSH_SECONDS = 0.0
# Tests serve Client ID Metadata Documents on loopback (with their own CA, set per test).
OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES = True
# The suite registers many clients from one address; the rate's own test sets a low one.
OAUTH_REGISTRATION_RATE = "100000/m"
