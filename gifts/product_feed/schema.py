"""The ACP feed schema (vendored, release 2026-04-17) and the problems found against it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.conf import settings
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

SPEC_RELEASE = "2026-04-17"
SCHEMA_PATH = (
    settings.BASE_DIR
    / "vendor"
    / "acp"
    / "spec"
    / SPEC_RELEASE
    / "json-schema"
    / "schema.feed.json"
)
# Problems listed in one refusal; the rest are counted, so a broken file of 50,000 rows does not
# make a 50,000-line message.
MAX_LISTED_PROBLEMS = 20


@dataclass(frozen=True)
class FeedProblem:
    """One thing wrong with a feed: where (a CSV line or a JSON path), which field, and why."""

    where: str
    field: str
    message: str

    def __str__(self) -> str:
        return (
            f"{self.where}, field {self.field}: {self.message}"
            if self.field
            else (f"{self.where}: {self.message}")
        )


class FeedRefused(Exception):
    """A feed that is not imported (or not written) at all, with every problem found."""

    def __init__(self, problems: list[FeedProblem]) -> None:
        self.problems = problems
        listed = "\n".join(f"- {problem}" for problem in problems[:MAX_LISTED_PROBLEMS])
        more = len(problems) - MAX_LISTED_PROBLEMS
        tail = f"\n- … and {more} more" if more > 0 else ""
        super().__init__(f"The feed has {len(problems)} problem(s):\n{listed}{tail}")


@cache
def _bundle() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@cache
def _validator(definition: str) -> Draft202012Validator:
    bundle = _bundle()
    registry = Registry().with_resource(bundle["$id"], Resource.from_contents(bundle))
    return Draft202012Validator({"$ref": f"{bundle['$id']}#/$defs/{definition}"}, registry=registry)


def schema_problems(
    document: Any, *, definition: str, where: str = "", locate=None
) -> list[FeedProblem]:
    """What in `document` breaks the feed schema's `definition` (e.g. ProductsResponse).

    `locate(path)` turns an error's JSON path into (where, field) — a CSV import uses it to name
    the line and column a feed field came from; by default the path itself is the place.
    """
    problems = []
    errors = sorted(_validator(definition).iter_errors(document), key=lambda e: list(e.path))
    for error in errors:
        path = list(error.absolute_path)
        if locate is not None:
            place, field = locate(path)
        else:
            place, field = _split(path, where or "the feed")
        field = field or ("" if path else "(the whole document)")
        problems.append(FeedProblem(place, field, _say(error)))
    return problems


def _split(path: list, where: str) -> tuple[str, str]:
    """A feed's JSON path as (the product or variant it is in, the field within it)."""
    cut = 4 if path[:1] == ["products"] and path[2:3] == ["variants"] and len(path) >= 4 else 2
    if path[:1] != ["products"] or len(path) < cut:
        return where, json_path(path)
    return f"{where} {json_path(path[:cut])}", json_path(path[cut:]) if len(path) > cut else ""


def json_path(path: list) -> str:
    """A JSON path as people read it: products[3].variants[0].price.amount."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _say(error) -> str:
    if error.validator == "additionalProperties":
        return error.message.replace("Additional properties are not allowed", "unknown field(s)")
    if error.validator in {"minimum", "pattern", "type", "required", "minProperties", "format"}:
        return error.message
    return error.message[:200]
