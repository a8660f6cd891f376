"""What every tool's input and output schema shares: unknown fields refused, and integers that
are never booleans. Free text follows tool_runtime.text."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict
from pydantic_core import PydanticCustomError


def not_true_or_false(value: object) -> object:
    # pydantic reads JSON true/false as 1/0 for an int; a count or an id is never a boolean.
    if isinstance(value, bool):
        raise PydanticCustomError("int_type", "Input should be a valid integer, not true or false")
    return value


Integer = Annotated[int, BeforeValidator(not_true_or_false)]


class ToolInput(BaseModel):
    """Unknown fields are refused so a mistyped field name is reported, not silently dropped."""

    model_config = ConfigDict(extra="forbid")


class ToolOutput(BaseModel):
    ok: Literal[True] = True
