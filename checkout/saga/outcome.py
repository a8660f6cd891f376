"""What the saga answers its callers."""

from __future__ import annotations

from dataclasses import dataclass

from checkout.models import Order


@dataclass(frozen=True)
class SagaOutcome:
    """Where an order stands after the saga (or a recovery) ran; `error_code` names a failure."""

    order: Order
    error_code: str | None = None
    # False when another call had claimed the order first: this one did nothing to it.
    claimed: bool = True

    @classmethod
    def now(cls, order_id: object, error_code: str | None = None) -> SagaOutcome:
        """The order as the database holds it now: the steps move it by conditional UPDATEs,
        so an order object read earlier is out of date."""
        return cls(Order.objects.get(pk=order_id), error_code)


@dataclass(frozen=True)
class Prepared:
    order: Order
    confirmation_token: str  # shown once, to the widget only; the order keeps its digest


@dataclass(frozen=True)
class InProgress:
    """No new draft: this order of the workflow is being paid for."""

    order: Order
