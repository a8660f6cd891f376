from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tool_runtime.principals import issue_api_token


class Command(BaseCommand):
    help = "Issue a new REST bearer token for USERNAME and print it (and nothing else)."

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, username: str, **options):
        user = get_user_model().objects.filter(username=username, is_active=True).first()
        if user is None:
            raise CommandError(f"no active user named {username!r}")
        self.stdout.write(issue_api_token(user=user))
