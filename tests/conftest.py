"""Shared fixtures: users, bearer tokens, the demo catalog and a tool-calling REST client."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from giftgenius.principals import issue_api_token

pytest_plugins = ["tests.live_server"]  # the `live_url` fixture (a real uvicorn server)

ON_POSTGRES = connection.vendor == "postgresql"
_skipped_postgres_tests: list[str] = []


def pytest_collection_modifyitems(config, items):
    for item in items:
        marker = item.get_closest_marker("postgres")
        if marker and not ON_POSTGRES:
            why = marker.kwargs.get("reason", "row locks, real concurrency")
            item.add_marker(
                pytest.mark.skip(reason=f"needs PostgreSQL ({why}); run with DATABASE_URL")
            )


def pytest_runtest_logreport(report):
    if report.skipped and "postgres" in report.keywords:
        _skipped_postgres_tests.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    # CI sets REQUIRE_POSTGRES_TESTS=1 on its PostgreSQL run: a skipped PG test is then a failure.
    if os.environ.get("REQUIRE_POSTGRES_TESTS") == "1" and (
        _skipped_postgres_tests or not ON_POSTGRES
    ):
        print(
            f"\nPostgreSQL tests did not run here ({len(_skipped_postgres_tests)} skipped): failing."
        )
        session.exitstatus = 1


@dataclass
class ToolResponse:
    status: int
    body: dict[str, Any]
    raw: bytes
    headers: Any

    @property
    def error(self) -> dict[str, Any]:
        return self.body["error"]


class ToolClient:
    """Calls `POST /api/tools/<name>` as one principal."""

    def __init__(self, token: str | None) -> None:
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
        self.client = Client(SERVER_NAME="127.0.0.1", **headers)

    def call(self, name: str, arguments: Any = None, /, **headers: str) -> ToolResponse:
        body = json.dumps({} if arguments is None else arguments)
        response = self.client.post(
            f"/api/tools/{name}", data=body, content_type="application/json", **headers
        )
        return ToolResponse(
            response.status_code, json.loads(response.content), response.content, response
        )


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user(username="alice", password="pw-alice-123")


@pytest.fixture
def other_user(db):
    return get_user_model().objects.create_user(username="mallory", password="pw-mallory-123")


@pytest.fixture
def api(user) -> ToolClient:
    return ToolClient(issue_api_token(user=user))


@pytest.fixture
def other_api(other_user) -> ToolClient:
    return ToolClient(issue_api_token(user=other_user))


@pytest.fixture
def demo_catalog(db):
    from giftgenius.catalog_seed import seed_demo_catalog

    return seed_demo_catalog()
