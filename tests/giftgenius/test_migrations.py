"""The migrations: the committed ones match the models (a fresh clone migrates to exactly this
schema), and a fresh PostgreSQL deployment migrates every table, the payment ledger's included.

In production both database aliases name one PostgreSQL database and share its
django_migrations table, so that is checked on a real fresh database, the README's way."""

import os
import subprocess
import sys
import uuid
from io import StringIO

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection

from tests import REPO_ROOT


def test_no_model_change_is_missing_a_migration(db):
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


@pytest.mark.postgres(reason="both database aliases on one PostgreSQL database")
def test_readme_migrate_commands_create_the_ledger_tables_on_one_postgres_database():
    params = connection.settings_dict
    name = f"giftgenius_deploy_{uuid.uuid4().hex[:8]}"
    server = f"postgres://{params['USER']}@{params['HOST']}:{params['PORT'] or 5432}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        env = {
            **os.environ,
            "DATABASE_URL": f"{server}/{name}",
            "DJANGO_SETTINGS_MODULE": "giftgenius.settings.dev",
        }
        for args in (
            ["migrate", "--noinput"],
            ["migrate", "--database", "payment_ledger", "--noinput"],
        ):
            subprocess.run(
                [sys.executable, "manage.py", *args],
                cwd=REPO_ROOT,
                env=env,
                check=True,
                capture_output=True,
            )
        with psycopg.connect(f"{server}/{name}") as db:
            tables = {
                row[0]
                for row in db.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            }
        for table in (
            "checkout_simulatedcharge",
            "checkout_simulatedrefund",
            "checkout_simulatedchargerequest",
            "checkout_order",
            "gifts_product",
            "tool_runtime_idempotencykey",
        ):
            assert table in tables
    finally:
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
