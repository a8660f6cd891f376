"""What the OAuth endpoints refuse before django-oauth-toolkit sees a request, answered in OAuth's
own error shape (RFC 6749 §5.2, RFC 7591 §3.2.2), never a 500:

- dynamic client registration (RFC 7591): a body over OAUTH_REGISTRATION_MAX_BYTES, not JSON
  (nested too deep included), text our printable-text rule or PostgreSQL refuses (NUL, lone
  surrogates, bidi controls), more than OAUTH_REGISTRATION_MAX_REDIRECT_URIS redirect URIs, a
  redirect URI with userinfo or a fragment, a grant type we do not serve; and more than
  OAUTH_REGISTRATION_RATE registrations from one client address;
- a Client ID Metadata Document: the same checks of its metadata (giftgenius.oauth.client_metadata);
- the authorization endpoint: unprintable text in its query or form (shown on the page, as an
  unknown client is, never redirected);
- the token endpoint: unprintable text in any form field, a grant type we do not serve.

The toolkit then checks the rest (redirect URI schemes, PKCE, the client's auth method).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse, QueryDict
from django_ratelimit.core import is_ratelimited

from tool_runtime.text import describe_refused

# The grants the authorization server metadata advertises: nothing else is registered or served.
SERVED_GRANT_TYPES = frozenset({"authorization_code", "refresh_token"})
# A JSON value nested deeper than this is not client metadata (RFC 7591 metadata is flat).
MAX_JSON_DEPTH = 8


@dataclass(frozen=True)
class Refusal:
    error: str
    description: str
    status: int = 400

    def response(self) -> JsonResponse:
        return JsonResponse(
            {"error": self.error, "error_description": self.description}, status=self.status
        )


def registration_refusal(request: HttpRequest, *, count: bool = True) -> Refusal | None:
    """Why this registration (or RFC 7592 update) is refused, or None. `count`: the attempt
    counts against its client address's rate (a new registration; not an update)."""
    if count and _over_rate(request):
        return Refusal(
            "temporarily_unavailable",
            "Too many client registrations from this address; try again later.",
            status=429,
        )
    body = _bounded_body(request, settings.OAUTH_REGISTRATION_MAX_BYTES)
    if body is None:
        return _bad_metadata(
            f"the registration is larger than {settings.OAUTH_REGISTRATION_MAX_BYTES} bytes"
        )
    try:
        metadata = json.loads(body)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return _bad_metadata("the body must be a JSON object in UTF-8")
    if not isinstance(metadata, dict):
        return _bad_metadata("the body must be a JSON object")
    return metadata_refusal(metadata)


def metadata_refusal(metadata: dict[str, Any]) -> Refusal | None:
    """Why this client metadata (registered, or a Client ID Metadata Document) is refused:
    unprintable text, a grant we do not serve, too many or unsafe redirect URIs; or None."""
    return _text_refusal(metadata, "invalid_client_metadata") or _metadata_refusal(metadata)


def form_refusal(fields: QueryDict) -> Refusal | None:
    """`invalid_request` when a query string's or form's field is not printable text."""
    for key, values in fields.lists():
        for value in values:
            why = _unprintable(key) or _unprintable(value)
            if why:
                return Refusal("invalid_request", f"'{_shown(key)}' is not printable text: {why}")
    return None


def token_request_refusal(request: HttpRequest) -> Refusal | None:
    """Why this token request is refused before the toolkit reads it, or None."""
    refusal = form_refusal(request.POST)
    if refusal:
        return refusal
    grant_type = request.POST.get("grant_type")
    if grant_type is not None and grant_type not in SERVED_GRANT_TYPES:
        return Refusal(
            "unsupported_grant_type",
            f"this server issues tokens only for {', '.join(sorted(SERVED_GRANT_TYPES))}",
        )
    return None


