"""PAYMENT_PROVIDER and the Stripe configuration, read from the environment at start-up."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from checkout.payments import config
from tests import REPO_ROOT

PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "giftgenius.settings.production",
    "SECRET_KEY": "k" * 30 + "-Production-Secret-Key-With-Entropy-9f3b1c",
    "ALLOWED_HOSTS": "giftgenius.example.com",
}
STRIPE = {
    "PAYMENT_PROVIDER": "stripe",
    "STRIPE_API_KEY": "sk_test_settings",
    "STRIPE_WEBHOOK_SECRET": "whsec_settings",
}


def _check(extra: dict) -> subprocess.CompletedProcess:
    env = {**os.environ, **extra}
    for name in ("DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"):
        env.pop(name, None)
    for name in ("PAYMENT_PROVIDER", "STRIPE_API_KEY", "STRIPE_WEBHOOK_SECRET"):
        if name not in extra:
            env.pop(name, None)
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_names_select_the_provider_class():
    assert config.provider_path({}) == config.SIMULATOR
    assert config.provider_path({"PAYMENT_PROVIDER": "stripe"}) == config.STRIPE
    assert config.provider_path({"PAYMENT_PROVIDER": "tests.x.Provider"}) == "tests.x.Provider"
    with pytest.raises(ImproperlyConfigured, match="not a provider"):
        config.provider_path({"PAYMENT_PROVIDER": "stripey"})


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({}, "needs STRIPE_API_KEY and STRIPE_WEBHOOK_SECRET"),
        ({"STRIPE_API_KEY": "sk_test_1"}, "needs STRIPE_WEBHOOK_SECRET"),
        ({"STRIPE_API_KEY": "pk_test_1", "STRIPE_WEBHOOK_SECRET": "w"}, "secret or restricted"),
        (
            {"STRIPE_API_KEY": "sk_1", "STRIPE_WEBHOOK_SECRET": "w", "STRIPE_API_BASE": "ftp://x"},
            "http",
        ),
    ],
)
def test_a_missing_stripe_setting_is_named(environ, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        config.stripe_settings(environ, required=True)


def test_stripe_defaults_to_its_own_api():
    values = config.stripe_settings(
        {"STRIPE_API_KEY": "sk_test_1", "STRIPE_WEBHOOK_SECRET": "whsec_1"}, required=True
    )
    assert values["STRIPE_API_BASE"] == "https://api.stripe.com"


@pytest.mark.skipif(sys.platform != "linux", reason="subprocess environment is Linux-specific here")
def test_start_up_stops_with_one_line_when_stripe_is_not_configured():
    result = _check({"PAYMENT_PROVIDER": "stripe"})
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last == (
        "django.core.exceptions.ImproperlyConfigured: PAYMENT_PROVIDER=stripe needs "
        "STRIPE_API_KEY and STRIPE_WEBHOOK_SECRET in the environment."
    )


@pytest.mark.skipif(sys.platform != "linux", reason="subprocess environment is Linux-specific here")
def test_production_refuses_the_simulator_unless_allowed():
    refused = _check(PRODUCTION)
    assert refused.returncode != 0
    assert "will not take money through the payment simulator" in refused.stderr
    assert _check({**PRODUCTION, "PAYMENT_PROVIDER_ALLOW_SIMULATOR": "1"}).returncode == 0
    assert _check({**PRODUCTION, **STRIPE}).returncode == 0
