"""Client ID Metadata Documents: a host names itself by an https URL, and the authorization
server fetches its metadata from there, against a real HTTPS server this test starts on
loopback with its own throwaway CA (trustme). The fetch is bounded: https only, no private or
loopback address unless a setting allows it (tests only), the CA the setting names, a size cap,
a deadline, and a cache."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote

import pytest
import trustme
from django.core.cache import cache
from django.test import Client
from oauth2_provider.models import AccessToken, Application

from tests.giftgenius.oauth.sign_in import (
    CALLBACK,
    authorization_code,
    authorize_params,
    exchange,
    signed_in,
)

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "payment_ledger"])


class MetadataServer:
    """Serves /<name>.json over HTTPS; `documents` says what each path answers, `fetches`
    counts the requests."""

    def __init__(self, ca: trustme.CA) -> None:
        self.documents: dict[str, tuple[bytes, float]] = {}
        self.fetches: dict[str, int] = {}
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server.fetches[self.path] = server.fetches.get(self.path, 0) + 1
                body, delay = server.documents.get(self.path, (b"", 0.0))
                time.sleep(delay)
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        context = __import__("ssl").create_default_context(__import__("ssl").Purpose.CLIENT_AUTH)
        ca.issue_cert("localhost").configure_cert(context)
        self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.port = self.httpd.server_address[1]

    def url(self, path: str) -> str:
        return f"https://localhost:{self.port}{path}"

    def publish(self, path: str, document: dict | bytes, *, delay: float = 0.0) -> str:
        body = document if isinstance(document, bytes) else json.dumps(document).encode()
        self.documents[path] = (body, delay)
        return self.url(path)


@pytest.fixture
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def metadata_server(ca, settings, tmp_path) -> Iterator[MetadataServer]:
    ca_file = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    settings.OAUTH_CIMD_CA_FILE = str(ca_file)
    server = MetadataServer(ca)
    thread = threading.Thread(target=server.httpd.serve_forever, daemon=True)
    thread.start()
    cache.clear()  # failure backoffs of an earlier test
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()
    cache.clear()


def client_document(url: str, **overrides) -> dict:
    return {
        "client_id": url,
        "client_name": "A host by its URL",
        "redirect_uris": [CALLBACK],
        "grant_types": ["authorization_code", "refresh_token"],
        "token_endpoint_auth_method": "none",
        **overrides,
    }


def consent_page(user, client_id: str):
    return signed_in(user).get("/o/authorize/", authorize_params(client_id))


def assert_unknown_client(user, client_id: str) -> None:
    page = consent_page(user, client_id)
    assert b'data-testid="consent-scopes"' not in page.content
    assert page.status_code == 400, page.status_code
    assert not Application.objects.filter(client_id=client_id).exists()


def test_the_metadata_says_client_id_metadata_documents_are_supported():
    meta = Client().get("/.well-known/oauth-authorization-server").json()
    assert meta["client_id_metadata_document_supported"] is True


def test_a_host_named_by_its_metadata_url_signs_a_person_in_and_is_cached(user, metadata_server):
    url = metadata_server.publish("/host.json", {})
    metadata_server.publish("/host.json", client_document(url))

    code = authorization_code(user, url)
    tokens = exchange(url, code)

    assert tokens.status_code == 200, tokens.content
    assert AccessToken.objects.filter(user=user, application__client_id=url).exists()
    app = Application.objects.get(client_id=url)
    assert app.name == "A host by its URL" and app.client_type == Application.CLIENT_PUBLIC
    # Cached on the application row: the sign-in and the exchange fetched it once.
    assert consent_page(user, url).status_code == 200
    assert metadata_server.fetches == {"/host.json": 1}


def test_loopback_is_refused_unless_the_setting_allows_it(user, metadata_server, settings):
    settings.OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES = False
    url = metadata_server.publish("/private.json", {})
    metadata_server.publish("/private.json", client_document(url))
    assert_unknown_client(user, url)
    assert metadata_server.fetches == {}  # refused before connecting


def test_a_certificate_from_a_ca_we_do_not_trust_is_refused(user, metadata_server, settings):
    settings.OAUTH_CIMD_CA_FILE = ""  # the system's CAs, which never signed the test's
    url = metadata_server.publish("/untrusted.json", {})
    metadata_server.publish("/untrusted.json", client_document(url))
    assert_unknown_client(user, url)


def test_a_plain_http_url_is_not_a_client_id(user, metadata_server):
    url = metadata_server.publish("/plain.json", {}).replace("https://", "http://")
    assert_unknown_client(user, url)
    assert metadata_server.fetches == {}


def test_a_document_over_the_size_cap_is_refused(user, metadata_server):
    url = metadata_server.publish("/big.json", {})
    metadata_server.publish("/big.json", client_document(url, client_name="x" * 20_000))
    assert_unknown_client(user, url)


def test_a_server_slower_than_the_deadline_is_refused(user, metadata_server, settings):
    settings.OAUTH2_PROVIDER = {**settings.OAUTH2_PROVIDER, "CIMD_FETCH_TIMEOUT_SECONDS": 0.3}
    url = metadata_server.publish("/slow.json", {})
    metadata_server.publish("/slow.json", client_document(url), delay=2.0)
    assert_unknown_client(user, url)


def test_a_document_naming_another_client_or_with_unprintable_text_is_refused(
    user, metadata_server
):
    other = metadata_server.publish("/other.json", {})
    metadata_server.publish("/other.json", client_document("https://elsewhere.example/c.json"))
    assert_unknown_client(user, other)
    nul = metadata_server.publish("/nul.json", {})
    metadata_server.publish("/nul.json", client_document(nul, client_name="a\u0000b"))
    assert_unknown_client(user, nul)


def test_an_unknown_client_id_url_at_the_token_endpoint_is_invalid_client(metadata_server):
    url = metadata_server.url("/missing.json")
    response = Client().post(
        "/o/token/",
        f"grant_type=authorization_code&code=x&client_id={quote(url, safe='')}",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 401
    assert response.json()["error"] == "invalid_client"
