"""Shared fixtures: users, bearer tokens, the demo catalog and a tool-calling REST client."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from tool_runtime import call_log
from tool_runtime.principals import issue_api_token

pytest_plugins = [
    "tests.live_server",  # the `live_url` fixture (a real uvicorn server)
    "tests.localstripe",  # localstripe (a fake Stripe API) and a fault proxy before it
]

ON_POSTGRES = connection.vendor == "postgresql"
CHROMIUM = Path("/usr/bin/chromium")


@dataclass(frozen=True)
class Requirement:
    """Tests under `marker` need something this machine may lack. They skip with a reason where
    it is missing; CI sets `required_by` to 1, and then a skipped one fails the run."""

    marker: str
    required_by: str
    missing: Callable[[], str | None]  # why the tests cannot run here, or None


REQUIREMENTS = [
    Requirement(
        "postgres",
        "REQUIRE_POSTGRES_TESTS",
        lambda: None if ON_POSTGRES else "needs PostgreSQL (run with DATABASE_URL)",
    ),
    Requirement(
        "browser",
        "REQUIRE_BROWSER_TESTS",
        lambda: (
            "SKIP_BROWSER_TESTS=1"
            if os.environ.get("SKIP_BROWSER_TESTS") == "1"
            else None
            if CHROMIUM.exists()
            else f"needs Debian's Chromium at {CHROMIUM} (apt-get install chromium)"
        ),
    ),
]
_skipped: dict[str, list[str]] = {r.marker: [] for r in REQUIREMENTS}


def pytest_collection_modifyitems(config, items):
    for requirement in REQUIREMENTS:
        why = requirement.missing()
        if why is None:
            continue
        for item in items:
            marker = item.get_closest_marker(requirement.marker)
            if marker:
                detail = marker.kwargs.get("reason")
                item.add_marker(pytest.mark.skip(reason=f"{why}{f' ({detail})' if detail else ''}"))


def pytest_runtest_logreport(report):
    if report.skipped:
        for marker, skipped in _skipped.items():
            if marker in report.keywords:
                skipped.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    # CI sets REQUIRE_<KIND>_TESTS=1: a skipped test of that kind is then a failure.
    for requirement in REQUIREMENTS:
        if os.environ.get(requirement.required_by) != "1":
            continue
        skipped = _skipped[requirement.marker]
        if skipped or requirement.missing():
            print(
                f"\n{requirement.marker} tests did not run here ({len(skipped)} skipped, "
                f"{requirement.required_by}=1): failing."
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
        call_log.flush()  # batched read-tool rows are written now, so the test can read them
        return ToolResponse(
            response.status_code, json.loads(response.content), response.content, response
        )


@pytest.fixture(autouse=True)
def _fresh_caller_cache():
    """Verified tokens are cached per process; a test starts (and ends) with none remembered."""
    from tool_runtime import caller_cache

    caller_cache.clear()
    call_log.discard()
    yield
    caller_cache.clear()
    call_log.discard()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    from checkout.store_seed import seed_demo_store

    with django_db_blocker.unblock():
        seed_demo_store()


@pytest.fixture(autouse=True)
def _demo_store(request):
    """The shop's delivery options and tax rates, which every order needs: seeded once per
    session, and again after a transactional test emptied the tables."""
    names = set(request.fixturenames)
    marker = request.node.get_closest_marker("django_db")
    if not (marker or names & {"db", "transactional_db"}):
        return
    transactional = "transactional_db" in names or (marker and marker.kwargs.get("transaction"))
    request.getfixturevalue("transactional_db" if transactional else "db")
    from checkout.store import ShippingRate
    from checkout.store_seed import seed_demo_store

    if not ShippingRate.objects.exists():
        seed_demo_store()


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
    from gifts.catalog_seed import seed_demo_catalog

    return seed_demo_catalog()
