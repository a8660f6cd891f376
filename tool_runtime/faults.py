"""Fault injection for tests and the QA preview: make an upstream fail on purpose, per request.

A plan is written like `catalog=503x2` (fail twice with 503, then succeed), `catalog=timeout`
(time out on every attempt), `catalog=503` (fail always) or `catalog=400` (reject the request). It only ever takes effect when
settings.FAULT_INJECTION_ENABLED is true, which production settings force off.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.conf import settings

from tool_runtime.errors import ToolError

FAULT_KINDS = ("503", "timeout", "400")
UPSTREAMS = ("catalog",)
_SPEC = re.compile(r"^(?P<upstream>[a-z]+)=(?P<kind>503|timeout|400)(?:x(?P<times>[1-9][0-9]?))?$")


@dataclass
class Fault:
    upstream: str
    kind: str
    remaining: int | None  # None: every attempt fails

    def take(self) -> bool:
        """True when this attempt must fail; counts down a limited fault."""
        if self.remaining is None:
            return True
        if self.remaining > 0:
            self.remaining -= 1
            return True
        return False


_active: ContextVar[tuple[Fault, ...]] = ContextVar("active_faults", default=())


def parse(spec: str) -> tuple[Fault, ...]:
    faults = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        match = _SPEC.match(part)
        if not match or match["upstream"] not in UPSTREAMS:
            raise ToolError(
                "VALIDATION_ERROR",
                f"Fault '{part}' is not understood.",
                field="fault",
                expected="upstream=kind[xN], e.g. catalog=503x2 or catalog=timeout",
                allowed_values=[f"{u}={k}" for u in UPSTREAMS for k in FAULT_KINDS],
                example="catalog=503x2",
            )
        times = match["times"]
        faults.append(Fault(match["upstream"], match["kind"], int(times) if times else None))
    return tuple(faults)


@contextmanager
def injected(spec: str | None) -> Iterator[None]:
    """Activate a fault plan for the duration of one tool call (ignored when disabled)."""
    if not spec or not settings.FAULT_INJECTION_ENABLED:
        yield
        return
    token = _active.set(parse(spec))
    try:
        yield
    finally:
        _active.reset(token)


def pending_fault(upstream: str) -> str | None:
    """The fault kind this attempt at `upstream` must suffer, or None."""
    if not settings.FAULT_INJECTION_ENABLED:
        return None
    for fault in _active.get():
        if fault.upstream == upstream and fault.take():
            return fault.kind
    return None
