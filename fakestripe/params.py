"""Every request's parameters checked against the installed `stripe` SDK's typed parameter
classes, so a parameter Stripe does not have (a typo, or one the pinned API version removed) is
refused here as Stripe refuses it, instead of passing here and failing at Stripe.

The classes are TypedDicts generated from Stripe's OpenAPI spec (`stripe.params…`); their keys
say which parameters exist, which are required, and what each holds (a string, an integer, a
boolean, a hash, an array). Enumerations are typed `Literal[...] | str` by the SDK, so values are
left to the handlers. A parameter Stripe documents but the installed SDK does not type yet (the
Shared Payment Tokens preview) is declared in `PREVIEW_FIELDS`; a newer SDK that types it wins.
"""

from __future__ import annotations

import functools
import re
import sys
import types
import typing
from typing import Any

import stripe.params
from localstripe.errors import UserError
from stripe import StripeObject
from stripe._request_options import RequestOptions
from typing_extensions import TypedDict, is_typeddict

# Stripe.js sends these beside its parameters; localstripe drops them too.
CLIENT_FIELDS = {"key", "payment_user_agent", "referrer"}
_OPTIONS = set(RequestOptions.__annotations__)

# (method, path pattern, params class): a dotted name under stripe.params, or a TypedDict.
ENDPOINTS: list[tuple[str, str, Any]] = []


def endpoint(method: str, path: str, params: Any) -> None:
    """Check `method path` (`{id}` stands for one path segment) against `params`."""
    pattern = "^" + re.sub(r"\{\w+\}", r"[^/]+", path) + "$"
    ENDPOINTS.append((method, pattern, params))


for _method, _path, _name in (
    ("POST", "/v1/customers", "CustomerCreateParams"),
    ("GET", "/v1/customers", "CustomerListParams"),
    ("GET", "/v1/customers/{id}", "CustomerRetrieveParams"),
    ("POST", "/v1/customers/{id}", "CustomerUpdateParams"),
    ("GET", "/v1/customers/{id}/payment_methods", "CustomerListPaymentMethodsParams"),
    ("GET", "/v1/customers/{id}/payment_methods/{pm}", "CustomerRetrievePaymentMethodParams"),
    ("POST", "/v1/payment_methods", "PaymentMethodCreateParams"),
    ("GET", "/v1/payment_methods", "PaymentMethodListParams"),
    ("GET", "/v1/payment_methods/{id}", "PaymentMethodRetrieveParams"),
    ("POST", "/v1/payment_methods/{id}/attach", "PaymentMethodAttachParams"),
    ("POST", "/v1/payment_methods/{id}/detach", "PaymentMethodDetachParams"),
    ("POST", "/v1/payment_intents", "PaymentIntentCreateParams"),
    ("GET", "/v1/payment_intents", "PaymentIntentListParams"),
    ("GET", "/v1/payment_intents/{id}", "PaymentIntentRetrieveParams"),
    ("POST", "/v1/payment_intents/{id}", "PaymentIntentUpdateParams"),
    ("POST", "/v1/payment_intents/{id}/confirm", "PaymentIntentConfirmParams"),
    ("POST", "/v1/payment_intents/{id}/cancel", "PaymentIntentCancelParams"),
    ("POST", "/v1/payment_intents/{id}/capture", "PaymentIntentCaptureParams"),
    ("POST", "/v1/setup_intents", "SetupIntentCreateParams"),
    ("GET", "/v1/setup_intents/{id}", "SetupIntentRetrieveParams"),
    ("POST", "/v1/setup_intents/{id}/confirm", "SetupIntentConfirmParams"),
    ("POST", "/v1/setup_intents/{id}/cancel", "SetupIntentCancelParams"),
    ("POST", "/v1/refunds", "RefundCreateParams"),
    ("GET", "/v1/refunds", "RefundListParams"),
    ("GET", "/v1/refunds/{id}", "RefundRetrieveParams"),
    ("GET", "/v1/events", "EventListParams"),
    ("GET", "/v1/events/{id}", "EventRetrieveParams"),
    ("POST", "/v1/checkout/sessions", "checkout.SessionCreateParams"),
    ("GET", "/v1/checkout/sessions", "checkout.SessionListParams"),
    ("GET", "/v1/checkout/sessions/{id}", "checkout.SessionRetrieveParams"),
    ("POST", "/v1/checkout/sessions/{id}/expire", "checkout.SessionExpireParams"),
    ("GET", "/v1/checkout/sessions/{id}/line_items", "checkout.SessionListLineItemsParams"),
):
    endpoint(_method, _path, _name)

# Documented by Stripe (Shared Payment Tokens, API 2026-04-22.preview) but not typed by the
# installed SDK: extra fields, and the fields they make optional.
PREVIEW_FIELDS: dict[str, tuple[dict[str, Any], set[str]]] = {
    name: ({"shared_payment_granted_token": str}, {"type"})
    for name in (
        "PaymentIntentCreateParamsPaymentMethodData",
        "PaymentIntentConfirmParamsPaymentMethodData",
    )
}


# Parameters the pinned API version removed, with the code Stripe answers them with.
REMOVED = {
    "payment_method_types": "payment_method_types_no_longer_supported",  # 2026-09-30.endive
}
_REMOVED_FROM = {
    "PaymentIntentCreateParams",
    "PaymentIntentUpdateParams",
    "PaymentIntentConfirmParams",
    "SetupIntentCreateParams",
    "SetupIntentUpdateParams",
}


def refused(message: str, *, param: str | None = None, code: str | None = None) -> UserError:
    return UserError(400, message, {k: v for k, v in (("param", param), ("code", code)) if v})


