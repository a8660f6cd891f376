"""The call log: a call's result never depends on recording it, and the batch (only a read's
first-time success waits in it) is flushed when full, by the flusher, at shutdown and before the
metrics read the log."""

from __future__ import annotations

import json
import logging
import time

import pytest
from django.db import DatabaseError, OperationalError
from django.test import Client
from prometheus_client import CollectorRegistry
from starlette.testclient import TestClient

from giftgenius.operations.metrics import tool_call_totals
from tool_runtime import call_log
from tool_runtime.models import ToolCallLog, UnrecordedToolCall
from tool_runtime.principals import issue_api_token


@pytest.fixture
def raw(user) -> Client:
    """A REST client that does not flush after each call (the shared `api` fixture does)."""
    return Client(
        SERVER_NAME="127.0.0.1", HTTP_AUTHORIZATION=f"Bearer {issue_api_token(user=user)}"
    )


def post(client: Client, name: str, body: dict) -> dict:
    response = client.post(
        f"/api/tools/{name}", data=json.dumps(body), content_type="application/json"
    )
    return response.json()


def logged(tool: str) -> int:
    return ToolCallLog.objects.filter(tool=tool).count()


def test_a_read_success_waits_in_the_batch_until_flushed(raw):
    workflow_id = post(raw, "start_gift_workflow", {})["workflow_id"]
    assert post(raw, "get_workflow", {"workflow_id": workflow_id})["ok"] is True
    assert logged("get_workflow") == 0 and call_log.pending() == 1
    assert call_log.flush() == 1
    row = ToolCallLog.objects.get(tool="get_workflow")
    assert (row.status, row.workflow_id.hex, row.transport) == (
        "success",
        workflow_id.replace("-", ""),
        "rest",
    )
    assert call_log.pending() == 0


def test_a_write_tools_row_is_written_before_the_call_returns(raw):
    post(raw, "start_gift_workflow", {})
    assert logged("start_gift_workflow") == 1
    assert call_log.pending() == 0


def test_a_read_failure_is_written_before_the_call_returns(raw):
    # The loop guard counts failures, so they are never batched.
    assert post(raw, "get_workflow", {"workflow_id": "not-a-uuid"})["ok"] is False
    assert ToolCallLog.objects.filter(tool="get_workflow", status="failed").count() == 1
    assert call_log.pending() == 0


def test_a_full_batch_writes_itself(raw, settings):
    settings.CALL_LOG_BATCH_SIZE = 3
    workflow_id = post(raw, "start_gift_workflow", {})["workflow_id"]
    for expected_pending in (1, 2):
        post(raw, "get_workflow", {"workflow_id": workflow_id})
        assert call_log.pending() == expected_pending
    post(raw, "get_workflow", {"workflow_id": workflow_id})
    assert call_log.pending() == 0 and logged("get_workflow") == 3


def test_a_batch_size_of_one_writes_every_row_at_once(raw, settings):
    settings.CALL_LOG_BATCH_SIZE = 1
    workflow_id = post(raw, "start_gift_workflow", {})["workflow_id"]
    post(raw, "get_workflow", {"workflow_id": workflow_id})
    assert logged("get_workflow") == 1 and call_log.pending() == 0


def test_the_metrics_count_batched_calls_exactly(raw):
    workflow_id = post(raw, "start_gift_workflow", {})["workflow_id"]
    for _ in range(4):
        post(raw, "get_workflow", {"workflow_id": workflow_id})
    totals = {t.tool: t for t in tool_call_totals()}
    assert totals["get_workflow"].calls == 4 and totals["start_gift_workflow"].calls == 1


def test_each_batched_row_keeps_the_time_of_its_call(raw):
    workflow_id = post(raw, "start_gift_workflow", {})["workflow_id"]
    post(raw, "get_workflow", {"workflow_id": workflow_id})
    time.sleep(0.05)
    post(raw, "get_workflow", {"workflow_id": workflow_id})
    call_log.flush()
    first, second = ToolCallLog.objects.filter(tool="get_workflow").order_by("created_at")
    assert (second.created_at - first.created_at).total_seconds() >= 0.05


