"""The one ASGI app: Django for everything, with the MCP endpoint spliced in at /mcp."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "giftgenius.settings.dev")
django_app = get_asgi_application()

application = django_app
