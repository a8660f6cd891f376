"""The operations admin: pages render for staff only, checkout rows are view-only, audit is
append-only, and rollbacks (action and button) go through a reasoned, permissioned confirmation."""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.db.models import F
from django.test import Client, RequestFactory
from django.urls import reverse

from checkout import staff_rollback
from checkout.models import Order, OrderAuditEntry, OrderStatus, Payment, SagaStep
from gifts.models import Product, WorkflowContext
from gifts.services import StockAdjustmentRefused, adjust_stock
from tests.fixtures import draft_order, make_product
from tool_runtime.models import ApiToken, IdempotencyKey, ToolCallLog
from tool_runtime.principals import issue_api_token

pytestmark = pytest.mark.django_db(databases=["default", "payment_ledger"])

ROLLBACK_URL = "/admin/checkout/order/rollback/"
CHANGELIST = "/admin/checkout/order/"
OUR_APPS = {"tool_runtime", "gifts", "checkout", "widget", "giftgenius"}


def make_staff(username: str, *, rollback: bool = False):
    user = get_user_model().objects.create_user(
        username=username, password="pw-staff-123", is_staff=True
    )
    perms = Permission.objects.filter(
        content_type__app_label__in=OUR_APPS, codename__startswith="view_"
    )
    user.user_permissions.add(*perms)
    if rollback:
        user.user_permissions.add(Permission.objects.get(codename="rollback_order"))
    return user


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser(username="root", password="pw-root-123")


@pytest.fixture
def operator(db):
    """Staff with view permissions and the rollback permission."""
    return make_staff("operator", rollback=True)


@pytest.fixture
def viewer(db):
    """Staff who can look at everything but may not roll back."""
    return make_staff("viewer")


def an_order(owner, status: str = OrderStatus.COMPLETED, **fields) -> Order:
    return Order.objects.create(
        owner=owner,
        status=status,
        amount=Decimal("30.00"),
        currency="USD",
        payment_method_id="pm_card_visa",
        correlation_id=fields.pop("correlation_id", uuid.uuid4().hex),
        **fields,
    )


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


# --- pages render for staff, nobody else -------------------------------------------------------


@pytest.fixture
def some_rows(user):
    order = an_order(user)
    SagaStep.objects.create(order=order, step="charge_card", status="succeeded")
    Payment.objects.create(
        order=order, provider_idempotency_key=f"pay-{order.pk}", amount=order.amount, currency="USD"
    )
    WorkflowContext.objects.create(owner=user, visited_steps=["brief"])
    ToolCallLog.objects.create(tool="suggest_gifts", status="success", correlation_id="cid-123")
    issue_api_token(user=user)
    return order


def registered_models():
    return [model for model in admin.site._registry if model._meta.app_label in OUR_APPS]


def test_every_model_is_registered():
    names = {m._meta.model_name for m in registered_models()}
    assert {
        "order",
        "orderline",
        "reservation",
        "payment",
        "idempotencykey",
        "workflowcontext",
        "sagastep",
        "product",
        "apitoken",
        "toolcalllog",
        "orderauditentry",
    } <= names


@pytest.mark.parametrize("who", ["superuser", "viewer"])
def test_every_changelist_renders_for_staff(request, who, some_rows):
    client = client_for(request.getfixturevalue(who))
    for model in registered_models():
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        response = client.get(url)
        assert response.status_code == 200, url
    for model in admin.site._registry:  # Django's own (users, groups) too, for the superuser
        if who == "superuser":
            url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
            assert client.get(url).status_code == 200, url


