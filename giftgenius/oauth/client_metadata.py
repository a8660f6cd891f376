"""Fetching a client's Client ID Metadata Document (an MCP host names itself by an https URL
instead of registering): django-oauth-toolkit's SSRF-hardened fetcher, with the two policies a
test must be able to change and production must not.

The toolkit's fetcher (oauth2_provider.cimd.SafeMetadataFetcher) is kept as it is: https only,
the host resolved once and every address checked, the connection made to that checked address
(so DNS cannot be rebound between check and fetch), no redirects, one deadline for the whole
fetch (OAUTH2_PROVIDER CIMD_FETCH_TIMEOUT_SECONDS), a size cap (CIMD_MAX_DOCUMENT_SIZE), and the
document cached on the application row (CIMD_METADATA_MIN/MAX_AGE_SECONDS, honouring
Cache-Control) with a backoff after a failure. What this adds:

- OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES: private and loopback addresses are refused unless it is on
  (tests, which serve a document on 127.0.0.1); production settings refuse to start with it on.
- The document's metadata passes the checks a registration does (giftgenius.oauth.boundaries:
  printable text, grants we serve, redirect URIs bounded and without userinfo).
- OAUTH_CIMD_CA_FILE: the certificates trusted for the fetch; empty means the system's (tests
  trust their own throwaway CA, and nothing else trusts it).
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
import time

import urllib3
from django.conf import settings
from oauth2_provider import cimd
from oauth2_provider.settings import oauth2_settings

from giftgenius.oauth import boundaries


class ClientMetadataFetcher(cimd.SafeMetadataFetcher):
    def fetch(self, client_id: str) -> tuple[dict, int]:
        parsed = cimd._validate_client_id_url(client_id)
        port = parsed.port or 443
        addresses = _checked_addresses(parsed.hostname, port)
        deadline = time.monotonic() + oauth2_settings.CIMD_FETCH_TIMEOUT_SECONDS
        path = parsed.path + (f"?{parsed.query}" if parsed.query else "")
        headers = {"Host": parsed.netloc, "Accept": "application/json, application/*+json"}
        last_error: Exception | None = None
        for address in addresses:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            # Connect to the checked address; SNI, the certificate and Host name the host.
            pool = urllib3.HTTPSConnectionPool(
                host=address,
                port=port,
                timeout=urllib3.Timeout(connect=remaining, read=remaining, total=remaining),
                retries=False,
                maxsize=1,
                ssl_context=_ssl_context(),
                server_hostname=parsed.hostname,
            )
            try:
                response = pool.urlopen(
                    "GET", path, headers=headers, redirect=False, preload_content=False
                )
                try:
                    document, max_age = self._read_document(response)
                finally:
                    response.release_conn()
                refusal = boundaries.metadata_refusal(document)
                if refusal:
                    raise cimd.CIMDError(f"{refusal.error}: {refusal.description}")
                return document, max_age
            except urllib3.exceptions.HTTPError as exc:
                last_error = exc
            finally:
                pool.close()
        raise cimd.CIMDError(f"could not fetch the client's metadata document: {last_error}")


def _checked_addresses(hostname: str, port: int) -> list[str]:
    """Every address the host resolves to, each allowed by the policy (one refused address
    refuses the host: a split answer must not smuggle in an internal one)."""
    try:
        infos = socket.getaddrinfo(hostname, port, proto=socket.IPPROTO_TCP)
    except socket.gaierror as exc:
        raise cimd.CIMDError(f"could not resolve the client's host: {exc}") from exc
    addresses = [info[4][0] for info in infos]
    for address in addresses:
        if not _allowed(address):
            raise cimd.CIMDError(f"the client's host resolves to a non-public address ({address})")
    if not addresses:
        raise cimd.CIMDError("the client's host resolved to no address")
    return addresses


def _allowed(address: str) -> bool:
    if cimd._ip_is_public(address):
        return True
    if not settings.OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES:
        return False
    ip = ipaddress.ip_address(address)
    return ip.is_loopback or ip.is_private


def _ssl_context() -> ssl.SSLContext:
    return ssl.create_default_context(cafile=settings.OAUTH_CIMD_CA_FILE or None)
