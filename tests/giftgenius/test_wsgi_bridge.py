"""giftgenius.wsgi_bridge: Django on a thread pool with one round trip a request.

The bridge is driven with ASGI messages, as uvicorn drives it, around small WSGI apps that note
when things happen; the last tests serve the real app under uvicorn.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from django.conf import settings as django_settings

from giftgenius.wsgi_bridge import DjangoWSGIMiddleware
from tests.live_server import serve_app
from tool_runtime.principals import issue_api_token

WAIT_SECONDS = 5.0


def _scope(*, method: str = "POST", headers: list[tuple[bytes, bytes]] = ()) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": "/echo",
        "raw_path": b"/echo",
        "query_string": b"",
        "root_path": "",
        "headers": list(headers),
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


class Exchange:
    """One request through the bridge: what it received and sent, and when, in order."""

    def __init__(self, app, *, messages: list[dict]) -> None:
        self.events: list[str] = []
        self.sent: list[dict] = []
        self._messages = list(messages)
        self.app = app
        self.first_chunk_sent = threading.Event()

    async def receive(self) -> dict:
        self.loop_thread = threading.get_ident()
        self.events.append("receive")
        if self._messages:
            return self._messages.pop(0)
        await asyncio.sleep(3600)  # like a server: nothing more until the client goes
        raise AssertionError("unreachable")

    async def send(self, message: dict) -> None:
        self.events.append(message["type"])
        self.sent.append(message)
        if message.get("more_body"):
            self.first_chunk_sent.set()

    def run(self, scope: dict) -> None:
        """Serve `scope` on an event loop of its own thread, as uvicorn would (a test that ran
        before may have left this thread's loop running: Playwright's sync API does)."""
        bridge = DjangoWSGIMiddleware(self.app, workers=2)

        def serve() -> None:
            asyncio.run(asyncio.wait_for(bridge(scope, self.receive, self.send), WAIT_SECONDS))

        try:
            with ThreadPoolExecutor(1, thread_name_prefix="event-loop") as loop_thread:
                loop_thread.submit(serve).result()
        finally:
            bridge.executor.shutdown(wait=True)

    @property
    def status(self) -> int:
        return self.sent[0]["status"]

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.sent[1:])


def _echo_app(events: list[str]):
    """A WSGI app answering with the request body; it notes its start and its end in `events`."""

    def app(environ, start_response):
        events.append("app started")
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        start_response("201 Created", [("Content-Type", "text/plain"), ("X-Echo", "yes")])
        events.append("app returned")
        return [b"echo:", body]

    return app


def _body(*parts: bytes) -> list[dict]:
    return [
        {"type": "http.request", "body": part, "more_body": i < len(parts) - 1}
        for i, part in enumerate(parts)
    ]


def test_the_body_is_read_before_the_app_runs_and_the_whole_answer_sent_after_it_returns():
    exchange = Exchange(None, messages=_body(b'{"a":', b"1", b"}"))
    exchange.app = _echo_app(exchange.events)
    exchange.run(_scope(headers=[(b"content-length", b"7")]))

    assert exchange.events == [
        "receive",
        "receive",
        "receive",
        "app started",
        "app returned",
        "http.response.start",
        "http.response.body",
    ]
    assert exchange.status == 201
    assert (b"x-echo", b"yes") in exchange.sent[0]["headers"]
    assert exchange.body == b'echo:{"a":1}'
    assert not exchange.sent[-1].get("more_body")


def test_a_request_without_a_body_is_answered_in_the_same_two_sends():
    exchange = Exchange(None, messages=_body(b""))
    exchange.app = _echo_app(exchange.events)
    exchange.run(_scope(method="GET"))

    assert exchange.events[-2:] == ["http.response.start", "http.response.body"]
    assert exchange.body == b"echo:"


def test_the_app_runs_on_a_pool_thread_and_its_close_runs_there_too():
    threads: dict[str, int] = {}

    class Closing(list):
        def close(self) -> None:
            threads["close"] = threading.get_ident()

    def app(environ, start_response):
        threads["app"] = threading.get_ident()
        start_response("200 OK", [])
        return Closing([b"ok"])

    exchange = Exchange(app, messages=_body(b""))
    exchange.run(_scope(method="GET"))

    assert exchange.body == b"ok"
    assert threads["app"] != exchange.loop_thread
    assert threads["close"] == threads["app"]  # Django's request_finished clean-up


def test_a_streaming_response_is_sent_as_it_is_produced_not_gathered():
    exchange = Exchange(None, messages=_body(b""))

    class Streaming:
        streaming = True
        closed = False

        def __iter__(self):
            yield b"first"
            # Gathered in memory, the first chunk would never be sent while this waits.
            if not exchange.first_chunk_sent.wait(WAIT_SECONDS):
                raise AssertionError("the first chunk was held back")
            yield b""  # an empty chunk is not sent as a message of its own
            yield b"second"

        def close(self) -> None:
            Streaming.closed = True

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/event-stream")])
        return Streaming()

    exchange.app = app
    exchange.run(_scope(method="GET"))

    assert [(m["type"], m.get("body"), m.get("more_body")) for m in exchange.sent] == [
        ("http.response.start", None, None),
        ("http.response.body", b"first", True),
        ("http.response.body", b"second", True),
        ("http.response.body", b"", None),
    ]
    assert Streaming.closed


@pytest.mark.parametrize("streaming", [False, True], ids=["whole", "streaming"])
def test_what_the_app_writes_through_write_comes_before_what_it_returns(streaming):
    class Rest(list):
        pass

    Rest.streaming = streaming

    def app(environ, start_response):
        write = start_response("200 OK", [])
        write(b"written,")
        return Rest([b"returned"])

    exchange = Exchange(app, messages=_body(b""))
    exchange.run(_scope(method="GET"))

    assert exchange.body == b"written,returned"
    assert len(exchange.sent) == (4 if streaming else 2)


@pytest.mark.parametrize(
    "length",
    [
        pytest.param(b"21", id="larger-than-Django-reads"),
        pytest.param(b"21 ", id="malformed"),
    ],
)
def test_a_body_over_the_limit_is_left_to_a2wsgi_which_streams_it(settings, length):
    """a2wsgi hands the body over as the app reads it: the app starts before any receive."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 20
    exchange = Exchange(None, messages=_body(b"0123456789", b"0123456789x"))

    def app(environ, start_response):
        exchange.events.append("app started")
        body = environ["wsgi.input"].read()
        start_response("200 OK", [])
        return [body]

    exchange.app = app
    exchange.run(_scope(headers=[(b"content-length", length)]))

    assert exchange.events[:2] == ["app started", "receive"]
    assert exchange.body == b"0123456789" * 2 + b"x"


