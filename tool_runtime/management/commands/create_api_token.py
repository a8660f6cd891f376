from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tool_runtime.models import ApiTokenKind
from tool_runtime.principals import issue_api_token


class Command(BaseCommand):
    help = "Issue a new REST bearer token for USERNAME and print it (and nothing else)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument(
            "--kind",
            choices=ApiTokenKind.values,
            default=ApiTokenKind.SCRIPT,
            help="script: the tools at /api/tools; agent: ACP checkout sessions at /acp.",
        )
        parser.add_argument(
            "--signing-secret",
            default="",
            help="An agent's request-signing secret: its requests must then carry a valid "
            "Signature and Timestamp.",
        )

    def handle(self, *args, username: str, kind: str, signing_secret: str, **options):
        user = get_user_model().objects.filter(username=username, is_active=True).first()
        if user is None:
            raise CommandError(f"no active user named {username!r}")
        self.stdout.write(issue_api_token(user=user, kind=kind, signing_secret=signing_secret))
