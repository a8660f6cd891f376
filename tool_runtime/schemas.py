"""What every tool's input and output schema shares: unknown fields refused, and integers that
are never booleans. Free text follows tool_runtime.text."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, model_validator
from pydantic_core import PydanticCustomError


def not_true_or_false(value: object) -> object:
    # pydantic reads JSON true/false as 1/0 for an int; a count or an id is never a boolean.
    if isinstance(value, bool):
        raise PydanticCustomError("int_type", "Input should be a valid integer, not true or false")
    return value


Integer = Annotated[int, BeforeValidator(not_true_or_false)]


class ToolInput(BaseModel):
    """Unknown fields are refused so a mistyped field name is reported, not silently dropped.
    Surrounding whitespace is trimmed from every string (ids and free text alike), one rule
    for every tool."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    @model_validator(mode="before")
    @classmethod
    def trim_ids(cls, data: Any) -> Any:
        # str_strip_whitespace trims only str fields: an id (a UUID) is trimmed here.
        if isinstance(data, dict):
            return {k: v.strip() if isinstance(v, str) else v for k, v in data.items()}
        return data


class ToolOutput(BaseModel):
    ok: Literal[True] = True
