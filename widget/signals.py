"""The QA preview's bearer token lives no longer than the sign-in that got it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver
from django.http import HttpRequest

from tool_runtime.principals import revoke_api_token
from widget.views import PREVIEW_TOKEN_SESSION_KEY


@receiver(user_logged_out, dispatch_uid="widget.revoke_preview_token")
def revoke_preview_token(sender: Any, request: HttpRequest | None, **kwargs: Any) -> None:
    # Sent before the session is flushed, so the token is still in it.
    session = getattr(request, "session", None)
    token = session.get(PREVIEW_TOKEN_SESSION_KEY) if session is not None else None
    if token:
        revoke_api_token(token=token)
