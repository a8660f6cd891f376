"""Input and output models of the workflow tools: the JSON schemas the model and REST see."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Annotated, Any, Literal
from uuid import UUID

from django.conf import settings
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from tool_runtime.errors import ToolError
from tool_runtime.schemas import Integer, ToolInput, ToolOutput, not_true_or_false
from tool_runtime.text import PrintableText

CATEGORIES = (
    "art_supplies", "beauty", "books", "electronics", "fashion", "food", "games", "garden",
    "home", "jewelry", "kitchen", "music", "outdoors", "pets", "sports", "stationery", "toys",
    "wellness",
)  # fmt: skip
RELATIONSHIPS = (
    "partner", "spouse", "mother", "father", "parent", "child", "sibling", "grandparent",
    "friend", "colleague", "teacher", "other",
)  # fmt: skip
STEPS = ("brief", "ideas", "gift_selected", "checkout", "completed", "failed")

Category = Literal[CATEGORIES]  # type: ignore[valid-type]
Relationship = Literal[RELATIONSHIPS]  # type: ignore[valid-type]
Currency = Literal[tuple(settings.SUPPORTED_CURRENCIES)]  # type: ignore[valid-type]
StepId = Literal[STEPS]  # type: ignore[valid-type]
# The decimal strings a money field accepts besides a number: digits, at most 2 decimal
# places, within the bounds (0 to 100000; above 0 for a maximum). Stated in the schema and
# checked, so the schema and validation agree on every string.
MONEY_TEXT = r"^0*([0-9]{1,5}(\.[0-9]{1,2})?|\.[0-9]{1,2}|100000(\.00?)?)$"
POSITIVE_MONEY_TEXT = r"^0*([1-9][0-9]{0,4}(\.[0-9]{1,2})?|\.(0[1-9]|[1-9][0-9]?)|100000(\.00?)?)$"


def money_text(pattern: str) -> Any:
    """A Decimal field's validator and schema for its string form (`pattern`)."""
    compiled = re.compile(pattern)

    def check(value: object) -> object:
        if isinstance(value, str) and not compiled.fullmatch(value.strip()):
            raise PydanticCustomError(
                "decimal_parsing",
                "Input should be a number, or a decimal string such as '24.99' (at most 2 "
                "decimal places, within the bounds)",
            )
        return value.strip() if isinstance(value, str) else value

    def schema(field_schema: dict[str, Any]) -> None:
        pending = list(field_schema.get("anyOf", []))
        while pending:  # an optional one nests its number-or-string in the outer anyOf
            variant = pending.pop()
            pending.extend(variant.get("anyOf", []))
            if variant.get("type") == "string":
                variant["pattern"] = pattern

    return BeforeValidator(check), schema


_MONEY_CHECK, _MONEY_SCHEMA = money_text(MONEY_TEXT)
_POSITIVE_CHECK, _POSITIVE_SCHEMA = money_text(POSITIVE_MONEY_TEXT)
Money = Annotated[Decimal, _MONEY_CHECK]
PositiveMoney = Annotated[Decimal, _POSITIVE_CHECK]


WorkflowId = Field(description="The workflow_id returned by start_gift_workflow.")


# --- start_gift_workflow / get_workflow ---------------------------------------------------


class StartWorkflowInput(ToolInput):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{}]})


class WorkflowState(ToolOutput):
    workflow_id: UUID
    current_step: StepId
    visited_steps: list[StepId]
    allowed_tools: list[str] = Field(description="Tools that may be called at the current step.")
    brief: dict = Field(
        default_factory=dict, description="The gift brief recorded by suggest_gifts."
    )
    suggested_product_ids: list[int] = Field(default_factory=list)
    selected_product_id: int | None = None
    draft_order_id: UUID | None = None


class GetWorkflowInput(ToolInput):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"workflow_id": "3f2b8c1e-6d4a-4f7b-9c2e-1a5d7e9f0b34"}]},
    )
    workflow_id: UUID = WorkflowId


# --- suggest_gifts / search_products --------------------------------------------------------


