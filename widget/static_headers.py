"""Cache headers whitenoise adds to the demo product pictures (pure Python: settings import it)."""

from __future__ import annotations

import re

# widget/products/[<category>/]<name>.v<N>.svg: the version changes whenever the picture does.
VERSIONED_PICTURE = re.compile(r"/widget/products/(?:[\w-]+/)?[\w-]+\.v\d+\.svg$")
ONE_YEAR = 365 * 24 * 3600


def picture_cache_headers(headers: dict[str, str], path: str, url: str) -> None:
    if VERSIONED_PICTURE.search(url):
        headers["Cache-Control"] = f"public, max-age={ONE_YEAR}, immutable"
