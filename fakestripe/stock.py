"""Small helpers over localstripe's own machinery, shared by the patches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from localstripe import resources
from localstripe.errors import UserError
from localstripe.webhooks import schedule_webhook


def replace_api(method: str, url: str, func: Callable[..., Any]) -> None:
    """Swap the handler localstripe registers for `method url` (before its server is imported:
    the routes capture the functions listed in `extra_apis`), or add one."""
    apis = resources.extra_apis
    for index, (m, u, _) in enumerate(apis):
        if (m, u) == (method, url):
            apis[index] = (method, url, func)
            return
    apis.append((method, url, func))


def no_such(kind: str, id: str, param: str = "id") -> UserError:
    """Stripe's 404 for an unknown object."""
    return UserError(404, f"No such {kind}: '{id}'", {"code": "resource_missing", "param": param})


def missing(param: str) -> UserError:
    return UserError(
        400, f"Missing required param: {param}.", {"param": param, "code": "parameter_missing"}
    )


def not_implemented(name: str) -> UserError:
    """A parameter Stripe has (the SDK's types passed it) that this fake does not implement:
    refused, never ignored."""
    return UserError(400, f"localstripe does not implement the parameter {name}.", {"param": name})


def emit(event_type: str, obj: Any) -> None:
    """Record an Event (GET /v1/events) and deliver it to the registered webhook endpoints."""
    schedule_webhook(resources.Event(event_type, obj))


def stored(prefix: str) -> list[Any]:
    """Every stored object of one kind (`object` value), newest first as Stripe lists them."""
    found = [v for k, v in resources.store.items() if k.startswith(prefix + ":")]
    return list(reversed(found))


class Exported:
    """A body ready to answer with: localstripe's handlers and lists call `_export`."""

    def __init__(self, body: dict[str, Any]):
        self.id, self.body = body.get("id"), body

    def _export(self, expand=None):
        return self.body


def page(
    items: list[Any],
    url: str,
    limit: Any = None,
    starting_after: Any = None,
    ending_before: Any = None,
) -> dict[str, Any]:
    """A Stripe list object over `items` (already filtered and ordered)."""
    limit = resources.try_convert_to_int(limit) if limit is not None else 10
    if not isinstance(limit, int) or not 1 <= limit <= 100:
        raise UserError(400, "Invalid limit: must be between 1 and 100", {"param": "limit"})
    ids = [item.id for item in items]
    if starting_after is not None:
        if starting_after not in ids:
            raise no_such("object", starting_after, "starting_after")
        items = items[ids.index(starting_after) + 1 :]
    elif ending_before is not None:
        if ending_before not in ids:
            raise no_such("object", ending_before, "ending_before")
        items = items[: ids.index(ending_before)][-limit:]
    return {
        "object": "list",
        "url": url,
        "has_more": len(items) > limit,
        "data": [item._export() for item in items[:limit]],
    }


def as_bool(value: Any, param: str) -> bool | None:
    value = resources.try_convert_to_bool(value)
    if value is not None and not isinstance(value, bool):
        raise UserError(400, f"Invalid boolean: {value}", {"param": param})
    return value


def choice(value: Any, param: str, choices: tuple[str, ...]) -> Any:
    if value is not None and value not in choices:
        raise UserError(
            400, f"Invalid {param}: must be one of {', '.join(choices)}", {"param": param}
        )
    return value


_origin = ["http://127.0.0.1:8420"]


def origin() -> str:
    """The fake's own origin, as the latest API request reached it (pages link back to it)."""
    return _origin[0]


def origin_middleware():
    from aiohttp import web

    @web.middleware
    async def remember(request, handler):
        if request.path.startswith("/v1/"):
            _origin[0] = str(request.url.origin())
        return await handler(request)

    return remember


def route(app: Any, method: str, path: str, func: Callable[..., Any]) -> None:
    """Serve `func(**path variables, **parameters)` as a Stripe API endpoint (localstripe's own
    helper passes only a few named path variables)."""
    from localstripe.server import get_post_data, json_response, unflatten_data

    async def handler(request):
        data = dict(unflatten_data(request.query) or {})
        if request.method == "POST":
            data.update(await get_post_data(request) or {})
        expand = data.pop("expand", None)
        return json_response(func(**request.match_info, **data)._export(expand=expand))

    app.router.add_route(method, path, handler)
