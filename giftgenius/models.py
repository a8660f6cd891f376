"""The project layer's own rows: what the authorization server remembers beyond the toolkit's."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from oauth2_provider.settings import oauth2_settings


class RedeemedAuthorizationCode(models.Model):
    """An authorization code exchanged for tokens, kept for a while after: the same code
    presented again means it leaked, and the tokens issued from it are revoked (OAuth 2.1
    §4.1.3). The code itself is not stored, only its SHA-256."""

    code_digest = models.CharField(max_length=64, unique=True)
    application = models.ForeignKey(oauth2_settings.APPLICATION_MODEL, on_delete=models.CASCADE)
    access_token_checksum = models.CharField(max_length=64)
    # Every refresh token rotated from the first one shares it.
    token_family = models.UUIDField(null=True, blank=True)
    redeemed_at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"code redeemed at {self.redeemed_at:%Y-%m-%d %H:%M:%S}"
