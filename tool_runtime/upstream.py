"""Retries spent on upstream services during the current tool call.

Every layer that retries an upstream call counts its retries here: the catalog adapter
(gifts.catalog) and the payment gateway (checkout.payments.gateway). The tool executor
starts each call at 0 and writes the total to ToolCallLog.upstream_retries, which the
dashboard, Prometheus and the alerts read ("recovered by retry", "retries spent").
"""

from __future__ import annotations

from contextvars import ContextVar

upstream_retries: ContextVar[int] = ContextVar("upstream_retries", default=0)


def count_retry() -> None:
    """One more attempt after a transient failure, in the current tool call."""
    upstream_retries.set(upstream_retries.get() + 1)
