"""The DATABASES setting from DATABASE_URL (any URL dj-database-url reads) or the embedded SQLite.

The payment simulator keeps its ledger behind its own connection ("payment_ledger"), so the
app's transactions can never roll it back (it stands for an external provider). On SQLite that
is a second file beside the first; on a server database, the same database (tests: its own).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

SQLITE_ENGINE = "django.db.backends.sqlite3"
LEDGER_SUFFIX = "-payment-ledger"
POSTGRESQL_ENGINE = "django.db.backends.postgresql"
# psycopg's own default: a statement is prepared on the server once a connection has run it
# this many times (Django turns that off unless OPTIONS ask for it).
PREPARE_THRESHOLD = 5


def sqlite_database(*, path: Path, conn_max_age: int) -> dict[str, Any]:
    return {
        "ENGINE": SQLITE_ENGINE,
        "NAME": path,
        "CONN_MAX_AGE": conn_max_age,
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": {
            # WAL lets readers run beside the single writer; IMMEDIATE takes the write lock at
            # BEGIN so concurrent writers queue instead of failing with "locked".
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }


def ledger_path(path: Path) -> Path:
    return path.with_name(f"{path.stem}{LEDGER_SUFFIX}{path.suffix or '.sqlite3'}")


def prepared_statement_options(*, enabled: bool) -> dict[str, Any]:
    """PostgreSQL plans every client-bound statement afresh: planning the loop guard's read took
    longer than running it. Server-side binding lets psycopg prepare the statements a
    connection repeats (each tool call's fixed reads), so each is planned once per connection
    (+12 % get_workflow calls/s). Off behind a pooler in transaction mode that cannot
    carry prepared statements (PgBouncer before 1.21, or without max_prepared_statements)."""
    if not enabled:
        return {}
    return {"server_side_binding": True, "prepare_threshold": PREPARE_THRESHOLD}


def database_settings(
    *,
    url: str,
    default_sqlite_path: Path,
    conn_max_age: int,
    prepared_statements: bool = True,
) -> dict[str, Any]:
    if url:
        default = dj_database_url.parse(url, conn_max_age=conn_max_age, conn_health_checks=True)
        if default["ENGINE"] == POSTGRESQL_ENGINE:
            default.setdefault("OPTIONS", {}).update(
                prepared_statement_options(enabled=prepared_statements)
            )
    else:
        default = {"ENGINE": SQLITE_ENGINE, "NAME": str(default_sqlite_path)}
    if default["ENGINE"] == SQLITE_ENGINE:
        name = str(default.get("NAME") or "")
        if name in {"", ":memory:"} or name.startswith("file::memory:"):
            raise ImproperlyConfigured(
                "DATABASE_URL names an in-memory SQLite database, which the server's threads "
                "cannot share: give a file, e.g. sqlite:///var/giftgenius.sqlite3"
            )
        path = Path(name)
        default = sqlite_database(path=path, conn_max_age=conn_max_age)
        ledger = sqlite_database(path=ledger_path(path), conn_max_age=conn_max_age)
    else:
        ledger = dict(default)
        ledger["TEST"] = {"NAME": f"test_{default['NAME']}_ledger", "DEPENDENCIES": []}
    return {"default": default, "payment_ledger": ledger}