def test_order_page_shows_lines_payments_and_saga_timeline(operator, some_rows):
    response = client_for(operator).get(reverse("admin:checkout_order_change", args=[some_rows.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Saga timeline" in html and "Charge card" in html
    assert f"pay-{some_rows.pk}" in html
    assert 'id="rollback-order"' in html
    assert f"{ROLLBACK_URL}?ids={some_rows.pk}" in html
    # View-only: no save buttons, no editable amount/status inputs.
    assert 'name="_save"' not in html
    assert 'name="amount"' not in html and 'name="status"' not in html


def test_order_page_hides_the_rollback_button_without_permission(viewer, some_rows):
    html = (
        client_for(viewer).get(reverse("admin:checkout_order_change", args=[some_rows.pk])).content
    )
    assert b'id="rollback-order"' not in html


@pytest.mark.parametrize("path", ["/admin/", CHANGELIST, "/admin/checkout/orderauditentry/"])
def test_anonymous_and_non_staff_are_kept_out(client, user, path):
    response = client.get(path)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    client.force_login(user)
    response = client.get(path)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_api_token_digest_is_never_shown(superuser, user):
    issue_api_token(user=user)
    token = ApiToken.objects.get(user=user)
    client = client_for(superuser)
    for url in [
        reverse("admin:tool_runtime_apitoken_changelist"),
        reverse("admin:tool_runtime_apitoken_change", args=[token.pk]),
    ]:
        html = client.get(url).content.decode()
        assert token.digest not in html
        assert token.prefix in html


def test_idempotency_key_page_hides_the_widget_meta(superuser, user):
    key = IdempotencyKey.objects.create(
        principal="alice",
        tool="prepare_order",
        key="k-123456789",
        fingerprint="f",
        status="completed",
        response_body='{"ok": true}',
        response_meta='{"confirmation_token": "secret-confirmation-token"}',
        expires_at="2099-01-01T00:00:00Z",
    )
    html = (
        client_for(superuser)
        .get(reverse("admin:tool_runtime_idempotencykey_change", args=[key.pk]))
        .content
    )
    assert b"secret-confirmation-token" not in html


def test_search_orders_by_id_correlation_id_and_user(operator, user, other_user):
    mine = an_order(user, correlation_id="corr-needle-1")
    theirs = an_order(other_user)
    client = client_for(operator)

    def found(term: str) -> set[str]:
        html = client.get(CHANGELIST, {"q": term}).content.decode()
        return {str(o.pk) for o in (mine, theirs) if str(o.pk) in html}

    assert found(str(theirs.pk)) == {str(theirs.pk)}
    assert found("corr-needle-1") == {str(mine.pk)}
    assert found("mallory") == {str(theirs.pk)}


def test_search_tool_calls_by_correlation_id(operator):
    ToolCallLog.objects.create(
        tool="get_order", status="failed", error_code="NOT_FOUND", correlation_id="needle-cid"
    )
    ToolCallLog.objects.create(tool="get_order", status="success", correlation_id="other-cid")
    html = (
        client_for(operator)
        .get("/admin/tool_runtime/toolcalllog/", {"q": "needle-cid"})
        .content.decode()
    )
    assert "needle-cid" in html and "other-cid" not in html


def test_checkout_rows_are_view_only_even_for_superusers(superuser, some_rows):
    client = client_for(superuser)
    request = RequestFactory().get("/")
    request.user = superuser
    for model in [
        Order,
        Payment,
        SagaStep,
        OrderAuditEntry,
        IdempotencyKey,
        ToolCallLog,
        WorkflowContext,
    ]:
        model_admin = admin.site._registry[model]
        assert not model_admin.has_add_permission(request)
        assert not model_admin.has_change_permission(request)
        assert not model_admin.has_delete_permission(request)
    order_admin = reverse("admin:checkout_order_change", args=[some_rows.pk])
    response = client.post(order_admin, {"status": "cancelled", "amount": "0.01"})
    assert response.status_code == 403
    some_rows.refresh_from_db()
    assert (some_rows.status, some_rows.amount) == ("completed", Decimal("30.00"))


def test_audit_entries_cannot_be_added_changed_or_deleted(superuser, user):
    order = an_order(user)
    entry = OrderAuditEntry.objects.create(
        actor=superuser, order=order, reason="why", outcome="rolled_back"
    )
    client = client_for(superuser)
    assert client.get("/admin/checkout/orderauditentry/add/").status_code == 403
    change_url = reverse("admin:checkout_orderauditentry_change", args=[entry.pk])
    assert client.get(change_url).status_code == 200  # viewable
    assert client.post(change_url, {"reason": "rewritten", "outcome": "refused"}).status_code == 403
    delete_url = reverse("admin:checkout_orderauditentry_delete", args=[entry.pk])
    assert client.post(delete_url, {"post": "yes"}).status_code == 403
    changelist = client.get("/admin/checkout/orderauditentry/").content.decode()
    assert "delete_selected" not in changelist
    entry.refresh_from_db()
    assert (entry.reason, entry.outcome) == ("why", "rolled_back")


# --- rollback flow against the compensation contract ------------------------------------------


@dataclass
class FakeOutcome:
    outcome: str
    detail: str


class FakeCompensation:
    """Stands in for staff_rollback.roll_back_order (one order's cancellation) to drive every branch
    of the admin flow."""

    def __init__(self, outcomes: dict[str, FakeOutcome | Exception]):
        self.outcomes = outcomes
        self.calls: list[dict] = []

    def roll_back_order(self, *, order_id, reason: str, actor: str, shipped_confirmed: bool):
        self.calls.append({"order_id": str(order_id), "reason": reason, "actor": actor})
        result = self.outcomes[str(order_id)]
        if isinstance(result, Exception):
            raise result
        return result


@pytest.fixture
def fake_compensation(monkeypatch):
    def install(outcomes):
        fake = FakeCompensation(outcomes)
        monkeypatch.setattr(staff_rollback, "roll_back_order", fake.roll_back_order)
        return fake

    return install


def test_action_asks_for_a_reason_then_reports_each_order(operator, user, fake_compensation):
    done, again, refused, broken = (an_order(user) for _ in range(4))
    fake = fake_compensation(
        {
            str(done.pk): FakeOutcome("rolled_back", "Refunded 30.00 USD, released 1 unit."),
            str(again.pk): FakeOutcome("already_rolled_back", "Already cancelled."),
            str(refused.pk): FakeOutcome("refused", "The saga is still running."),
            str(broken.pk): RuntimeError("db exploded at /srv/app.py line 3"),
        }
    )
    client = client_for(operator)
    ids = [str(o.pk) for o in (done, again, refused, broken)]
    confirmation = client.post(CHANGELIST, {"action": "rollback_orders", "_selected_action": ids})
    assert confirmation.status_code == 200
    html = confirmation.content.decode()
    assert 'name="reason"' in html and all(i in html for i in ids)
    assert fake.calls == []  # nothing happens before the confirmation

    response = client.post(ROLLBACK_URL, {"orders": ids, "reason": "  Customer called support  "})
    assert response.status_code == 302 and response["Location"] == CHANGELIST
    assert {c["order_id"] for c in fake.calls} == set(ids)
    assert {c["reason"] for c in fake.calls} == {"Customer called support"}
    assert {c["actor"] for c in fake.calls} == {"operator"}
    text = "\n".join(messages_of(response))
    assert f"Order {done.pk} rolled back: Refunded 30.00 USD" in text
    assert f"Order {again.pk} already rolled back" in text
    assert f"Order {refused.pk} refused: The saga is still running." in text
    assert f"Order {broken.pk} failed: Unexpected error" in text
    assert "/srv/app.py" not in text and "RuntimeError" not in text
    audit = {str(e.order_id): e for e in OrderAuditEntry.objects.all()}
    assert {k: v.outcome for k, v in audit.items()} == {
        str(done.pk): "rolled_back",
        str(again.pk): "already_rolled_back",
        str(refused.pk): "refused",
        str(broken.pk): "error",
    }
    assert all(
        e.actor == operator and e.reason == "Customer called support" for e in audit.values()
    )


def test_button_confirmation_returns_to_the_order(operator, user, fake_compensation):
    order = an_order(user)
    fake_compensation({str(order.pk): FakeOutcome("rolled_back", "done")})
    client = client_for(operator)
    page = client.get(ROLLBACK_URL, {"ids": str(order.pk)})
    assert page.status_code == 200 and str(order.pk) in page.content.decode()
    response = client.post(ROLLBACK_URL, {"orders": [str(order.pk)], "reason": "fraud check"})
    assert response["Location"] == reverse("admin:checkout_order_change", args=[order.pk])


@pytest.mark.parametrize("reason", ["", "   "])
def test_reason_is_required(operator, user, fake_compensation, reason):
    order = an_order(user)
    fake = fake_compensation({str(order.pk): FakeOutcome("rolled_back", "")})
    response = client_for(operator).post(
        ROLLBACK_URL, {"orders": [str(order.pk)], "reason": reason}
    )
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert fake.calls == [] and not OrderAuditEntry.objects.exists()


def test_unknown_or_malformed_order_ids_are_rejected(operator, fake_compensation):
    fake = fake_compensation({})
    client = client_for(operator)
    response = client.post(ROLLBACK_URL, {"orders": ["not-a-uuid"], "reason": "x"})
    assert response.status_code == 200 and fake.calls == []
    response = client.post(ROLLBACK_URL, {"orders": [str(uuid.uuid4())], "reason": "x"})
    assert response.status_code == 200 and fake.calls == []
    empty = client.get(ROLLBACK_URL, {"ids": "nope"})
    assert empty.status_code == 302


def test_without_the_permission_there_is_no_action_and_posting_is_forbidden(
    viewer, user, fake_compensation
):
    order = an_order(user)
    fake = fake_compensation({str(order.pk): FakeOutcome("rolled_back", "")})
    client = client_for(viewer)
    changelist = client.get(CHANGELIST).content.decode()
    assert "rollback_orders" not in changelist
    assert client.get(ROLLBACK_URL, {"ids": str(order.pk)}).status_code == 403
    assert client.post(ROLLBACK_URL, {"orders": [str(order.pk)], "reason": "x"}).status_code == 403
    # The changelist refuses the action name too (Django only runs permitted actions).
    client.post(CHANGELIST, {"action": "rollback_orders", "_selected_action": [str(order.pk)]})
    assert fake.calls == [] and not OrderAuditEntry.objects.exists()


def test_permitted_operator_sees_the_action(operator, user):
    an_order(user)  # Django shows actions only when there are rows
    assert 'value="rollback_orders"' in client_for(operator).get(CHANGELIST).content.decode()


def test_rollback_needs_a_csrf_token(operator, user, fake_compensation):
    order = an_order(user)
    fake = fake_compensation({str(order.pk): FakeOutcome("rolled_back", "")})
    client = Client(enforce_csrf_checks=True)
    client.force_login(operator)
    response = client.post(ROLLBACK_URL, {"orders": [str(order.pk)], "reason": "x"})
    assert response.status_code == 403 and fake.calls == []


def test_confirmation_page_has_no_inline_script_or_style(operator, user, fake_compensation):
    order = an_order(user)
    html = client_for(operator).get(ROLLBACK_URL, {"ids": str(order.pk)}).content.decode()
    assert not re.search(r"\sstyle=", html) and "<style" not in html
    assert not re.search(r"<script(?![^>]*\ssrc=)", html)


# --- product stock: never overwritten by a form, changed by adding or removing units ----------


def product_form(product, **changes) -> dict:
    """The product change form as a browser posts it (with the values it showed)."""
    data = {
        "sku": product.sku,
        "name": product.name,
        "description": product.description,
        "category": product.category,
        "tags": json.dumps(product.tags),
        "price": str(product.price),
        "currency": product.currency,
        "stock": str(product.stock),
        "max_per_order": str(product.max_per_order),
        "active": "on",
        "age_min": str(product.age_min),
        "age_max": str(product.age_max),
        "image": product.image,
        "image_width": str(product.image_width),
        "image_height": str(product.image_height),
        "image_alt": product.image_alt,
        "family": product.family,
        # The translations inline's management form, with no rows changed.
        "translations-TOTAL_FORMS": "0",
        "translations-INITIAL_FORMS": "0",
        "_save": "Save",
    }
    data.update(changes)
    return data


def product_change_url(product) -> str:
    return reverse("admin:gifts_product_change", args=[product.pk])


def test_saving_a_product_keeps_stock_reserved_meanwhile(superuser):
    product = make_product(stock=20)
    client = client_for(superuser)
    assert client.get(product_change_url(product)).status_code == 200
    form = product_form(product, price="23.99")  # the form as opened, stock 20
    Product.objects.filter(pk=product.pk).update(stock=F("stock") - 3)  # three holds meanwhile

    response = client.post(product_change_url(product), form)

    assert response.status_code == 302
    product.refresh_from_db()
    assert (product.stock, product.price) == (17, Decimal("23.99"))


def test_stock_change_is_added_to_the_stock_as_it_is_at_save(superuser):
    product = make_product(stock=20)
    form = product_form(product, stock_change="5")
    Product.objects.filter(pk=product.pk).update(stock=F("stock") - 3)

    response = client_for(superuser).post(product_change_url(product), form)

    assert response.status_code == 302
    product.refresh_from_db()
    assert product.stock == 22
    assert "Stock changed by +5; now 22." in messages_of(response)


def test_removing_more_than_is_available_is_refused(superuser):
    product = make_product(stock=2)

    response = client_for(superuser).post(
        product_change_url(product), product_form(product, stock_change="-3")
    )

    assert response.status_code == 200  # the form again, with the error
    assert "Only 2 unit(s) are available to remove" in response.content.decode()
    product.refresh_from_db()
    assert product.stock == 2


def test_adjust_stock_is_one_conditional_update():
    product = make_product(stock=3)
    assert adjust_stock(product_id=product.pk, change=-3) == 0
    with pytest.raises(StockAdjustmentRefused):
        adjust_stock(product_id=product.pk, change=-1)  # held units are never taken back
    assert adjust_stock(product_id=product.pk, change=4) == 4


def test_a_stale_product_instance_never_writes_stock(superuser):
    """The admin reads the row, then saves it: a hold between the two must survive."""
    product = make_product(stock=20)
    model_admin = admin.site._registry[Product]
    request = RequestFactory().post("/")
    request.user = superuser
    stale = Product.objects.get(pk=product.pk)
    Product.objects.filter(pk=product.pk).update(stock=F("stock") - 1)
    stale.name = "Renamed grinder"
    form = model_admin.get_form(request, stale, change=True)(
        product_form(stale, name="Renamed grinder"), instance=stale
    )
    assert form.is_valid(), form.errors

    model_admin.save_model(request, stale, form, change=True)

    product.refresh_from_db()
    assert (product.stock, product.name) == (19, "Renamed grinder")


def test_a_new_product_is_given_its_first_stock(superuser):
    response = client_for(superuser).post(
        reverse("admin:gifts_product_add"),
        product_form(
            Product(
                sku="GG-NEW-1",
                name="New",
                description="d",
                category="kitchen",
                tags=["x"],
                price=Decimal("9.00"),
                stock=7,
            )
        ),
    )
    assert response.status_code == 302
    assert Product.objects.get(sku="GG-NEW-1").stock == 7


# --- API tokens: revoking is confirmed first, and is for good ----------------------------------

TOKENS = "/admin/tool_runtime/apitoken/"


def test_revoke_action_asks_for_confirmation_first(superuser, user):
    issue_api_token(user=user)
    token = ApiToken.objects.get(user=user)
    client = client_for(superuser)
    chosen = {"action": "revoke_tokens", "_selected_action": [token.pk]}

    page = client.post(TOKENS, chosen)

    assert page.status_code == 200
    html = page.content.decode()
    assert "Revoking is permanent" in html and f"{token.prefix}…" in html
    assert 'name="post" value="yes"' in html
    token.refresh_from_db()
    assert token.revoked is False  # nothing happened yet

    done = client.post(TOKENS, {**chosen, "post": "yes"})

    assert done.status_code == 302
    token.refresh_from_db()
    assert token.revoked is True
    assert "Revoked 1 token(s)." in messages_of(done)


def test_revoke_confirmation_has_no_inline_script_or_style(superuser, user):
    issue_api_token(user=user)
    token = ApiToken.objects.get(user=user)
    html = (
        client_for(superuser)
        .post(TOKENS, {"action": "revoke_tokens", "_selected_action": [token.pk]})
        .content.decode()
    )
    assert not re.search(r"\sstyle=", html) and "<style" not in html
    assert not re.search(r"<script(?![^>]*\ssrc=)", html)


def test_a_revoked_token_cannot_be_unrevoked(superuser, user):
    issue_api_token(user=user)
    token = ApiToken.objects.get(user=user)
    ApiToken.objects.filter(pk=token.pk).update(revoked=True)
    url = reverse("admin:tool_runtime_apitoken_change", args=[token.pk])
    client = client_for(superuser)

    assert 'name="revoked"' not in client.get(url).content.decode()  # shown, not editable
    response = client.post(url, {"_save": "Save"})  # "revoked" unticked, as a stale form sends

    assert response.status_code == 302
    token.refresh_from_db()
    assert token.revoked is True


def test_ticking_revoked_on_the_change_form_revokes(superuser, user):
    issue_api_token(user=user)
    token = ApiToken.objects.get(user=user)
    url = reverse("admin:tool_runtime_apitoken_change", args=[token.pk])

    response = client_for(superuser).post(url, {"revoked": "on", "_save": "Save"})

    assert response.status_code == 302
    token.refresh_from_db()
    assert token.revoked is True


# --- detail pages show the row's id and times ---------------------------------------------------


def readonly_values(html: str) -> dict[str, str]:
    """field name → the text shown for it on a view-only detail page."""
    rows = re.findall(
        r'<div class="form-row field-([a-z_]+)">.*?<div class="readonly">(.*?)</div>', html, re.S
    )
    return {name: re.sub(r"<[^>]+>", "", value).strip() for name, value in rows}


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("order", ["id", "created_at", "updated_at"]),
        ("payment", ["id", "created_at", "updated_at"]),
        ("orderauditentry", ["id", "created_at"]),
    ],
)
def test_detail_pages_show_id_and_times(operator, user, model, expected):
    order = an_order(user)
    rows = {
        "order": order,
        "payment": Payment.objects.create(
            order=order, provider_idempotency_key="pay-1", amount=order.amount, currency="USD"
        ),
        "orderauditentry": OrderAuditEntry.objects.create(
            actor=operator, order=order, reason="phone", outcome="rolled_back"
        ),
    }
    row = rows[model]
    html = client_for(operator).get(f"/admin/checkout/{model}/{row.pk}/change/").content.decode()

    shown = readonly_values(html)

    assert [name for name in shown if name in expected] == expected  # id first, times last
    assert shown["id"] == str(row.pk)
    assert all(shown[name] and shown[name] != "-" for name in expected), shown


# --- a tool call's correlation id finds its order -----------------------------------------------


def test_a_failed_commits_correlation_id_finds_the_order(operator, api, demo_catalog):
    placed = draft_order(api, payment_method_id="pm_card_declined")
    failed = placed.commit(api)
    assert failed.status != 200
    commit_cid = ToolCallLog.objects.get(tool="commit_order").correlation_id
    assert commit_cid and commit_cid != Order.objects.get(pk=placed.order_id).correlation_id
    client = client_for(operator)

    orders = client.get(CHANGELIST, {"q": commit_cid}).content.decode()
    steps = client.get("/admin/checkout/sagastep/", {"q": commit_cid}).content.decode()

    assert placed.order_id in orders
    assert SagaStep.objects.filter(order_id=placed.order_id, correlation_id=commit_cid).exists()
    assert commit_cid in steps


def test_the_tool_call_log_links_the_workflow_and_the_orders(operator, api, demo_catalog):
    placed = draft_order(api, payment_method_id="pm_card_declined")
    placed.commit(api)
    call = ToolCallLog.objects.get(tool="commit_order")

    html = client_for(operator).get("/admin/tool_runtime/toolcalllog/").content.decode()

    workflow_url = reverse("admin:gifts_workflowcontext_change", args=[placed.workflow_id])
    assert f'<a href="{workflow_url}">{placed.workflow_id}</a>' in html
    assert f'<a href="{CHANGELIST}?q={call.correlation_id}">orders</a>' in html


# --- times are shown to the second, with their zone, in every language --------------------------


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_admin_times_show_seconds_and_zone_in_every_language(operator, user, language):
    created = datetime(2026, 5, 4, 13, 7, 42, tzinfo=UTC)
    order = an_order(user, created_at=created)
    SagaStep.objects.create(order=order, step="charge_card", status="succeeded", started_at=created)
    html = (
        client_for(operator)
        .get(f"/admin/checkout/order/{order.pk}/change/", HTTP_ACCEPT_LANGUAGE=language)
        .content.decode()
    )

    assert readonly_values(html)["created_at"] == "2026-05-04 13:07:42 UTC"
    assert html.count("2026-05-04 13:07:42 UTC") >= 2  # the saga timeline's step too


# Every list page with a filter, and the value each filter is sent.
FILTERED_LISTS = [
    (model, field)
    for model, model_admin in admin.site._registry.items()
    for field in model_admin.list_filter
    if isinstance(field, str)
]


@pytest.mark.parametrize("char", ["\x00", "\u202e", "\x85"], ids=["nul", "bidi", "c1"])
def test_every_admin_list_filter_refuses_unprintable_text_with_a_400(superuser, char):
    """On PostgreSQL a NUL in a list filter (`?status__exact=%00`) was a 500 on every list
    page with a filter, the libraries' included."""
    client = client_for(superuser)
    client.raise_request_exception = False
    assert len(FILTERED_LISTS) >= 9
    for model, field in FILTERED_LISTS:
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for query in ({f"{field}__exact": f"x{char}"}, {"q": char}, {f"{field}{char}": "x"}):
            response = client.get(url, query)
            assert response.status_code == 400, (url, query, response.status_code)
            assert "not allowed in text" in response.content.decode()


def test_an_admin_list_filter_of_printable_text_still_filters(superuser):
    response = client_for(superuser).get(
        reverse("admin:checkout_order_changelist"), {"status__exact": "draft", "q": "Zoë 🎁"}
    )
    assert response.status_code == 200