def test_a_chunked_body_is_read_first_and_given_to_the_app_with_its_length():
    exchange = Exchange(None, messages=_body(b"abc", b"", b"defg"))
    exchange.app = _echo_app(exchange.events)
    exchange.run(_scope(headers=[(b"transfer-encoding", b"chunked")]))

    assert exchange.events[:4] == ["receive", "receive", "receive", "app started"]
    assert exchange.body == b"echo:abcdefg"


def test_a_chunked_body_is_read_only_to_one_byte_over_the_limit(settings):
    """Django then refuses it, as it refuses a declared one (RequestDataTooBig)."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 5
    exchange = Exchange(None, messages=_body(b"1234", b"5678", b"never read"))
    seen: dict[str, str] = {}

    def app(environ, start_response):
        seen["length"] = environ["CONTENT_LENGTH"]
        seen["body"] = environ["wsgi.input"].read()
        start_response("413 Content Too Large", [])
        return []

    exchange.app = app
    exchange.run(_scope(headers=[(b"transfer-encoding", b"chunked")]))

    assert exchange.events[:2] == ["receive", "receive"]
    assert seen == {"length": "8", "body": b"12345678"}
    assert exchange.status == 413


def test_a_body_of_exactly_the_limit_is_read_first(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 7
    exchange = Exchange(None, messages=_body(b"1234567"))
    exchange.app = _echo_app(exchange.events)
    exchange.run(_scope(headers=[(b"content-length", b"7")]))

    assert exchange.events[:2] == ["receive", "app started"]
    assert exchange.body == b"echo:1234567"


def test_a_client_that_leaves_mid_body_runs_nothing_and_gets_nothing():
    exchange = Exchange(None, messages=[*_body(b"half", b"")[:1], {"type": "http.disconnect"}])
    exchange.app = _echo_app(exchange.events)
    exchange.run(_scope(headers=[(b"content-length", b"8")]))

    assert exchange.events == ["receive", "receive"]
    assert exchange.sent == []


def test_an_app_that_fails_fails_the_request_and_sends_nothing():
    def app(environ, start_response):
        raise RuntimeError("broken")

    exchange = Exchange(app, messages=_body(b""))
    with pytest.raises(RuntimeError, match="broken"):
        exchange.run(_scope(method="GET"))
    assert exchange.sent == []  # the server answers 500 on its own


@pytest.mark.django_db(transaction=True, databases=["default", "payment_ledger"])
def test_the_served_app_answers_tool_calls_pages_and_files_through_the_bridge(user):
    token = issue_api_token(user=user)
    css = Path(django_settings.BASE_DIR, "static", "ops", "ops.css").read_bytes()
    with serve_app() as base_url, httpx.Client(base_url=base_url) as client:
        auth = {"Authorization": f"Bearer {token}"}
        started = client.post("/api/tools/start_gift_workflow", json={}, headers=auth)
        assert started.status_code == 200, started.text
        workflow_id = started.json()["workflow_id"]

        def chunked_body():  # no Content-Length: Django under WSGI had read it as empty
            yield b'{"workflow_id": '
            yield f'"{workflow_id}"}}'.encode()

        read = client.post("/api/tools/get_workflow", content=chunked_body(), headers=auth)
        assert read.status_code == 200, read.text
        assert read.json()["workflow_id"] == workflow_id

        too_big = b'{"workflow_id": "' + b"x" * django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        declared = client.post("/api/tools/get_workflow", content=too_big, headers=auth)
        chunked = client.post("/api/tools/get_workflow", content=iter([too_big]), headers=auth)
        for refused_unread in (declared, chunked):  # via a2wsgi, and read to the limit here
            assert refused_unread.status_code == 413
            assert refused_unread.json()["error"]["code"] == "PAYLOAD_TOO_LARGE"

        refused = client.post("/api/tools/get_workflow", content=b"{", headers=auth)
        assert refused.status_code == 400
        assert refused.json()["error"]["code"] == "INVALID_JSON"

        static = client.get("/static/ops/ops.css")  # WhiteNoise: a streaming response
        assert static.status_code == 200
        assert static.content == css
        assert client.get("/healthz").json() == {"status": "ok"}
