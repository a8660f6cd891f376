"""A short-lived, per-process cache of verified bearer tokens.

Looking a token up (API-token row + user, or django-oauth-toolkit's validation) was the largest
fixed cost of a tool call. A verified caller is remembered here for at most
`CALLER_CACHE_SECONDS`, and never past its token's own expiry.

Revocation: deleting or saving an API token or an OAuth access token, saving or deleting a user
(deactivation), and the admin's "Revoke selected tokens" action drop the affected entries at once
in this process (signals, below). Another app process keeps its entry until the TTL runs out, so
a revoked token is refused everywhere within `CALLER_CACHE_SECONDS`. A change that bypasses
signals (`QuerySet.update` from a shell) is also bounded by that TTL.
"""

from __future__ import annotations

import copy
import hashlib
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from cachetools import TTLCache
from django.conf import settings
from django.utils import timezone

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

_MAX_ENTRIES = 4096


@dataclass(frozen=True)
class Caller:
    """A verified credential: the user it acts for and the OAuth scopes it carries."""

    user: AbstractBaseUser
    scopes: frozenset[str] | None  # None: every tool (an API token, a trusted subject)


def _clock() -> float:
    return time.monotonic()


@dataclass(frozen=True)
class _Entry:
    caller: Caller
    digest: str  # SHA-256 of the raw token: what revocation signals name
    expires_at: datetime | None  # the token's own expiry


_lock = threading.Lock()  # TTLCache is not thread-safe; Django serves requests on threads
_cache: TTLCache[str, _Entry] | None = None


def _store() -> TTLCache[str, _Entry]:
    global _cache
    ttl = settings.CALLER_CACHE_SECONDS
    if _cache is None or _cache.ttl != ttl:  # the setting changed (tests): start afresh
        _cache = TTLCache(maxsize=_MAX_ENTRIES, ttl=ttl, timer=lambda: _clock())
    return _cache


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def get(key: str) -> Caller | None:
    if settings.CALLER_CACHE_SECONDS <= 0:
        return None
    with _lock:
        entry = _store().get(key)
    if entry is None:
        return None
    if entry.expires_at is not None and entry.expires_at <= timezone.now():
        forget(digest=entry.digest)
        return None
    # A copy: handlers may cache related objects on the user, and threads share this entry.
    return Caller(user=copy.copy(entry.caller.user), scopes=entry.caller.scopes)


def put(key: str, caller: Caller, *, digest: str, expires_at: datetime | None) -> None:
    if settings.CALLER_CACHE_SECONDS <= 0:
        return
    with _lock:
        _store()[key] = _Entry(caller, digest, expires_at)


def forget(*, digest: str | None = None, user_pk: object = None) -> None:
    """Drop every entry for a token (by digest) or for a user."""
    with _lock:
        store = _store()
        for key, entry in list(store.items()):
            if entry.digest == digest or (user_pk is not None and entry.caller.user.pk == user_pk):
                store.pop(key, None)


def clear() -> None:
    with _lock:
        _store().clear()


def _api_token_changed(sender, instance, **kwargs) -> None:
    forget(digest=instance.digest)


def _access_token_changed(sender, instance, **kwargs) -> None:
    forget(digest=instance.token_checksum)  # SHA-256 of the raw token, as our digest


def _user_changed(sender, instance, **kwargs) -> None:
    forget(user_pk=instance.pk)  # deactivated, or deleted (its tokens go with it)


def connect_revocation_signals() -> None:
    """Called from AppConfig.ready: every saved or deleted token or user drops its entries."""
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_delete, post_save
    from oauth2_provider.models import get_access_token_model

    from tool_runtime.models import ApiToken

    for signal in (post_save, post_delete):
        signal.connect(_api_token_changed, sender=ApiToken)
        signal.connect(_access_token_changed, sender=get_access_token_model())
        signal.connect(_user_changed, sender=get_user_model())
