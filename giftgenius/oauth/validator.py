"""Our OAuth2 validator (django-oauth-toolkit's, configured as OAUTH2_VALIDATOR_CLASS): tokens only
for our own resources, and a code presented twice revokes what it was exchanged for."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_refresh_token_model
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauthlib.oauth2.rfc6749 import errors

from giftgenius.models import RedeemedAuthorizationCode
from tool_runtime.observability import get_logger

log = get_logger("giftgenius.oauth")

# Long past a code's own life (AUTHORIZATION_CODE_EXPIRE_SECONDS): a replay after this is
# refused as an unknown code, with nothing left to revoke.
REDEMPTIONS_KEPT = timedelta(hours=1)


def is_our_resource(uri: str) -> bool:
    """A resource indicator (RFC 8707) naming one of our protected resources: a host this site
    answers to (ALLOWED_HOSTS), the public origin's scheme or https, a protected path."""
    try:
        parts = urlsplit(uri)
    except ValueError:
        return False
    domain, _port = split_domain_port(parts.netloc)
    schemes = {"https", urlsplit(settings.PUBLIC_ORIGIN).scheme}
    path = parts.path.rstrip("/")
    return (
        parts.scheme in schemes
        and bool(domain)
        and validate_host(domain, settings.ALLOWED_HOSTS)
        and any(path == p or path.startswith(p + "/") for p in settings.OAUTH_RESOURCE_PATHS)
    )


def code_digest(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()


class GiftGeniusOAuth2Validator(OAuth2Validator):
    def _validate_resource_uris(self, request, resources):
        super()._validate_resource_uris(request, resources)
        for resource in resources:
            if not is_our_resource(resource):
                raise errors.CustomOAuth2Error(
                    error="invalid_target",
                    description=f"'{resource[:200]}' is not a resource of this server.",
                    request=request,
                )

    def validate_code(self, client_id, code, client, request, *args, **kwargs):
        valid = super().validate_code(client_id, code, client, request, *args, **kwargs)
        if not valid:
            revoke_tokens_of_redeemed_code(code=code, application=client)
        return valid

    def _save_bearer_token(self, token, request, *args, **kwargs):
        super()._save_bearer_token(token, request, *args, **kwargs)
        if request.grant_type == "authorization_code" and "access_token" in token:
            remember_redeemed_code(
                code=request.code, application=request.client, access_token=token["access_token"]
            )


def remember_redeemed_code(*, code: str, application, access_token: str) -> None:
    checksum = hashlib.sha256(access_token.encode()).hexdigest()
    refresh = get_refresh_token_model().objects.filter(access_token__token_checksum=checksum)
    RedeemedAuthorizationCode.objects.filter(
        redeemed_at__lt=timezone.now() - REDEMPTIONS_KEPT
    ).delete()
    RedeemedAuthorizationCode.objects.create(
        code_digest=code_digest(code),
        application=application,
        access_token_checksum=checksum,
        token_family=refresh.values_list("token_family", flat=True).first(),
    )


def revoke_tokens_of_redeemed_code(*, code: str, application) -> int:
    """A code exchanged before is presented again: revoke every token issued from it (the
    access token, its refresh token and all rotated from it). Returns how many were revoked."""
    row = RedeemedAuthorizationCode.objects.filter(
        code_digest=code_digest(code), application=application
    ).first()
    if row is None:
        return 0
    access_tokens = get_access_token_model().objects.filter(
        token_checksum=row.access_token_checksum
    )
    revoked = 0
    if row.token_family:
        family = get_refresh_token_model().objects.filter(
            token_family=row.token_family, revoked__isnull=True
        )
        for refresh_token in family:
            refresh_token.revoke()  # its access token goes with it
            revoked += 1
        access_tokens = access_tokens | get_access_token_model().objects.filter(
            source_refresh_token__token_family=row.token_family
        )
    revoked += access_tokens.delete()[0]
    log.warning("oauth_code_reused", client_id=application.client_id, tokens_revoked=revoked)
    return revoked