def client_address(request: HttpRequest) -> str:
    """The caller's address: the peer's, or, behind OAUTH_TRUSTED_PROXY_COUNT proxies that each
    append to X-Forwarded-For, the address the outermost of them saw. A header from a caller
    with no trusted proxy in front is ignored: anyone can send one."""
    hops = settings.OAUTH_TRUSTED_PROXY_COUNT
    peer = request.META.get("REMOTE_ADDR", "")
    if hops <= 0:
        return peer
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    return forwarded[-hops] if len(forwarded) >= hops else peer


def _bounded_body(request: HttpRequest, limit: int) -> bytes | None:
    """The body, or None when it is longer than `limit` (refused by its declared length before
    it is read, where it declares one)."""
    try:
        if int(request.META.get("CONTENT_LENGTH") or 0) > limit:
            return None
        body = request.body
    except (ValueError, RequestDataTooBig):
        return None
    return body if len(body) <= limit else None


def _over_rate(request: HttpRequest) -> bool:
    return is_ratelimited(
        request,
        group="oauth-register",
        key=lambda _group, req: client_address(req),
        rate=settings.OAUTH_REGISTRATION_RATE,
        increment=True,
    )


def _metadata_refusal(metadata: dict[str, Any]) -> Refusal | None:
    grant_types = metadata.get("grant_types", ["authorization_code"])
    if isinstance(grant_types, list):
        unserved = [g for g in grant_types if g not in SERVED_GRANT_TYPES]
        if unserved:
            return _bad_metadata(
                f"grant type {unserved[0]!r} is not served here; "
                f"use {', '.join(sorted(SERVED_GRANT_TYPES))}"
            )
    response_types = metadata.get("response_types", ["code"])
    if isinstance(response_types, list) and any(r != "code" for r in response_types):
        return _bad_metadata("only the response type 'code' is served here")
    uris = metadata.get("redirect_uris", [])
    if isinstance(uris, list):
        limit = settings.OAUTH_REGISTRATION_MAX_REDIRECT_URIS
        if len(uris) > limit:
            return Refusal("invalid_redirect_uri", f"at most {limit} redirect URIs")
        for uri in uris:
            why = _redirect_uri_problem(uri) if isinstance(uri, str) else None
            if why:
                return Refusal("invalid_redirect_uri", f"{_shown(uri)}: {why}")
    return None


def _redirect_uri_problem(uri: str) -> str | None:
    try:
        parts = urlsplit(uri)
    except ValueError:
        return "not a URI"
    if "@" in parts.netloc:
        # https://chatgpt.com@evil.example/cb reads as chatgpt.com but goes to evil.example.
        return "a redirect URI may not carry userinfo"
    if parts.fragment or uri.endswith("#"):
        return "a redirect URI may not carry a fragment"
    return None


def _text_refusal(value: Any, error: str, field: str = "", depth: int = 0) -> Refusal | None:
    """Every string in the JSON value, keys included, must be printable text; `field` is the
    top-level member it sits in, which the error names."""
    if depth > MAX_JSON_DEPTH:
        return Refusal(error, f"{field or 'the metadata'} is nested too deep")
    if isinstance(value, str):
        why = _unprintable(value)
        return (
            Refusal(error, f"{field or 'a member name'} is not printable text: {why}")
            if why
            else None
        )
    if isinstance(value, dict):
        for key, item in value.items():
            name = field or _shown(key)
            refusal = _text_refusal(key, error, name, depth + 1) or _text_refusal(
                item, error, name, depth + 1
            )
            if refusal:
                return refusal
    elif isinstance(value, list):
        for item in value:
            refusal = _text_refusal(item, error, field, depth + 1)
            if refusal:
                return refusal
    return None


def _unprintable(text: str) -> str | None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "a lone surrogate (not Unicode text)"
    return describe_refused(text)


def _shown(text: str) -> str:
    """A refused value as an error may quote it: short, and only printable characters."""
    safe = "".join(c if c.isprintable() and not 0xD800 <= ord(c) <= 0xDFFF else "?" for c in text)
    return safe[:80]


def _bad_metadata(description: str) -> Refusal:
    return Refusal("invalid_client_metadata", description)
