"""Receipts: one confirmation e-mail per completed order, sent by the sweeps through Django's
e-mail framework (the locmem backend here), in the person's language; the receipt page its
link opens; the staff's resend and revoke.

Nothing is mocked: the order is bought through the tools, the e-mail goes through the outbox
and Django's backend, and a failing SMTP server is a real refused connection."""

from __future__ import annotations

import re
import socket
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.test import Client
from django.utils import timezone

from checkout import outbox, receipts
from checkout.models import OrderAuditEntry, OutboxMessage, OutboxStatus, StaffAction
from checkout.sweeps import run_sweeps
from tests.fixtures import BOTH_DATABASES, cancel, commit, draft_order, order_of, paid_order

pytestmark = [
    pytest.mark.django_db(databases=BOTH_DATABASES),
    pytest.mark.usefixtures("demo_catalog"),
]

LANGUAGES = {
    # language: (words of the greeting, the total's label, how a price is written)
    "en": ("Thank you for your order", "Total", "$"),
    "pl": ("Dziękujemy za zamówienie", "Razem", "USD"),
    "uk": ("Дякуємо за замовлення", "Разом", "USD"),
    "ru": ("Спасибо за заказ", "Итого", "$"),
    "zh-hans": ("感谢您在", "合计", "US$"),
}


@pytest.fixture(autouse=True)
def shopper_email(user):
    user.email = "alice@example.com"
    user.save(update_fields=["email"])


def receipt_messages():
    return OutboxMessage.objects.filter(kind=receipts.RECEIPT_KIND)


def bought(api, *, language: str = "en"):
    """A completed order, confirmed by a person whose widget speaks `language`."""
    placed = draft_order(api)
    placed.committed = commit(
        api,
        placed.workflow_id,
        placed.order_id,
        placed.confirmation_token,
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert placed.committed.body["status"] == "completed", placed.committed.body
    return placed


def receipt_link(text: str) -> str:
    return re.search(r"https?://\S+/receipts/[\w-]+/", text).group(0)


# --- exactly one e-mail ----------------------------------------------------------------------


def test_completion_queues_one_receipt_and_the_sweeps_send_it_once(api):
    placed = paid_order(api)
    order = order_of(placed.order_id)
    [message] = receipt_messages()
    assert (message.status, message.order_id) == (OutboxStatus.PENDING, order.pk)
    assert mail.outbox == []  # sent by the sweeps, not by the request

    assert run_sweeps().outbox_delivered == 1
    run_sweeps()
    run_sweeps()

    [email] = mail.outbox
    assert email.to == ["alice@example.com"]
    body = email.body
    line = order.lines.get()
    assert line.name in body and f"{line.quantity} \u00d7" in body
    assert "Total" in body and f"${order.amount}" in body
    assert receipts_ref(order) in email.subject
    assert receipt_link(body).endswith(f"/receipts/{order.receipt_key}/")
    assert str(order.pk) not in body  # the link carries its own key, not the order id
    html = email.alternatives[0][0]
    assert f"/receipts/{order.receipt_key}/" in html and "<script" not in html
    message.refresh_from_db()
    assert message.status == OutboxStatus.DELIVERED and message.attempts == 1


def receipts_ref(order) -> str:
    return str(order.pk).split("-")[0].upper()


def test_an_order_that_does_not_complete_queues_no_receipt(api):
    placed = draft_order(api, payment_method_id="pm_card_declined")
    response = placed.commit(api)
    assert response.body["error"]["code"] == "CARD_DECLINED"
    run_sweeps()
    assert not receipt_messages().exists() and mail.outbox == []
    assert order_of(placed.order_id).receipt_key == ""


def test_a_try_that_died_after_its_claim_sends_later_never_twice(api, settings):
    """The process claimed the try (the attempt is counted) and died before sending: nothing
    goes out until the backoff has passed, then exactly one e-mail."""
    settings.OUTBOX_RETRY_BASE_SECONDS = 30
    paid_order(api)
    [message] = receipt_messages()
    now = timezone.now()
    OutboxMessage.objects.filter(pk=message.pk).update(
        attempts=1, next_attempt_at=now + outbox.backoff(1)
    )

    assert outbox.deliver_due(now=now).delivered == 0
    assert mail.outbox == []
    assert outbox.deliver_due(now=now + timedelta(seconds=31)).delivered == 1
    assert outbox.deliver_due(now=now + timedelta(days=1)).delivered == 0
    assert len(mail.outbox) == 1


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed again when the block ends: connections refused


def test_a_mail_server_that_refuses_is_retried_then_sends_once(api, settings):
    paid_order(api)
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = (
        "127.0.0.1",
        _closed_port(),
        2,
    )

    assert run_sweeps().outbox_delivered == 0
    [message] = receipt_messages()
    assert message.status == OutboxStatus.PENDING
    assert message.last_error.startswith("ConnectionRefusedError")

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert outbox.deliver_due(now=message.next_attempt_at).delivered == 1
    assert outbox.deliver_due(now=timezone.now() + timedelta(days=1)).delivered == 0
    assert len(mail.outbox) == 1


def test_a_customer_without_an_address_is_recorded_not_retried(api, user):
    user.email = ""
    user.save(update_fields=["email"])
    paid_order(api)
    run_sweeps()
    [message] = receipt_messages()
    assert message.status == OutboxStatus.DELIVERED and "no e-mail address" in message.outcome
    assert mail.outbox == []


def test_an_order_cancelled_before_its_receipt_went_out_gets_no_confirmation(api):
    placed = paid_order(api)
    assert cancel(api, placed.order_id).body["status"] == "cancelled"
    run_sweeps()
    [message] = receipt_messages()
    assert message.status == OutboxStatus.DELIVERED and "no receipt was sent" in message.outcome
    assert mail.outbox == []  # never "your order is confirmed" for an order they cancelled


# --- in the person's language ---------------------------------------------------------------


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_receipt_is_written_in_the_persons_language(api, language):
    placed = bought(api, language=language)
    order = order_of(placed.order_id)
    assert order.locale == language
    run_sweeps()

    [email] = mail.outbox
    greeting, total_label, currency_mark = LANGUAGES[language]
    assert greeting in email.body, email.body
    assert f"{total_label}:" in email.body
    total_line = next(line for line in email.body.splitlines() if line.startswith(total_label))
    assert currency_mark in total_line
    # The shop's zone, named.
    assert "(Europe/Warsaw)" in email.body
    if language != "en":
        assert "Thank you" not in email.body and "Total:" not in email.body
    assert order.lines.get().name in email.body


# --- the receipt page -----------------------------------------------------------------------


def test_the_receipt_page_opens_by_its_key_only_server_rendered_without_script(api):
    placed = paid_order(api)
    order = order_of(placed.order_id)
    page = Client().get(f"/receipts/{order.receipt_key}/")

    assert page.status_code == 200
    html = page.content.decode()
    assert order.lines.get().name in html and receipts_ref(order) in html
    assert "<script" not in html and "style=" not in html
    policy = page["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert page["Referrer-Policy"] == "no-referrer" and "noindex" in page["X-Robots-Tag"]
    assert Client().get(f"/receipts/{order.pk}/").status_code == 404
    assert Client().get("/receipts/not-a-key/").status_code == 404


def test_the_key_reaches_the_widget_meta_but_never_the_model(api):
    placed = paid_order(api)
    order = order_of(placed.order_id)
    body = placed.committed.body
    assert body["_meta"]["receipt_key"] == order.receipt_key
    visible = {key: value for key, value in body.items() if key != "_meta"}
    assert order.receipt_key not in str(visible)
    status = api.call("get_order", {"order_id": placed.order_id})
    assert order.receipt_key not in str({k: v for k, v in status.body.items() if k != "_meta"})


# --- staff: resend and revoke ----------------------------------------------------------------


@pytest.fixture
def support(db, django_user_model):
    user = django_user_model.objects.create_user(
        username="support", password="pw-support-1", is_staff=True
    )
    user.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="checkout", codename__startswith="view_"
        ),
        Permission.objects.get(codename="resend_receipt"),
    )
    client = Client()
    client.force_login(user)
    return user, client


