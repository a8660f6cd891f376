"""The preview's test Shared Payment Token (its emulated ChatGPT payment sheet pays with it):
staff only, with CSRF, the Stripe provider with a test key only."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db
URL = "/preview/payment-token/"
BODY = json.dumps({"amount": 3000, "currency": "usd"})


def _client(*, staff: bool, csrf_checks: bool = False) -> Client:
    user = get_user_model().objects.create_user("qa", "qa@example.com", "pw-qa-12345")
    user.is_staff = staff
    user.save()
    client = Client(SERVER_NAME="127.0.0.1", enforce_csrf_checks=csrf_checks)
    client.force_login(user)
    return client


def test_staff_get_a_token_from_stripes_test_helper(stripe_provider):
    answer = _client(staff=True).post(URL, BODY, content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["token"].startswith("spt_")


def test_refused_without_csrf_to_anyone_not_staff_and_without_stripe(settings, stripe_provider):
    assert (
        _client(staff=True, csrf_checks=True)
        .post(URL, BODY, content_type="application/json")
        .status_code
        == 403
    )
    get_user_model().objects.all().delete()
    assert _client(staff=False).post(URL, BODY, content_type="application/json").status_code in (
        302,
        403,
    )
    get_user_model().objects.all().delete()
    staff = _client(staff=True)
    assert staff.post(URL, "{}", content_type="application/json").status_code == 400
    settings.STRIPE_API_KEY = "sk_live_not_here"
    live = staff.post(URL, BODY, content_type="application/json")
    assert live.status_code == 409 and "test key" in live.json()["error"]
    settings.PAYMENT_PROVIDER = "checkout.payments.simulator.SimulatedProvider"
    assert staff.post(URL, BODY, content_type="application/json").status_code == 409
