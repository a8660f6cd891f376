"""The server's access log keeps no secret that arrives in a URL's query.

Stripe sends the person back from a bank's 3-D Secure page to our return URL with the
PaymentIntent's client secret in the query (`payment_intent_client_secret=…`); the secret is for
the person's browser only, so the access line is written with its value replaced."""

from __future__ import annotations

import logging
import re

ACCESS_LOGGER = "uvicorn.access"
# A query parameter whose name says it is a secret, and its value.
SECRET_IN_QUERY = re.compile(r"(?i)([?&][^=&#\s]*(?:secret|token)[^=&#\s]*=)[^&#\s]*")
REDACTED = "[redacted]"


def redact_query_secrets(path: str) -> str:
    return SECRET_IN_QUERY.sub(lambda m: m.group(1) + REDACTED, path)


class RedactQuerySecrets(logging.Filter):
    """For uvicorn's access records: args are (client, method, path with query, version, status)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            record.args = (*args[:2], redact_query_secrets(args[2]), *args[3:])
        return True


def install() -> None:
    """Filter the access logger itself, whoever configured its handlers (uvicorn, at start)."""
    logger = logging.getLogger(ACCESS_LOGGER)
    if not any(isinstance(f, RedactQuerySecrets) for f in logger.filters):
        logger.addFilter(RedactQuerySecrets())
