"""The settings: DATABASE_URL (any URL dj-database-url reads works, SQLite included, with the
payment ledger database placed beside the app's), and production's, which refuse to start
insecure and pass `check --deploy`."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from giftgenius.settings.databases import PREPARE_THRESHOLD, database_settings
from tests import REPO_ROOT

LINUX_ONLY = pytest.mark.skipif(
    sys.platform != "linux", reason="subprocess environment is Linux-specific here"
)


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    """`python manage.py *args` in a fresh process with exactly `env`."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_sqlite_url_gets_the_ledger_beside_it_and_the_embedded_options(tmp_path):
    dbs = database_settings(
        url=f"sqlite:///{tmp_path}/shop.db", default_sqlite_path=Path("unused"), conn_max_age=5
    )
    assert dbs["default"]["NAME"] == tmp_path / "shop.db"
    assert dbs["payment_ledger"]["NAME"] == tmp_path / "shop-payment-ledger.db"
    for alias in dbs.values():
        assert alias["ENGINE"] == "django.db.backends.sqlite3"
        assert alias["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
        assert alias["CONN_MAX_AGE"] == 5


def test_the_embedded_default_and_a_suffixless_file():
    dbs = database_settings(url="", default_sqlite_path=Path("/srv/gg/data"), conn_max_age=0)
    assert dbs["default"]["NAME"] == Path("/srv/gg/data")
    assert dbs["payment_ledger"]["NAME"] == Path("/srv/gg/data-payment-ledger.sqlite3")


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_an_in_memory_sqlite_url_is_refused_with_one_clear_line(url):
    with pytest.raises(ImproperlyConfigured, match="in-memory SQLite"):
        database_settings(url=url, default_sqlite_path=Path("unused"), conn_max_age=0)


def test_a_postgres_url_shares_the_server_and_tests_get_their_own_ledger():
    dbs = database_settings(
        url="postgres://shop:pw@db.internal:5433/shop",
        default_sqlite_path=Path("x"),
        conn_max_age=60,
    )
    assert dbs["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert dbs["default"]["HOST"] == "db.internal" and dbs["default"]["PORT"] == 5433
    assert dbs["payment_ledger"]["NAME"] == "shop"
    assert dbs["payment_ledger"]["TEST"]["NAME"] == "test_shop_ledger"


def test_the_app_migrates_and_starts_on_a_sqlite_database_url(tmp_path):
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path}/app.sqlite3",
        "DJANGO_SETTINGS_MODULE": "giftgenius.settings.dev",
    }
    for args in (
        ["migrate", "--noinput", "-v0"],
        ["migrate", "--database", "payment_ledger", "--noinput", "-v0"],
        ["check"],
    ):
        done = manage(*args, env=env)
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "app.sqlite3").stat().st_size > 0
    assert (tmp_path / "app-payment-ledger.sqlite3").stat().st_size > 0


def test_postgresql_prepares_repeated_statements_unless_told_not_to():
    def options(**kwargs):
        dbs = database_settings(
            url="postgres://shop@db/shop", default_sqlite_path=Path("x"), conn_max_age=0, **kwargs
        )
        return dbs["default"]["OPTIONS"], dbs["payment_ledger"]["OPTIONS"]

    on = {"server_side_binding": True, "prepare_threshold": PREPARE_THRESHOLD}
    assert options() == (on, on)
    # Behind a pooler in transaction mode prepared statements would land on other sessions.
    assert options(prepared_statements=False) == ({}, {})


def test_sqlite_gets_no_postgresql_options(tmp_path):
    dbs = database_settings(
        url=f"sqlite:///{tmp_path}/a.db", default_sqlite_path=Path("x"), conn_max_age=0
    )
    assert "server_side_binding" not in dbs["default"]["OPTIONS"]
    assert "prepare_threshold" not in dbs["payment_ledger"]["OPTIONS"]


# --- production -------------------------------------------------------------------------------


@LINUX_ONLY
def test_production_settings_pass_check_deploy():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "giftgenius.settings.production",
        "SECRET_KEY": "k" * 30 + "-Production-Secret-Key-With-Entropy-9f3b1c",
        "ALLOWED_HOSTS": "giftgenius.example.com",
        # Production takes money through Stripe; the check makes no call to it.
        "PAYMENT_PROVIDER": "stripe",
        "STRIPE_API_KEY": "sk_test_check_deploy",
        "STRIPE_WEBHOOK_SECRET": "whsec_check_deploy",
    }
    env.pop("DATABASE_URL", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set by the browser tests for their own process
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_settings_require_a_secret_key():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "giftgenius.settings.production"}
    env.pop("SECRET_KEY", None)
    result = manage("check", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


@LINUX_ONLY
def test_production_refuses_to_start_with_the_trusted_subject_on():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "giftgenius.settings.production",
        "SECRET_KEY": "k" * 50,
        "MCP_TRUST_OPENAI_SUBJECT": "1",
        "PAYMENT_PROVIDER_ALLOW_SIMULATOR": "1",
    }
    result = manage("check", env=env)
    assert result.returncode != 0
    assert (
        "ImproperlyConfigured: MCP_TRUST_OPENAI_SUBJECT must be off in production" in result.stderr
    )


def test_production_settings_force_fault_injection_off(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "x" * 60)
    monkeypatch.setenv("FAULT_INJECTION_ENABLED", "1")
    monkeypatch.setenv("PAYMENT_PROVIDER_ALLOW_SIMULATOR", "1")
    production = importlib.import_module("giftgenius.settings.production")
    production = importlib.reload(production)
    assert production.FAULT_INJECTION_ENABLED is False
    assert production.DEBUG is False
    assert production.MCP_TRUST_OPENAI_SUBJECT is False  # opt-in only
