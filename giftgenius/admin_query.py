"""The admin's query strings (list filters, search, ordering) follow the printable-text rule.

A list filter's value goes into SQL as typed: PostgreSQL refuses NUL in text, which turned
`?status__exact=%00` into a 500 on every list page with a filter, ours and the libraries'. One
middleware covers them all; the refusal is a 400 naming the parameter.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.urls import reverse

from tool_runtime.text import describe_refused


class PrintableAdminQuery:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.GET and request.path.startswith(reverse("admin:index")):
            refusal = unprintable_parameter(request)
            if refusal is not None:
                return refusal
        return self.get_response(request)


def unprintable_parameter(request: HttpRequest) -> HttpResponse | None:
    for name, values in request.GET.lists():
        for text in (name, *values):
            why = describe_refused(text)
            if why is not None:
                shown = name if describe_refused(name) is None else "(a parameter name)"
                return HttpResponseBadRequest(
                    f"The query parameter '{shown}' holds {why}, which is not allowed in text.\n",
                    content_type="text/plain; charset=utf-8",
                )
    return None
