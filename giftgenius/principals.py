"""Who a tool call acts for: a REST bearer token, or the ChatGPT user's subject over MCP."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils import timezone

from giftgenius.models import ApiToken

TOKEN_PREFIX = "gg_"  # noqa: S105 (a visible prefix, not a secret)
CHATGPT_USERNAME_PREFIX = "chatgpt-"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_api_token(*, user: AbstractBaseUser, ttl: timedelta | None = None) -> str:
    """Create a token for `user` (valid until revoked, or for `ttl`); only its digest is stored,
    so this is the one time it is seen."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    expires_at = timezone.now() + ttl if ttl is not None else None
    ApiToken.objects.create(
        user=user, digest=_digest(token), prefix=token[:8], expires_at=expires_at
    )
    return token


def purge_expired_api_tokens(*, now: datetime | None = None) -> int:
    deleted, _ = ApiToken.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted


def user_for_token(token: str) -> AbstractBaseUser | None:
    if not token:
        return None
    row = (
        ApiToken.objects.select_related("user")
        .filter(digest=_digest(token), revoked=False, user__is_active=True)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
        .first()
    )
    return row.user if row else None


def user_for_bearer_header(header: str | None) -> AbstractBaseUser | None:
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return user_for_token(token.strip())


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
