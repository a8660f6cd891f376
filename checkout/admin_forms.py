"""The forms of the order admin's staff actions: mark shipped, roll back."""

from __future__ import annotations

from django import forms

from checkout import fulfilment
from checkout.models import Order, OrderAuditEntry
from tool_runtime.text import printable


class ShipmentForm(forms.Form):
    """Mark shipped: one carrier for the batch, a tracking number (and URL) per order."""

    orders = forms.ModelMultipleChoiceField(
        queryset=Order.objects.all(), widget=forms.MultipleHiddenInput
    )
    carrier = forms.CharField(max_length=100)

    def __init__(self, *args, orders: list[Order], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.rows = []
        for order in orders:
            number = forms.CharField(max_length=100, label=f"Tracking number for {order.pk}")
            url = forms.URLField(
                max_length=500, required=False, assume_scheme="https", label="Tracking URL"
            )
            self.fields[f"tracking_{order.pk}"] = number
            self.fields[f"url_{order.pk}"] = url
            self.rows.append((order, self[f"tracking_{order.pk}"], self[f"url_{order.pk}"]))

    def shipments(self) -> list[fulfilment.Shipment]:
        return [
            fulfilment.Shipment(
                order_id=order.pk,
                carrier=self.cleaned_data["carrier"],
                tracking_number=self.cleaned_data[f"tracking_{order.pk}"],
                tracking_url=self.cleaned_data[f"url_{order.pk}"],
            )
            for order in self.cleaned_data["orders"]
        ]


class RollbackForm(forms.Form):
    orders = forms.ModelMultipleChoiceField(
        queryset=Order.objects.all(), widget=forms.MultipleHiddenInput
    )
    # One line: the printable-text rule (tool_runtime.text) refuses line breaks with the other
    # control characters, as for every free-text field.
    reason = forms.CharField(
        max_length=OrderAuditEntry._meta.get_field("reason").max_length,
        widget=forms.TextInput(attrs={"size": 80}),
        help_text="Required. Recorded in the audit trail with your name.",
    )
    confirm_shipped = forms.BooleanField(
        required=False,
        label="I know these gifts were already shipped, and roll them back all the same.",
    )

    def clean_reason(self) -> str:
        try:
            return printable(self.cleaned_data["reason"])
        except ValueError as exc:
            raise forms.ValidationError(str(exc), code="not_printable") from None