def test_staff_resend_sends_one_more_copy_only_on_that_action_audited(api, support):
    actor, client = support
    placed = paid_order(api)
    run_sweeps()
    assert len(mail.outbox) == 1

    response = client.post(
        "/admin/checkout/order/",
        {"action": "resend_receipts", "_selected_action": [placed.order_id]},
        follow=True,
    )
    assert "A copy will be sent" in response.content.decode()
    run_sweeps()
    run_sweeps()

    assert len(mail.outbox) == 2
    assert mail.outbox[1].extra_headers["Message-ID"] != mail.outbox[0].extra_headers["Message-ID"]
    [entry] = OrderAuditEntry.objects.filter(action=StaffAction.RESEND_RECEIPT)
    assert (entry.actor, str(entry.order_id), entry.outcome) == (actor, placed.order_id, "done")


def test_resend_is_refused_for_an_order_that_did_not_complete(api, support):
    actor, _ = support
    placed = draft_order(api)
    [report] = receipts.resend_receipts(order_ids=[placed.order_id], actor=actor, reason="asked")
    assert report.outcome == "refused"
    run_sweeps()
    assert mail.outbox == []
    assert OrderAuditEntry.objects.get().outcome == "refused"


def test_a_revoked_link_stops_working_and_a_new_one_is_sent_on_resend(api, support):
    actor, client = support
    placed = paid_order(api)
    old_key = order_of(placed.order_id).receipt_key
    run_sweeps()

    client.post(
        "/admin/checkout/order/",
        {"action": "revoke_receipt_links", "_selected_action": [placed.order_id]},
    )

    new_key = order_of(placed.order_id).receipt_key
    assert new_key and new_key != old_key
    assert Client().get(f"/receipts/{old_key}/").status_code == 404
    assert Client().get(f"/receipts/{new_key}/").status_code == 200
    assert len(mail.outbox) == 1  # revoking sends nothing by itself
    receipts.resend_receipts(order_ids=[placed.order_id], actor=actor, reason="new link")
    run_sweeps()
    assert receipt_link(mail.outbox[1].body).endswith(f"/receipts/{new_key}/")
    actions = set(OrderAuditEntry.objects.values_list("action", flat=True))
    assert actions == {StaffAction.REVOKE_RECEIPT_LINK, StaffAction.RESEND_RECEIPT}
