"""The one tool registry: every tool is declared here once; REST, OpenAPI and MCP are generated
from it. Layers above declare their tools, OAuth scopes and workflow store into it; the runtime
itself knows no tool by name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.functional import Promise
from pydantic import BaseModel

from tool_runtime.errors import ToolError
from tool_runtime.validation import InputCheck
from tool_runtime.workflows import Workflow

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


# OAuth scopes: each tool needs exactly one; the consent page shows these texts.
SCOPES: dict[str, Promise] = {}


def declare_scopes(scopes: dict[str, Promise]) -> None:
    """Add a layer's OAuth scopes with the text the consent page shows for each."""
    for name, text in scopes.items():
        if name in SCOPES:
            raise ValueError(f"scope {name!r} is declared twice")
        SCOPES[name] = text


@dataclass(frozen=True)
class Annotations:
    """MCP tool annotations; `idempotent=None` leaves the hint unset (read-only tools)."""

    read_only: bool
    destructive: bool
    idempotent: bool | None
    open_world: bool

    def as_mcp(self) -> dict[str, bool]:
        hints = {
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "openWorldHint": self.open_world,
        }
        if self.idempotent is not None:
            hints["idempotentHint"] = self.idempotent
        return hints


@dataclass
class ToolContext:
    """What a handler knows about the call besides its arguments."""

    principal: AbstractBaseUser
    correlation_id: str
    transport: str
    locale: str = "en"
    workflow: Workflow | None = None


@dataclass
class ToolResult:
    """A handler's success: `data` is what the model sees, `meta` only the widget."""

    data: BaseModel
    meta: dict[str, Any] = field(default_factory=dict)
    # The workflow as the handler left it: the widget redraws from it instead of reading it
    # again. Never serialised, never stored with an idempotency key.
    workflow: Workflow | None = None
    # False when the state it reports may still change (an order still being paid): an
    # idempotency key never stores such an answer; a repeat reads it afresh (current_answer).
    final: bool = True


# Meta keys that are secrets of the widget: never model-visible, sealed when stored at rest.
WIDGET_SECRET_META_KEYS = ("confirmation_token",)

Handler = Callable[[ToolContext, Any], ToolResult]


@dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    description: str  # written for the model: what, when, and when NOT to call it
    input_model: type[BaseModel]
    output_model: type[BaseModel]
    annotations: Annotations
    handler: Handler
    scope: str  # the OAuth scope a token needs to call the tool (one of SCOPES)
    # The scope a call needs instead when it names a workflow: a catalog read that records its
    # results into the workflow writes it.
    workflow_scope: str | None = None
    # Workflow steps in which the tool may run; None means the tool is not gated by step.
    allowed_steps: frozenset[str] | None = None
    requires_idempotency_key: bool = False
    # Side-effect-free checks of arguments the schema cannot state (an id that must exist),
    # reported with the schema's findings before any idempotency key is claimed.
    input_checks: tuple[InputCheck, ...] = ()
    widget_accessible: bool = False
    # Only a person's click in the widget may call it: MCP Apps hosts hide it from the model.
    app_only: bool = False
    # Its first-time success's call-log row may wait in the batch (decision 010): every
    # read-only tool, and a tool whose only write is the workflow's repeatable record of what
    # it showed (decision 013). None: whether it is read-only.
    batched_log: bool | None = None
    invoking: str = "Working…"
    invoked: str = "Done"
    # For a keyed tool whose handler may answer `final=False` (or raise a ToolError with
    # final=False): a repeated call's answer, read afresh until it is final and the key stores
    # it. It does not act beyond what the first call meant to do: the order as it is now, or,
    # after a refusal that acted on nothing, the same idempotent call asked again.
    current_answer: Handler | None = None
    # Whether its arguments name a workflow: decided once here, as every call asks it (and
    # listing the tools allowed at a step asks it of every tool).
    takes_workflow: bool = field(init=False)

    def __post_init__(self) -> None:
        if len(self.invoking) > 64 or len(self.invoked) > 64:
            raise ValueError(f"{self.name}: invocation texts must be at most 64 characters")
        for scope in (self.scope, self.workflow_scope or self.scope):
            if scope not in SCOPES:
                raise ValueError(f"{self.name}: scope {scope!r} is not one of {sorted(SCOPES)}")
        object.__setattr__(self, "takes_workflow", "workflow_id" in self.input_model.model_fields)

    @property
    def log_may_wait(self) -> bool:
        return self.annotations.read_only if self.batched_log is None else self.batched_log

    def scope_for(self, *, names_workflow: bool) -> str:
        """The OAuth scope this call needs."""
        return self.workflow_scope if names_workflow and self.workflow_scope else self.scope


REGISTRY: dict[str, ToolSpec] = {}


def register(spec: ToolSpec) -> ToolSpec:
    if spec.name in REGISTRY:
        raise ValueError(f"tool {spec.name!r} is declared twice")
    REGISTRY[spec.name] = spec
    return spec


def get_tool(name: str) -> ToolSpec:
    try:
        return REGISTRY[name]
    except KeyError:
        raise ToolError(
            "UNKNOWN_TOOL",
            f"There is no tool named '{name}'.",
            field="tool",
            expected="the name of a registered tool",
            allowed_values=sorted(REGISTRY),
        ) from None


def tools_allowed_in(step: str) -> list[str]:
    """Workflow tools the model may call while a workflow is at `step` (the step gate): not the
    app-only ones, which hosts hide from the model (only the person's click calls them)."""
    return sorted(
        spec.name
        for spec in REGISTRY.values()
        if spec.takes_workflow
        and not spec.app_only
        and (spec.allowed_steps is None or step in spec.allowed_steps)
    )


def step_gate_error(*, tool: str, allowed_steps: frozenset[str], current_step: str) -> ToolError:
    """TOOL_NOT_AVAILABLE_IN_STEP: `tool` may run only at `allowed_steps`."""
    allowed = tools_allowed_in(current_step)
    return ToolError(
        "TOOL_NOT_AVAILABLE_IN_STEP",
        f"'{tool}' cannot be called while the workflow is at step '{current_step}'. "
        f"It is available at: {', '.join(sorted(allowed_steps))}.",
        details={
            "current_step": current_step,
            "allowed_tools": allowed,
            "tool_allowed_in_steps": sorted(allowed_steps),
        },
        next_actions=allowed,
    )
