"""Admin for the gift domain: the catalog (stock changed by adding or removing units) and the
workflows (view only: steps change only through gifts.workflow)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from import_export.admin import ImportMixin

from gifts import services
from gifts.models import InterestTerm, Product, ProductTranslation, WorkflowContext
from gifts.product_feed.loading import (
    FeedCsvFormat,
    FeedJsonFormat,
    FeedJsonlFormat,
    ProductFeedResource,
)
from gifts.product_feed.reading import CSV_COLUMNS
from gifts.product_feed.schema import MAX_LISTED_PROBLEMS, FeedRefused
from tool_runtime.admin import UuidSearchMixin, ViewOnlyAdmin

IMPORT_COLUMNS = [*CSV_COLUMNS, "title:<language>", "description:<language>"]


class ProductChangeForm(forms.ModelForm):
    """The change form: `stock` is read-only (holds move it all the time); staff add or remove
    units instead, applied to the stock as it is at save time."""

    stock_change = forms.IntegerField(
        required=False,
        label="Add or remove stock",
        help_text=(
            "Units to add (e.g. 5) or remove (e.g. -2). Applied to the stock as it is when you "
            "save, so holds taken or released meanwhile are kept; removing more units than are "
            "available (not held by a reservation) is refused."
        ),
    )

    class Meta:
        model = Product
        fields = [
            f.name
            for f in Product._meta.concrete_fields
            if f.editable and not f.primary_key and f.name != "stock"
        ]

    def clean_stock_change(self) -> int:
        change = self.cleaned_data.get("stock_change") or 0
        available = Product.objects.values_list("stock", flat=True).get(pk=self.instance.pk)
        if available + change < 0:  # advisory; services.adjust_stock decides atomically
            raise forms.ValidationError(
                f"Only {available} unit(s) are available to remove; the rest are held by "
                "reservations."
            )
        return change


class ProductTranslationInline(admin.TabularInline):
    """The product's name and description per language; a language without a row shows the
    catalog's own text. Seen by shoppers within the catalog cache's lifetime."""

    model = ProductTranslation
    extra = 0
    fields = ["language", "name", "description"]


@admin.register(InterestTerm)
class InterestTermAdmin(admin.ModelAdmin):
    """The interest tags' labels and word forms per language: how a brief's interests in any
    language find the catalog's tags, and how reasons and tags read in each language."""

    list_display = ["tag", "language", "label", "forms"]
    list_filter = ["language"]
    search_fields = ["tag", "label"]
    list_per_page = 100


@admin.register(Product)
class ProductAdmin(ImportMixin, admin.ModelAdmin):
    """Products; "Import" loads a merchant's catalog from an ACP feed or CSV (preview, then
    confirm; one transaction; stock is never imported — docs/product-feed.md)."""

    inlines = [ProductTranslationInline]
    resource_classes = [ProductFeedResource]
    import_formats = [FeedJsonFormat, FeedCsvFormat, FeedJsonlFormat]
    import_template_name = "admin/gifts/product/import.html"
    list_display = ["sku", "name", "category", "price", "currency", "stock", "active"]
    list_filter = ["active", "category", "currency"]
    search_fields = ["sku", "name"]
    list_per_page = 50

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        # A new product has no holds yet: its first stock is typed in. After that, never.
        return ["stock"] if obj is not None else []

    def get_fields(self, request: HttpRequest, obj=None):
        fields = super().get_fields(request, obj)
        if obj is None:
            return fields
        fields = [name for name in fields if name != "stock"]
        at = fields.index("stock_change") if "stock_change" in fields else len(fields)
        return [*fields[:at], "stock", *fields[at:]]

    def get_form(self, request: HttpRequest, obj=None, change=False, **kwargs):
        if obj is not None:
            kwargs["form"] = ProductChangeForm
        return super().get_form(request, obj, change=change, **kwargs)

    def save_model(self, request: HttpRequest, obj: Product, form, change: bool) -> None:
        if not change:
            super().save_model(request, obj, form, change)
            return
        # Every column but stock: the instance's stock was read before this save and may be stale.
        obj.save(
            update_fields=[
                f.name
                for f in Product._meta.concrete_fields
                if not f.primary_key and f.name != "stock"
            ]
        )
        change_by = form.cleaned_data.get("stock_change") or 0
        if change_by:
            try:
                obj.stock = services.adjust_stock(product_id=obj.pk, change=change_by)
            except services.StockAdjustmentRefused as refused:
                self.message_user(
                    request,
                    f"Stock not changed: only {refused.available} unit(s) are available to "
                    "remove; the rest are held by reservations.",
                    messages.ERROR,
                )
            else:
                self.message_user(
                    request, f"Stock changed by {change_by:+d}; now {obj.stock}.", messages.SUCCESS
                )

    def has_import_permission(self, request: HttpRequest) -> bool:
        # An import creates and changes products: staff who may do both by hand.
        return self.has_add_permission(request) and self.has_change_permission(request)

    def add_data_read_fail_error_to_form(self, form, e: Exception) -> None:
        if isinstance(e, FeedRefused):
            for problem in e.problems[:MAX_LISTED_PROBLEMS]:
                form.add_error("import_file", str(problem))
            if len(e.problems) > MAX_LISTED_PROBLEMS:
                form.add_error(
                    "import_file", f"… and {len(e.problems) - MAX_LISTED_PROBLEMS} more problem(s)"
                )
            return
        super().add_data_read_fail_error_to_form(form, e)

    def import_action(self, request: HttpRequest, **kwargs):
        response = super().import_action(request, **kwargs)
        if isinstance(response, TemplateResponse) and "fields_list" in response.context_data:
            # What a file holds is the feed's CSV columns, not the model's fields.
            response.context_data["fields_list"] = [("", IMPORT_COLUMNS)]
        return response

    def process_import(self, request: HttpRequest, **kwargs):
        # The confirm step reads the stored file again; the shop may have changed since the
        # preview (e.g. its currencies). Then nothing is written and staff start over.
        try:
            return super().process_import(request, **kwargs)
        except FeedRefused as refused:
            stored = self.create_confirm_form(request)
            if stored.is_valid():  # the uploaded copy kept for the confirm step
                self.get_tmp_storage_class()(
                    name=stored.cleaned_data["import_file_name"],
                    **self.get_tmp_storage_class_kwargs(),
                ).remove()
            self.message_user(request, f"Nothing imported. {refused}", messages.ERROR)
            return HttpResponseRedirect(reverse("admin:gifts_product_import"))

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        # Order lines point at products; discontinue (active = False) instead of deleting.
        return False


@admin.register(WorkflowContext)
class WorkflowContextAdmin(UuidSearchMixin, ViewOnlyAdmin):
    list_display = ["id", "owner", "current_step", "created_at", "updated_at"]
    list_filter = ["current_step", "created_at"]
    search_fields = ["owner__username", "owner__email"]
    uuid_search_fields = ("id",)
    list_select_related = ["owner"]
    date_hierarchy = "created_at"