class Product(BaseModel):
    product_id: int
    sku: str
    name: str
    description: str
    price: str = Field(description="Decimal amount as a string, e.g. '24.99'.")
    currency: str
    category: str
    tags: list[str]
    in_stock: bool
    image: str = Field(
        default="", description="Picture URL; a root-relative one is on this app's origin."
    )
    image_width: int = 0
    image_height: int = 0
    image_alt: str = ""


class Variant(BaseModel):
    product_id: int
    name: str
    price: str


class Gift(Product):
    match_reasons: list[str] = Field(
        description="Why this gift fits the brief: the interests it serves, where its price sits "
        "in the budget."
    )
    variants: list[Variant] = Field(
        default_factory=list,
        description="Other versions of this product (colors, flavors, sizes) that fit the brief "
        "too; select_gift takes their product_id as well.",
    )


class Suggestion(BaseModel):
    change: Literal[
        "raise_budget_max", "lower_budget_min", "drop_interest", "use_interests", "drop_age"
    ]
    field: str
    value: str | int | list[str] | None
    matches: int = Field(description="How many gifts this change would find.")
    message: str


class SuggestGiftsInput(ToolInput):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "workflow_id": "3f2b8c1e-6d4a-4f7b-9c2e-1a5d7e9f0b34",
                    "relationship": "friend",
                    "interests": ["cooking", "coffee"],
                    "budget_min": 20,
                    "budget_max": 60,
                    "currency": "USD",
                    "age": 35,
                    "limit": 5,
                }
            ]
        },
    )
    workflow_id: UUID = WorkflowId
    relationship: Relationship = Field(description="Who the gift is for.")
    interests: list[Annotated[PrintableText, Field(min_length=1, max_length=40)]] = Field(
        min_length=1,
        max_length=10,
        description="The recipient's interests, e.g. ['cooking', 'hiking'].",
    )
    budget_min: Money = Field(
        ge=0,
        le=100000,
        decimal_places=2,
        json_schema_extra=_MONEY_SCHEMA,
        description="Lowest price, e.g. 20 (at most 2 decimal places).",
    )
    budget_max: PositiveMoney = Field(
        gt=0,
        le=100000,
        decimal_places=2,
        json_schema_extra=_POSITIVE_SCHEMA,
        description="Highest price, e.g. 60 (at most 2 decimal places).",
    )
    currency: Currency = Field(description="ISO 4217 code of the budget.")
    # The bounds before the validator: given on the Optional (or after it), pydantic writes
    # `ge`/`le` into the JSON schema, words no validator (or model) knows.
    age: Annotated[int, Field(ge=0, le=120), BeforeValidator(not_true_or_false)] | None = Field(
        default=None, description="The recipient's age in years."
    )
    limit: Integer = Field(default=5, ge=1, le=20, description="How many gifts to return.")

    @model_validator(mode="after")
    def budget_range(self) -> SuggestGiftsInput:
        if self.budget_min > self.budget_max:
            raise ToolError(
                "VALIDATION_ERROR",
                f"budget_min ({self.budget_min}) is greater than budget_max ({self.budget_max}); "
                "budget_min must be at most budget_max.",
                field="budget_min",
                expected=f"a number <= budget_max ({self.budget_max})",
                example=str(min(self.budget_max, Decimal(20))),
                details={"budget_max": str(self.budget_max)},
            )
        blank = [i for i, interest in enumerate(self.interests) if not interest.strip()]
        if blank:
            raise ToolError(
                "VALIDATION_ERROR",
                f"Field 'interests.{blank[0]}' is blank; every interest must be a non-empty word.",
                field=f"interests.{blank[0]}",
                expected="a non-empty string such as 'cooking'",
                example="cooking",
            )
        return self


class SuggestGiftsOutput(ToolOutput):
    workflow_id: UUID
    current_step: StepId
    gifts: list[Gift]
    no_results_reason: str | None = None
    suggestions: list[Suggestion] = Field(default_factory=list)


