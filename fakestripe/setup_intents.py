"""SetupIntents as Stripe has them: confirming one attaches its card to the customer (localstripe
1.15.10 did not) and marks the card set up for off-session use; a card that needs 3-D Secure
`requires_action` first (`redirect_to_url` with a `return_url`, else `use_stripe_sdk`), completed
or failed with `POST /v1/setup_intents/{id}/_authenticate` or the hosted test page; a declined
card leaves the intent `requires_payment_method` with `last_setup_error`.
"""

from __future__ import annotations

from typing import Any

from localstripe import resources
from localstripe.errors import UserError

from fakestripe.core import card_error
from fakestripe.intents import (
    attach,
    find_method,
    method_from_data,
    needs_authentication,
    next_action,
)
from fakestripe.stock import as_bool, emit, replace_api, route

SetupIntent = resources.SetupIntent


def create_setup(
    cls,
    confirm=None,
    payment_method=None,
    payment_method_data=None,
    return_url=None,
    description=None,
    allowed_payment_method_types=None,
    use_stripe_sdk=None,
    **data,
):
    confirm = as_bool(confirm, "confirm")
    intent = cls(payment_method_types=allowed_payment_method_types, **data)
    intent.description = description
    intent.last_setup_error = None
    intent._return_url = return_url
    if payment_method is not None:
        intent.payment_method = find_method(payment_method).id
        intent.status = "requires_confirmation"
    if payment_method_data is not None:
        intent.payment_method = method_from_data(payment_method_data)[0].id
        intent.status = "requires_confirmation"
    if confirm:
        confirm_setup(cls, intent.id)
    return intent


def confirm_setup(
    cls,
    id,
    payment_method=None,
    payment_method_data=None,
    return_url=None,
    client_secret=None,
    use_stripe_sdk=None,
    **kwargs,
):
    if kwargs:
        raise UserError(400, "Unexpected " + ", ".join(kwargs.keys()))
    intent = cls._api_retrieve(id)
    if client_secret is not None and client_secret != intent.client_secret:
        raise UserError(401, "Unauthorized")
    if intent.status not in ("requires_payment_method", "requires_confirmation"):
        raise UserError(
            400,
            f"You cannot confirm this SetupIntent because it has a status of {intent.status}.",
            {"code": "setup_intent_unexpected_state"},
        )
    if payment_method_data is not None:
        payment_method = method_from_data(payment_method_data)[0].id
    if payment_method is not None:
        intent.payment_method = find_method(payment_method).id
    if intent.payment_method is None:
        raise UserError(
            400,
            "A payment method is required to confirm this SetupIntent.",
            {"code": "setup_intent_unexpected_state"},
        )
    if return_url is not None:
        intent._return_url = return_url
    intent.last_setup_error = None
    method = find_method(intent.payment_method)
    if method._attaching_is_declined():
        intent.last_setup_error = {
            "type": "card_error",
            "code": "card_declined",
            "decline_code": "generic_decline",
            "message": "Your card was declined.",
            "payment_method": method._export(),
        }
        intent.payment_method = None
        intent.status = "requires_payment_method"
        emit("setup_intent.setup_failed", intent)
        raise card_error(
            402,
            "Your card was declined.",
            code="card_declined",
            decline_code="generic_decline",
            setup_intent=intent._export(),
        )
    if needs_authentication(method, off_session=False):
        intent.status = "requires_action"
        intent.next_action = next_action(intent, "setup_intents")
        emit("setup_intent.requires_action", intent)
        return intent
    _setup_succeeded(intent, method)
    return intent


def _setup_succeeded(intent: Any, method: Any) -> None:
    intent.status = "succeeded"
    intent.next_action = None
    method._set_up = True
    if intent.customer:
        attach(method, intent.customer)
    emit("setup_intent.succeeded", intent)


def authenticate_setup(cls, id, client_secret=None, success=False, **kwargs):
    if kwargs:
        raise UserError(400, "Unexpected " + ", ".join(kwargs.keys()))
    intent = cls._api_retrieve(id)
    if client_secret != intent.client_secret:
        raise UserError(401, "Unauthorized")
    if intent.status != "requires_action":
        raise UserError(
            400,
            "This SetupIntent does not require an action.",
            {"code": "setup_intent_unexpected_state"},
        )
    method = find_method(intent.payment_method)
    if as_bool(success, "success"):
        _setup_succeeded(intent, method)
    else:
        intent.status = "requires_payment_method"
        intent.next_action = None
        intent.payment_method = None
        intent.last_setup_error = {
            "type": "invalid_request_error",
            "code": "setup_intent_authentication_failure",
            "message": "The latest attempt to set up the payment method has failed because "
            "authentication failed.",
            "payment_method": method._export(),
        }
        emit("setup_intent.setup_failed", intent)
    return intent


def patch() -> None:
    SetupIntent.description = None
    SetupIntent.last_setup_error = None
    SetupIntent._return_url = None
    SetupIntent._api_create = classmethod(create_setup)
    SetupIntent._api_confirm = classmethod(confirm_setup)
    replace_api("POST", "/v1/setup_intents/{id}/confirm", SetupIntent._api_confirm)


def add_routes(app: Any) -> None:
    route(
        app,
        "POST",
        "/v1/setup_intents/{id}/_authenticate",
        lambda id, **data: authenticate_setup(SetupIntent, id, **data),
    )
