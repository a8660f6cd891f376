"""The widget as an MCP resource: its URI, mime type, description, and the CSP and domain that
hosts frame it with (explicit origins only, never a wildcard)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

# The shell's version is in the URI: hosts cache a resource by URI, so a new shell needs a new one.
WIDGET_URI = "ui://widget/giftgenius-v2.html"
# MCP Apps' mime type; ChatGPT renders it too (and still reads the openai/* keys beside _meta.ui).
WIDGET_MIME_TYPE = "text/html;profile=mcp-app"
WIDGET_DESCRIPTION = (
    "Shows the gift ideas, the selected gift, the checkout summary with the person's own "
    "'Confirm purchase' button, and the order's progress. The person acts in it directly; "
    "do not repeat everything it shows."
)


def _explicit_origins(setting: str, values: list[str]) -> list[str]:
    for value in values:
        parts = urlsplit(value)
        if "*" in value or parts.scheme not in {"http", "https"} or not parts.netloc or parts.path:
            raise ImproperlyConfigured(
                f"{setting}: {value!r} is not an explicit origin like https://host"
            )
    return list(values)


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def widget_resource_meta() -> dict[str, Any]:
    connect = _explicit_origins("WIDGET_CONNECT_DOMAINS", settings.WIDGET_CONNECT_DOMAINS)
    resources = _explicit_origins(
        "WIDGET_RESOURCE_DOMAINS",
        # Product pictures load from the catalog's image origins and from the origin the demo
        # pictures' absolute URLs are made on.
        list(
            dict.fromkeys(
                [
                    *settings.WIDGET_RESOURCE_DOMAINS,
                    *settings.WIDGET_IMAGE_ORIGINS,
                    _origin_of(settings.WIDGET_IMAGE_BASE_URL),
                ]
            )
        ),
    )
    (domain,) = _explicit_origins("WIDGET_DOMAIN", [settings.WIDGET_DOMAIN])
    return {
        "openai/widgetDescription": WIDGET_DESCRIPTION,
        "openai/widgetPrefersBorder": True,
        "openai/widgetDomain": domain,
        "openai/widgetCSP": {"connect_domains": connect, "resource_domains": resources},
        "ui": {
            "csp": {"connectDomains": connect, "resourceDomains": resources},
            "domain": domain,
            "prefersBorder": True,
        },
    }
