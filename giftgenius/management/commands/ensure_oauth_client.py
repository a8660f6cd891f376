import os

from django.conf import settings
from django.core.management.base import BaseCommand
from oauth2_provider.models import get_application_model

DEMO_CLIENT_ID = "giftgenius-demo"
# The MCP Inspector's callbacks, so the demo client works with it out of the box.
DEFAULT_REDIRECT_URIS = (
    "http://localhost:6274/oauth/callback http://localhost:6274/oauth/callback/debug"
)


class Command(BaseCommand):
    help = (
        "Ensure the pre-registered OAuth client `giftgenius-demo` (authorization code + PKCE) "
        "exists and print its credentials and the OAuth discovery URLs."
    )

    def handle(self, *args, **options):
        Application = get_application_model()
        secret = os.environ.get("OAUTH_DEMO_CLIENT_SECRET", "giftgenius-demo-secret")
        client, _ = Application.objects.get_or_create(client_id=DEMO_CLIENT_ID)
        client.name = "GiftGenius demo client"
        client.client_type = Application.CLIENT_CONFIDENTIAL
        client.authorization_grant_type = Application.GRANT_AUTHORIZATION_CODE
        client.redirect_uris = os.environ.get("OAUTH_DEMO_REDIRECT_URIS", DEFAULT_REDIRECT_URIS)
        client.client_secret = secret  # stored hashed on save
        client.save()
        origin = settings.PUBLIC_ORIGIN.rstrip("/")
        self.stdout.write(
            f"OAuth demo client: {DEMO_CLIENT_ID} / {secret} · discovery: "
            f"{origin}/.well-known/oauth-authorization-server "
            f"(MCP resource: {origin}/.well-known/oauth-protected-resource/mcp)"
        )
