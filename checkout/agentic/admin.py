"""Staff's view of agents' checkout sessions and the guest buyers they bought for (read only:
what an agent and its buyer sent is a record, not something staff edit)."""

from __future__ import annotations

from django.contrib import admin

from checkout.models import CheckoutSession, GuestBuyer
from tool_runtime.admin import ViewOnlyAdmin


@admin.register(CheckoutSession)
class CheckoutSessionAdmin(ViewOnlyAdmin):
    list_display = ["id", "owner", "buyer", "canceled", "created_at"]
    list_filter = ["canceled", "created_at"]
    search_fields = ["id", "owner__username", "buyer__email"]
    list_select_related = ["owner", "buyer"]


@admin.register(GuestBuyer)
class GuestBuyerAdmin(ViewOnlyAdmin):
    list_display = ["email", "first_name", "last_name", "phone_number", "created_at"]
    search_fields = ["email", "first_name", "last_name"]