class SearchProductsInput(ToolInput):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"query": "coffee grinder", "category": "kitchen", "max_price": 80, "limit": 5},
                {"category": "jewelry", "min_price": 20, "max_price": 60, "sort": "price_asc"},
            ]
        },
    )
    query: PrintableText = Field(
        default="",
        max_length=200,
        description="Words to look for, in any language, e.g. 'coffee grinder'. Leave it out "
        "with a category to list everything in that category.",
    )
    category: Category | None = Field(default=None, description="Only this catalog category.")
    min_price: Annotated[Decimal, Field(ge=0, le=100000, decimal_places=2), _MONEY_CHECK] | None = (
        Field(
            default=None,
            json_schema_extra=_MONEY_SCHEMA,
            description="Lowest price, e.g. 20 (at most 2 decimal places).",
        )
    )
    max_price: (
        Annotated[Decimal, Field(gt=0, le=100000, decimal_places=2), _POSITIVE_CHECK] | None
    ) = Field(
        default=None,
        json_schema_extra=_POSITIVE_SCHEMA,
        description="Highest price, e.g. 80 (at most 2 decimal places).",
    )
    sort: Literal["relevance", "price_asc", "price_desc"] = Field(
        default="relevance",
        description="relevance: most of the words first; price_asc / price_desc: by price.",
    )
    limit: Integer = Field(default=10, ge=1, le=50)
    workflow_id: UUID | None = Field(
        default=None,
        description=(
            "Optional. When given, the workflow moves to step 'ideas' (if still at 'brief') and the "
            "in-stock results are remembered, so select_gift can pick one of them next."
        ),
    )

    @model_validator(mode="after")
    def words_or_category(self) -> SearchProductsInput:
        # Without words or a category a search would list the whole catalog.
        if not self.query.split() and self.category is None:
            raise ToolError(
                "VALIDATION_ERROR",
                "Field 'query' is blank and no category is given; give words to look for, or a "
                "category to list.",
                field="query",
                expected="at least one word, such as 'coffee grinder', or a category",
                example="coffee grinder",
            )
        if (
            self.min_price is not None
            and self.max_price is not None
            and self.min_price > self.max_price
        ):
            raise ToolError(
                "VALIDATION_ERROR",
                f"min_price ({self.min_price}) is greater than max_price ({self.max_price}).",
                field="min_price",
                expected=f"a number <= max_price ({self.max_price})",
                example=str(self.max_price),
            )
        return self


class SearchSuggestion(BaseModel):
    change: Literal[
        "drop_category", "raise_max_price", "lower_min_price", "drop_words", "other_words"
    ]
    field: str
    value: str | int | None
    matches: int = Field(description="How many products this change would find.")
    message: str


class SearchProductsOutput(ToolOutput):
    products: list[Product]
    total: int = Field(default=0, description="How many products match (before the limit).")
    category_counts: dict[str, int] = Field(
        default_factory=dict,
        description="How many products match in each category, with the same words and prices.",
    )
    # What was searched, so a list can be filtered further from where it stands.
    query: str = ""
    category: str | None = None
    min_price: str | None = None
    max_price: str | None = None
    sort: str = "relevance"
    # Only for an empty result (nothing found is not an error): why, and what would help.
    no_results_reason: str | None = None
    suggestions: list[SearchSuggestion] = Field(default_factory=list)
    # Set only for a search made within a workflow (which the search moved to `ideas`).
    workflow_id: UUID | None = None
    current_step: StepId | None = None


# --- select_gift / user_navigated_to_step ------------------------------------------------------


class SelectGiftInput(ToolInput):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"workflow_id": "3f2b8c1e-6d4a-4f7b-9c2e-1a5d7e9f0b34", "product_id": 42}]
        },
    )
    workflow_id: UUID = WorkflowId
    product_id: Integer = Field(
        ge=1, description="A product_id from this workflow's suggestions or search results."
    )


class SelectGiftOutput(ToolOutput):
    workflow_id: UUID
    current_step: StepId
    gift: Product


class NavigateInput(ToolInput):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"workflow_id": "3f2b8c1e-6d4a-4f7b-9c2e-1a5d7e9f0b34", "step_id": "ideas"}
            ]
        },
    )
    workflow_id: UUID = WorkflowId
    step_id: StepId = Field(description="An earlier step this workflow has already visited.")


class NavigateOutput(ToolOutput):
    workflow_id: UUID
    current_step: StepId
    invalidated: list[str] = Field(description="What is no longer valid after going back.")
    allowed_tools: list[str]
