"""The one printable-text rule, for every free-text field wherever text enters the app: tool
arguments (names, addresses, reasons, search words, interests, gift messages) and every other
boundary that stores or shows what it is sent.

- Refused, with an error that names the field: control characters (C0, DEL and C1, NUL
  included: PostgreSQL refuses NUL in text and jsonb) and the bidirectional controls
  U+202A to U+202E and U+2066 to U+2069, which can make text in the admin or on a packing slip read
  differently from what it is.
- Dropped silently: U+200B (zero-width space) and U+FEFF (byte-order mark), invisible and
  meaningless inside a value.
- Kept: everything else, U+200D (zero-width joiner) included, which joins emoji sequences.
- Lengths count characters (code points), after the invisible ones are dropped.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any

from pydantic import BeforeValidator, Field

# The refused characters as a character class, in a syntax JSON Schema (ECMA), Python and the
# Rust engine pydantic validates patterns with all read the same way.
REFUSED_CLASS = r"\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
PRINTABLE = rf"^[^{REFUSED_CLASS}]*$"
_REFUSED = re.compile(rf"[{REFUSED_CLASS}]")
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\ufeff"))


def drop_invisible(value: Any) -> Any:
    """`value` without U+200B and U+FEFF (anything that is not text is left to validation)."""
    return value.translate(_INVISIBLE) if isinstance(value, str) else value


def first_refused(text: str) -> tuple[int, str] | None:
    """The position and character of the first character the rule refuses, or None."""
    found = _REFUSED.search(text)
    return (found.start(), found.group()) if found else None


def describe_refused(text: str) -> str | None:
    """Why `text` is refused, naming its first refused character ("U+202E (RIGHT-TO-LEFT
    OVERRIDE) at character 5"), or None when the rule accepts it."""
    found = first_refused(text)
    if found is None:
        return None
    position, char = found
    name = unicodedata.name(char, "a control character")
    return f"U+{ord(char):04X} ({name}) at character {position + 1}"


def printable(text: str) -> str:
    """The text as the rule stores it; raises ValueError naming the first refused character.
    For boundaries that do not validate with pydantic (forms, OAuth, webhooks)."""
    text = drop_invisible(text)
    why = describe_refused(text)
    if why is not None:
        raise ValueError(f"not printable text: {why}")
    return text


# A tool schema's free-text field: `name: PrintableText = Field(min_length=1, max_length=100)`.
# The validator wraps the pattern (it comes after it), so invisible characters go first.
PrintableText = Annotated[str, Field(pattern=PRINTABLE), BeforeValidator(drop_invisible)]
