"""Which payment provider runs, read from the environment by the settings modules.

`PAYMENT_PROVIDER` names a provider ("simulator", the default, or "stripe") or is the dotted path
of a provider class. Stripe needs STRIPE_API_KEY and STRIPE_WEBHOOK_SECRET (STRIPE_API_BASE
defaults to Stripe's own API); a missing one stops start-up with one line that names it.
Production refuses the simulator unless PAYMENT_PROVIDER_ALLOW_SIMULATOR=1 (a demo deployment).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured

SIMULATOR = "checkout.payments.simulator.SimulatedProvider"
STRIPE = "checkout.payments.stripe_provider.StripeProvider"
PROVIDERS = {"simulator": SIMULATOR, "stripe": STRIPE}
STRIPE_DEFAULT_API_BASE = "https://api.stripe.com"


def provider_path(environ: Mapping[str, str]) -> str:
    name = (environ.get("PAYMENT_PROVIDER") or "simulator").strip()
    if name in PROVIDERS:
        return PROVIDERS[name]
    if "." not in name:
        raise ImproperlyConfigured(
            f"PAYMENT_PROVIDER={name!r} is not a provider: use one of {', '.join(PROVIDERS)}."
        )
    return name


def stripe_settings(environ: Mapping[str, str], *, required: bool) -> dict[str, str]:
    """STRIPE_* from the environment; with `required`, a missing or malformed one raises."""
    values = {
        "STRIPE_API_KEY": environ.get("STRIPE_API_KEY", "").strip(),
        "STRIPE_WEBHOOK_SECRET": environ.get("STRIPE_WEBHOOK_SECRET", "").strip(),
        "STRIPE_API_BASE": (environ.get("STRIPE_API_BASE", "").strip() or STRIPE_DEFAULT_API_BASE),
    }
    if required:
        missing = [n for n in ("STRIPE_API_KEY", "STRIPE_WEBHOOK_SECRET") if not values[n]]
        if missing:
            raise ImproperlyConfigured(
                f"PAYMENT_PROVIDER=stripe needs {' and '.join(missing)} in the environment."
            )
        if not values["STRIPE_API_KEY"].startswith(("sk_", "rk_")):
            raise ImproperlyConfigured(
                "STRIPE_API_KEY must be a secret or restricted key (sk_… or rk_…)."
            )
        if not values["STRIPE_API_BASE"].startswith(("https://", "http://")):
            raise ImproperlyConfigured("STRIPE_API_BASE must be an http(s) URL.")
    return values


def refuse_simulator_in_production(path: str, environ: Mapping[str, str]) -> None:
    if path == SIMULATOR and environ.get("PAYMENT_PROVIDER_ALLOW_SIMULATOR") != "1":
        raise ImproperlyConfigured(
            "Production will not take money through the payment simulator: set "
            "PAYMENT_PROVIDER=stripe (or PAYMENT_PROVIDER_ALLOW_SIMULATOR=1 for a demo)."
        )
