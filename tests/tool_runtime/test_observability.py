"""Correlation ids (taken from the request when well-formed, minted otherwise, echoed back) and
the structured JSON log: one line per tool call, rendered only when its level is on."""

import json
import logging
import re

import pytest

from tests.fixtures import BRIEF, start
from tool_runtime.observability import correlation_id_from, get_logger


def test_correlation_id_is_taken_from_the_request_and_echoed(api):
    response = api.call("start_gift_workflow", {}, HTTP_X_CORRELATION_ID="abc-123")
    assert response.headers["X-Correlation-ID"] == "abc-123"
    assert response.body["_meta"]["correlation_id"] == "abc-123"
    minted = api.call(
        "start_gift_workflow", {}, HTTP_X_CORRELATION_ID="bad id with spaces <script>"
    )
    assert minted.body["_meta"]["correlation_id"] != "bad id with spaces <script>"
    assert len(minted.body["_meta"]["correlation_id"]) == 32


@pytest.mark.parametrize("candidate", ["abc-123\n", "x" * 65, "", "a b", None, 42])
def test_a_malformed_correlation_id_is_replaced_by_a_minted_one(candidate):
    minted = correlation_id_from(candidate)
    assert minted != candidate and re.fullmatch(r"[0-9a-f]{32}", minted)


def test_one_structured_json_log_line_per_tool_call(api, caplog, demo_catalog):
    workflow_id = start(api)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="giftgenius.tools"):
        api.call(
            "suggest_gifts", {"workflow_id": workflow_id, **BRIEF}, HTTP_X_CORRELATION_ID="log-1"
        )
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "giftgenius.tools"]
    assert len(lines) == 1
    line = lines[0]
    assert line["event"] == "tool_call"
    assert line["tool"] == "suggest_gifts"
    assert line["workflow_id"] == workflow_id
    assert line["step_id"] == "ideas"
    assert line["status"] == "success"
    assert line["correlation_id"] == "log-1"
    assert line["principal"].startswith("user:")
    assert isinstance(line["duration_ms"], float)
    for key in ("error_code", "idempotency_key"):
        assert key in line


class CountsItsRenders:
    """A logged value that counts how often a log line is rendered with it."""

    def __init__(self) -> None:
        self.renders = 0

    def __repr__(self) -> str:
        self.renders += 1
        return "<counted>"


def test_a_line_below_the_level_is_dropped_before_it_is_rendered(caplog):
    log, value = get_logger("giftgenius.tools"), CountsItsRenders()
    with caplog.at_level(logging.WARNING, logger="giftgenius.tools"):
        log.info("tool_call", value=value, keys={1: "non-string key"})
    assert value.renders == 0 and not caplog.records

    with caplog.at_level(logging.INFO, logger="giftgenius.tools"):
        log.info("tool_call", value=value, keys={1: "non-string key"})
    assert value.renders == 1
    line = json.loads(caplog.records[-1].getMessage())
    assert line["value"] == "<counted>" and line["keys"] == {"1": "non-string key"}
    assert line["level"] == "info" and line["timestamp"].endswith("Z")


def test_failed_call_is_logged_with_its_error_code(api, caplog, db):
    with caplog.at_level(logging.INFO, logger="giftgenius.tools"):
        api.call("get_workflow", {"workflow_id": "nope"})
    line = json.loads([r for r in caplog.records if r.name == "giftgenius.tools"][-1].getMessage())
    assert line["status"] == "failed"
    assert line["error_code"] == "VALIDATION_ERROR"
