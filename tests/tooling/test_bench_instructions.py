"""`make bench-instructions`: its driver must still drive every scenario through today's app
(valgrind itself is left to the benchmark), and its counts must be read from the right dump."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.callgrind_driver import Client, scenarios
from bench.instructions import dumped_instructions
from bench.scenarios import FLOOR, SUGGESTION_BRIEFS, initialize_request
from gifts.models import WorkflowContext
from tool_runtime.call_log import logged_calls
from tool_runtime.principals import issue_api_token

LIVE = pytest.mark.django_db(transaction=True, databases=["default", "payment_ledger"])


def _in_own_loop(coroutine_function) -> object:
    # Its own thread: Playwright's sync API may have left an event loop running in this one.
    with ThreadPoolExecutor(1) as runner:
        return runner.submit(asyncio.run, coroutine_function()).result()


def _app_with_client(token: str, use) -> object:
    """`await use(client)` with a driver client of a fresh app, inside the app's lifespan."""
    from giftgenius.asgi import build_application

    app = build_application()

    async def run() -> object:
        async with app.router.lifespan_context(app):
            return await use(Client(app, token))

    return _in_own_loop(run)


def _drive(token: str, *, rounds: int) -> list[str]:
    async def use(client: Client) -> list[str]:
        measured = await scenarios(
            client, briefs=list(SUGGESTION_BRIEFS), initialize=initialize_request()
        )
        for turn in range(rounds):
            client.parse = turn == 0  # checked whole, then only by status and failure marks
            for call in measured.values():
                await call()
        return list(measured)

    return _app_with_client(token, use)


@LIVE
@pytest.mark.usefixtures("demo_catalog")
def test_every_scenario_succeeds_in_process_as_make_bench_names_it(user):
    names = _drive(issue_api_token(user=user), rounds=2)
    assert names[0] == FLOOR
    assert names[1:] == [
        "suggest_gifts",
        "get_workflow",
        "mcp suggest_gifts",
        "mcp get_workflow",
        "mcp/2026 suggest_gifts",
        "mcp/2026 get_workflow",
    ]
    # Each suggest_gifts recorded ideas for the brief of its turn: the two briefs alternate.
    (workflow,) = WorkflowContext.objects.all()
    assert workflow.brief["relationship"] == "colleague"  # 1 setup + 6 counted calls
    # Over REST, the handshake era and the 2026 era, twice each (plus the setup's suggestion).
    calls = logged_calls().filter(status="success")
    assert calls.filter(tool="suggest_gifts").count() == 1 + 3 * 2
    assert sorted(calls.filter(tool="get_workflow").values_list("transport", flat=True)) == [
        *["mcp"] * 4,
        *["rest"] * 2,
    ]
    assert not logged_calls().exclude(status="success").exists()


@LIVE
@pytest.mark.usefixtures("demo_catalog")
def test_a_failing_call_stops_the_count_instead_of_counting_an_error(user):
    token = issue_api_token(user=user)
    # The MCP session manager's task group (the app's lifespan) wraps what ends it in a group.
    with pytest.raises(BaseExceptionGroup) as raised:
        _drive(token + "x", rounds=1)
    (stop,) = raised.value.subgroup(SystemExit).exceptions
    assert str(stop).startswith("start_gift_workflow failed: 401")
    assert not WorkflowContext.objects.exists()


def test_each_count_is_read_from_the_dump_its_scenario_asked_for(tmp_path):
    out = tmp_path / "head.callgrind"
    for number, (trigger, totals) in enumerate(
        [("dump scenario1", 1_000), ("dump scenario2", 2_500), ("Program termination", 9)],
        start=1,
    ):
        (tmp_path / f"head.callgrind.{number}").write_text(
            f"version: 1\ndesc: Trigger: {trigger}\nevents: Ir\nsummary: {totals}\n"
            f"totals: {totals}\n"
        )
    assert dumped_instructions(out, "scenario2") == 2_500
    assert dumped_instructions(out, "scenario1") == 1_000
    with pytest.raises(SystemExit, match="no callgrind dump 'scenario3'"):
        dumped_instructions(out, "scenario3")


@LIVE
@pytest.mark.parametrize("parse", [True, False])
def test_a_failed_answer_is_told_apart_whether_parsed_or_not(user, parse):
    async def use(client: Client) -> list[str]:
        client.parse = parse
        failures = []
        for call in (
            client.tool("get_workflow", {"workflow_id": "not-a-uuid"}),
            client.rpc(
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "tools/call",
                    "params": {"name": "get_workflow", "arguments": {"workflow_id": 7}},
                },
                ((b"mcp-protocol-version", b"2025-06-18"),),
            ),
            client.rpc({"jsonrpc": "2.0", "id": 2, "method": "no/such/method"}, ()),
        ):
            try:
                await call
            except SystemExit as stop:
                failures.append(str(stop))
        return failures

    failures = _app_with_client(issue_api_token(user=user), use)
    assert [f.split(" failed")[0] for f in failures] == [
        "get_workflow",
        "tools/call over /mcp",
        "no/such/method over /mcp",
    ]
