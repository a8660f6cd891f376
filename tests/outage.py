"""A real database outage on PostgreSQL, for the tests of what the app answers during one."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import psycopg
from django.db import connections


@contextlib.contextmanager
def database_down() -> Iterator[None]:
    """PostgreSQL drops every open connection to the test database and takes no new one until
    the block ends (superusers included), as when the database server goes away."""
    settings = connections["default"].settings_dict
    name = settings["NAME"]
    admin = psycopg.connect(
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        user=settings["USER"] or None,
        password=settings["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )
    try:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        )
        yield
    finally:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        admin.close()
        for connection in connections.all():
            connection.close()  # this thread's were dropped; the next query connects again