@functools.cache
def _resolve(params: Any) -> type:
    if not isinstance(params, str):
        return params
    owner: Any = stripe.params
    for part in params.split("."):
        owner = getattr(owner, part)
    return owner


@functools.cache
def _fields(cls: type) -> tuple[dict[str, Any], frozenset[str]]:
    """A TypedDict's fields (request options left out) and its required keys."""
    own = {k: v for k, v in cls.__annotations__.items() if k not in _OPTIONS}
    # Evaluated through a copy: the request options' annotations name types the SDK imports
    # only while type checking.
    copy = TypedDict(cls.__name__, own)  # type: ignore[operator]
    hints = typing.get_type_hints(copy, globalns=vars(sys.modules[cls.__module__]))
    required = set(cls.__required_keys__) - _OPTIONS
    for name, hint in PREVIEW_FIELDS.get(cls.__name__, ({}, set()))[0].items():
        hints.setdefault(name, hint)
    return hints, frozenset(required)


def check(params: Any, data: dict[str, Any]) -> None:
    """Refuse `data` (already unflattened) as Stripe would if `params` does not allow it."""
    _check_hash(_resolve(params), data, "")


def _name(path: str, key: str | int) -> str:
    return f"{path}[{key}]" if path else str(key)


def _check_hash(cls: type, data: Any, path: str) -> None:
    if not isinstance(data, dict):
        raise refused(f"Invalid object: {path} must be a hash.", param=path)
    hints, required = _fields(cls)
    for key, value in data.items():
        if key not in hints:
            name = _name(path, key)
            if key in REMOVED and cls.__name__ in _REMOVED_FROM:
                raise refused(
                    f"{name} is no longer supported on this API version: use "
                    "allowed_payment_method_types or excluded_payment_method_types.",
                    param=name,
                    code=REMOVED[key],
                )
            raise refused(
                f"Received unknown parameter: {name}", param=name, code="parameter_unknown"
            )
        _check_value(hints[key], value, _name(path, key))
    preview, relaxed = PREVIEW_FIELDS.get(cls.__name__, ({}, set()))
    optional = relaxed if any(key in data for key in preview) else set()
    for key in sorted(required - optional - set(data)):
        name = _name(path, key)
        raise refused(f"Missing required param: {name}.", param=name, code="parameter_missing")


def _check_value(hint: Any, value: Any, path: str) -> None:
    problem = _problem(hint, value, path)
    if problem is not None:
        raise problem


def _problem(hint: Any, value: Any, path: str) -> UserError | None:
    """Why `value` does not fit `hint`, or None when it does."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        problems = [_problem(option, value, path) for option in typing.get_args(hint)]
        if any(problem is None for problem in problems):
            return None
        # The most telling refusal: one that names a nested parameter.
        return max(problems, key=lambda p: len(p.body["error"].get("param") or ""))
    if origin is typing.Literal:
        choices = typing.get_args(hint)
        if value in choices:
            return None
        return refused(f"Invalid {path}: must be one of {', '.join(map(str, choices))}", param=path)
    if origin in (list, typing.List):  # noqa: UP006
        if isinstance(value, dict) and all(k.isdigit() for k in value):
            value = [value[k] for k in sorted(value, key=int)]
        if not isinstance(value, list):
            return refused(f"Invalid array: {path} must be an array.", param=path)
        (item,) = typing.get_args(hint)
        for index, element in enumerate(value):
            problem = _problem(item, element, _name(path, index))
            if problem is not None:
                return problem
        return None
    if origin in (dict, typing.Dict):  # noqa: UP006
        if not isinstance(value, dict):
            return refused(f"Invalid object: {path} must be a hash.", param=path)
        _, item = typing.get_args(hint)
        for key, element in value.items():
            problem = _problem(item, element, _name(path, key))
            if problem is not None:
                return problem
        return None
    if is_typeddict(hint):
        try:
            _check_hash(hint, value, path)
        except UserError as error:
            return error
        return None
    if isinstance(origin or hint, type) and issubclass(origin or hint, (dict, StripeObject)):
        # The SDK's UntypedStripeObject: a hash of anything ("" unsets metadata, as at Stripe).
        if isinstance(value, dict) or value == "":
            return None
        return refused(f"Invalid object: {path} must be a hash.", param=path)
    return _scalar_problem(hint, value, path)


def _scalar_problem(hint: Any, value: Any, path: str) -> UserError | None:
    if hint is str:
        return None if isinstance(value, str) else refused(f"Invalid string: {path}", param=path)
    if hint is bool:
        if isinstance(value, bool) or value in ("true", "false"):
            return None
        return refused(f"Invalid boolean: {value}", param=path)
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return None
        if isinstance(value, str) and re.fullmatch(r"-?\d+", value):
            return None
        return refused(f"Invalid integer: {value}", param=path, code="parameter_invalid_integer")
    if hint in (float,) or getattr(hint, "__name__", "") == "Decimal":
        if isinstance(value, (int, float)) or (
            isinstance(value, str) and re.fullmatch(r"-?\d+(\.\d+)?", value)
        ):
            return None
        return refused(f"Invalid decimal: {value}", param=path)
    return None  # typed Any by the SDK


def middleware():
    from aiohttp import web
    from localstripe.server import get_post_data, unflatten_data

    compiled = [(method, re.compile(pattern), params) for method, pattern, params in ENDPOINTS]

    @web.middleware
    async def checked(request, handler):
        for method, pattern, params in compiled:
            if request.method == method and pattern.match(request.path):
                if request.method == "GET":
                    data = unflatten_data(request.query)
                else:
                    data = await get_post_data(request, remove_auth=False) or {}
                    data = {k: v for k, v in data.items() if k not in CLIENT_FIELDS}
                try:
                    check(params, data)
                except UserError as error:
                    return error.to_response()
                break
        return await handler(request)

    return checked
