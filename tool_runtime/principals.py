"""Who a tool call acts for: an OAuth access token (MCP hosts), an API token (REST and
scripts), or, in development and tests only, the ChatGPT user's subject over MCP."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils import timezone
from oauth2_provider.oauth2_backends import get_oauthlib_core

from tool_runtime import caller_cache
from tool_runtime.caller_cache import Caller
from tool_runtime.models import ApiToken, ApiTokenKind

TOKEN_PREFIX = "gg_"  # noqa: S105 (a visible prefix, not a secret)
CHATGPT_USERNAME_PREFIX = "chatgpt-"


def _digest(token: str) -> str:
    return caller_cache.token_digest(token)


def issue_api_token(
    *,
    user: AbstractBaseUser,
    ttl: timedelta | None = None,
    kind: str = ApiTokenKind.SCRIPT,
    signing_secret: str = "",
) -> str:
    """Create a token for `user` (valid until revoked, or for `ttl`); only its digest is stored,
    so this is the one time it is seen."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    expires_at = timezone.now() + ttl if ttl is not None else None
    ApiToken.objects.create(
        user=user,
        digest=_digest(token),
        prefix=token[:8],
        expires_at=expires_at,
        kind=kind,
        signing_secret=signing_secret,
    )
    return token


def revoke_api_token(*, token: str) -> None:
    for api_token in ApiToken.objects.filter(digest=_digest(token), revoked=False):
        api_token.revoked = True
        api_token.save(update_fields=["revoked"])  # post_save drops it from the caller cache


def revoke_api_tokens(*, token_ids: Iterable[int]) -> int:
    """Revoke these tokens (for good: nothing un-revokes one); returns how many were live."""
    live = ApiToken.objects.filter(pk__in=list(token_ids), revoked=False)
    digests = list(live.values_list("digest", flat=True))
    count = live.update(revoked=True)
    for digest in digests:  # update() sends no signals: this process forgets them now
        caller_cache.forget(digest=digest)
    return count


def purge_expired_api_tokens(*, now: datetime | None = None) -> int:
    deleted, _ = ApiToken.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted


def _live_api_token(token: str, *, kind: str = ApiTokenKind.SCRIPT) -> ApiToken | None:
    if not token:
        return None
    return (
        ApiToken.objects.select_related("user")
        .filter(digest=_digest(token), revoked=False, user__is_active=True, kind=kind)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
        .order_by()
        .first()
    )


def user_for_token(token: str) -> AbstractBaseUser | None:
    """Always read from the database (the preview checks its own token's state with it)."""
    row = _live_api_token(token)
    return row.user if row else None


def agent_token_for_bearer_header(header: str | None) -> ApiToken | None:
    """The live agent token behind `Authorization: Bearer …` (read from the database on every
    call, so a revocation in the admin takes effect at once), or None."""
    token = _bearer_token(header)
    if token is None or not token.startswith(TOKEN_PREFIX):
        return None
    return _live_api_token(token, kind=ApiTokenKind.AGENT)


def _bearer_token(header: str | None) -> str | None:
    scheme, _, token = (header or "").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def _cache_key(token: str, resource_uri: str) -> tuple[str, str]:
    """(digest, cache key): an API token acts the same at every URL; an OAuth token's answer
    depends on the resource."""
    digest = _digest(token)
    return digest, digest if token.startswith(TOKEN_PREFIX) else f"{digest} {resource_uri}"


def cached_caller(header: str | None, *, resource_uri: str) -> Caller | None:
    """The caller if the cache already vouches for this header (no database, safe on the event
    loop); None means "ask `caller_for_bearer_header`", not "refused"."""
    token = _bearer_token(header)
    return caller_cache.get(_cache_key(token, resource_uri)[1]) if token else None


def caller_for_bearer_header(header: str | None, *, resource_uri: str) -> Caller | None:
    """The caller behind `Authorization: Bearer …`, or None when it proves nothing.

    An OAuth token must be live (not expired, not revoked) and issued for a resource that
    `resource_uri` (this request's URL) lies under (RFC 8707); django-oauth-toolkit checks
    all of that. A token bound to no resource is refused too, so a token asked for without a
    `resource` (or for another server) never works here.
    """
    token = _bearer_token(header)
    if token is None:
        return None
    digest, key = _cache_key(token, resource_uri)
    if (cached := caller_cache.get(key)) is not None:
        return cached
    if token.startswith(TOKEN_PREFIX):
        row = _live_api_token(token)
        if row is None:
            return None
        caller = Caller(user=row.user, scopes=None)
        caller_cache.put(key, caller, digest=digest, expires_at=row.expires_at)
        return caller
    valid, request = get_oauthlib_core().server.verify_request(
        resource_uri, http_method="POST", headers={"Authorization": f"Bearer {token}"}, scopes=[]
    )
    access_token = getattr(request, "access_token", None) if valid else None
    user = access_token.user if access_token is not None else None
    if user is None or not user.is_active or not access_token.resource:
        return None
    caller = Caller(user=user, scopes=frozenset(access_token.scopes))
    caller_cache.put(key, caller, digest=digest, expires_at=access_token.expires)
    return caller


def user_for_subject(subject: str) -> AbstractBaseUser:
    """The user standing for a ChatGPT subject, created on first sight (no password)."""
    username = CHATGPT_USERNAME_PREFIX + hashlib.sha256(subject.encode()).hexdigest()[:40]
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def principal_label(user: AbstractBaseUser) -> str:
    return f"user:{user.pk}"