def row_fields(**overrides) -> dict:
    return {"tool": "get_workflow", "status": "success", "principal": "user:1", **overrides}


@pytest.mark.django_db(transaction=True)
def test_the_flusher_writes_a_waiting_row_within_its_interval(settings):
    settings.CALL_LOG_FLUSH_SECONDS = 0.05
    try:
        call_log.write(fields=row_fields(), deferrable=True)
        deadline = time.monotonic() + 10
        while not ToolCallLog.objects.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert ToolCallLog.objects.count() == 1 and call_log.pending() == 0
    finally:
        settings.CALL_LOG_FLUSH_SECONDS = 0  # the flusher stops at its next wake-up
        time.sleep(0.1)


@pytest.mark.django_db(transaction=True)
def test_shutting_the_app_down_flushes_the_batch():
    from giftgenius.asgi import build_application

    with TestClient(build_application()):
        call_log.write(fields=row_fields(), deferrable=True)
        assert ToolCallLog.objects.count() == 0
    assert ToolCallLog.objects.count() == 1 and call_log.pending() == 0


def test_a_failed_batch_insert_is_logged_counted_and_bounded(monkeypatch, caplog, db):
    call_log.write(fields=row_fields(), deferrable=True)
    before = unrecorded("get_workflow")

    def broken(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(call_log, "insert_rows", broken)
    assert call_log.flush() == 0
    assert call_log.pending() == 0  # dropped, not kept growing
    assert "tool_call_not_recorded" in caplog.text
    assert unrecorded("get_workflow") == before + 1
    assert len(call_log.untallied()) == 1  # tallied once the database takes writes again


def unrecorded(tool: str) -> float:
    """This process's giftgenius_tool_calls_unrecorded_total for `tool`, as /metrics serves it."""
    registry = CollectorRegistry()
    registry.register(call_log.UNRECORDED)
    return registry.get_sample_value("giftgenius_tool_calls_unrecorded_total", {"tool": tool}) or 0


@pytest.mark.postgres
def test_a_row_the_database_refuses_takes_no_other_row_with_it_and_is_still_seen(
    db, caplog, settings
):
    """PostgreSQL refuses NUL in text: one such row once lost its whole batch (five other
    users' calls) and left no trace for the metrics, the loop guard or the alerts."""
    settings.CALL_LOG_BATCH_SIZE = 10
    before = unrecorded("suggest_gifts")
    for n in range(5):
        call_log.write(fields=row_fields(principal=f"user:{n}"), deferrable=True)
    bad = row_fields(tool="suggest_gifts", host_subject="v1/\x00", correlation_id="c" * 32)
    call_log.write(fields=bad, deferrable=True)

    with caplog.at_level(logging.ERROR, logger="tool_runtime.call_log"):
        assert call_log.flush() == 5

    assert ToolCallLog.objects.filter(tool="get_workflow").count() == 5
    assert not ToolCallLog.objects.filter(tool="suggest_gifts").exists()
    lines = [r for r in caplog.records if "tool_call_not_recorded" in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelno == logging.ERROR
    assert unrecorded("suggest_gifts") == before + 1
    tally = UnrecordedToolCall.objects.get()
    assert (tally.tool, tally.correlation_id) == ("suggest_gifts", "c" * 32)
    assert call_log.untallied() == []


def test_a_failure_to_record_the_call_never_replaces_its_result(api, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise DatabaseError("disk full")

    monkeypatch.setattr(call_log, "insert_rows", broken)
    with caplog.at_level(logging.ERROR, logger="giftgenius.tools"):
        response = api.call("start_gift_workflow", {})
    assert response.status == 200
    assert response.body["ok"] is True
    assert any("tool_call_not_recorded" in r.getMessage() for r in caplog.records)
