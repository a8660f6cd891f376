"""The catalog adapter: stands for an upstream catalog service reached over the network.

Transient failures (unavailable, time-out) are retried with stamina: bounded attempts,
exponential backoff with jitter, and a total deadline well inside a tool-call timeout. A
rejection (4xx) is never retried. Exhausted retries become retryable upstream errors.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import lru_cache
from typing import Any, TypeVar

import stamina
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import static

from gifts.interest_vocabulary import vocabulary_rows
from gifts.interests import Vocabulary
from gifts.models import InterestTerm, Product, ProductTranslation
from tool_runtime import faults, rows, upstream
from tool_runtime.errors import ToolError

T = TypeVar("T")


class CatalogTransientError(Exception):
    """The upstream may answer if asked again."""


class CatalogUnavailable(CatalogTransientError):
    pass


class CatalogTimeout(CatalogTransientError):
    pass


class CatalogRejected(Exception):
    """The upstream refused the request (4xx): asking again cannot help."""


def interest_words(*, tags: Iterable[str], category: str) -> frozenset[str]:
    """The words a brief's interests can name a product by: its tags and its category."""
    return frozenset((*tags, category))


@dataclass(frozen=True)
class CatalogItem:
    product_id: int
    sku: str
    name: str
    description: str
    category: str
    tags: tuple[str, ...]
    price: Decimal
    currency: str
    stock: int
    age_min: int
    age_max: int
    image: str = ""
    image_width: int = 0
    image_height: int = 0
    image_alt: str = ""
    active: bool = True
    family: str = ""
    # The words a brief's interests can name it by (its tags and its category), made once per
    # item: ranking and narrowing test every candidate against them on every suggest_gifts.
    words: frozenset[str] = field(init=False, repr=False, compare=False)
    # The price as a float, made once: ranking compares many prices in floats.
    price_float: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "words", interest_words(tags=self.tags, category=self.category))
        object.__setattr__(self, "price_float", float(self.price))

    @property
    def in_stock(self) -> bool:
        return self.stock > 0

    @property
    def family_key(self) -> str:
        """Variants of one product share it; a product without a family is its own."""
        return self.family or f"#{self.product_id}"

    def fields(self) -> dict[str, Any]:
        """The product as tool results and widget cards show it."""
        return {
            "product_id": self.product_id,
            "sku": self.sku,
            "name": self.name,
            "description": self.description,
            "price": str(self.price),
            "currency": self.currency,
            "category": self.category,
            "tags": list(self.tags),
            "in_stock": self.in_stock,
            "image": image_url(self.image),
            "image_width": self.image_width,
            "image_height": self.image_height,
            "image_alt": self.image_alt,
        }


_FIELDS = (
    "id",
    "sku",
    "name",
    "description",
    "category",
    "tags",
    "price",
    "currency",
    "stock",
    "age_min",
    "age_max",
    "image",
    "image_width",
    "image_height",
    "image_alt",
    "active",
    "family",
)


def _items(rows: Iterable[tuple]) -> list[CatalogItem]:
    return [
        CatalogItem(pid, sku, name, desc, cat, tuple(tags), price, cur, stock, amin, amax, *rest)
        for pid, sku, name, desc, cat, tags, price, cur, stock, amin, amax, *rest in rows
    ]


def item_of(product: Product) -> CatalogItem:
    (item,) = _items([tuple(getattr(product, name) for name in _FIELDS)])
    return item


@lru_cache(maxsize=4096)
def image_url(value: str) -> str:
    """A product picture's URL: absolute and root-relative URLs as stored, a bare path is a
    static file (the demo catalog's pictures), so it gets the static URL (and any hashed name).
    Remembered: the static files' names are fixed while a process runs (a manifest lookup per
    card cost more than the rest of the card)."""
    if not value or value.startswith("/") or "://" in value:
        return value
    return static(value)


@receiver(setting_changed)
def _static_settings_changed(*, setting: str, **kwargs: Any) -> None:
    if setting in {"STATIC_URL", "STORAGES", "STATIC_ROOT"}:
        image_url.cache_clear()


def _call_upstream(operation: Callable[[], T]) -> T:
    """One attempt at the upstream, with any injected fault applied first."""
    fault = faults.pending_fault("catalog")
    if fault == "503":
        raise CatalogUnavailable("catalog answered 503")
    if fault == "timeout":
        raise CatalogTimeout("catalog did not answer in time")
    if fault == "400":
        raise CatalogRejected("catalog answered 400")
    return operation()


def _with_retries(operation: Callable[[], T]) -> T:
    last: CatalogTransientError | None = None
    try:
        for attempt in stamina.retry_context(
            on=CatalogTransientError,
            attempts=settings.UPSTREAM_RETRY_ATTEMPTS,
            timeout=settings.UPSTREAM_RETRY_DEADLINE_SECONDS,
            wait_initial=settings.UPSTREAM_RETRY_WAIT_INITIAL_SECONDS,
            wait_max=settings.UPSTREAM_RETRY_WAIT_MAX_SECONDS,
            wait_jitter=settings.UPSTREAM_RETRY_WAIT_JITTER_SECONDS,
        ):
            if attempt.num > 1:
                upstream.count_retry()
            with attempt:
                try:
                    return _call_upstream(operation)
                except CatalogTransientError as exc:
                    last = exc
                    raise
    except CatalogTimeout:
        raise ToolError(
            "UPSTREAM_TIMEOUT",
            "The catalog service timed out after several attempts. Retry the same call in a few seconds.",
        ) from None
    except CatalogUnavailable:
        raise ToolError(
            "UPSTREAM_UNAVAILABLE",
            "The catalog service is unavailable after several attempts. Retry the same call in a few seconds.",
        ) from None
    except CatalogRejected:
        raise ToolError(
            "UPSTREAM_REJECTED",
            "The catalog service rejected the request; retrying the same call will not help.",
        ) from None
    raise AssertionError(f"retry loop ended without a result: {last!r}")  # pragma: no cover


# Product details change rarely; stock changes with every order. Details are cached per process
# for CATALOG_CACHE_SECONDS (a read-through cache of the upstream, not state of record), while the
# filters that decide what is sellable (active, stock, price, age) always run live in the database.
# The cache holds a ready CatalogItem for every product, discontinued ones too (building ~500
# per call was a fifth of suggest_gifts); an item is rebuilt only when the live stock
# or state differs from what it was built with.
@dataclass(frozen=True)
class _Snapshot:
    items: dict[int, CatalogItem]
    by_interest: dict[str, frozenset[int]]  # a tag or a category → the products it names
    # (product id, language) → the translated name and description (blank: the catalog's own)
    translations: dict[tuple[int, str], tuple[str, str]]
    vocabulary: Vocabulary
    # Products created after the snapshot have larger ids (an id given by hand below it, or a
    # tag edited, is seen when the snapshot is next reloaded, as any other detail is).
    max_id: int
    loaded_at: float


_snapshot = _Snapshot({}, {}, {}, Vocabulary(()), 0, float("-inf"))


def _vocabulary() -> Vocabulary:
    """The interest terms staff keep (the built-in vocabulary until any are stored), built again
    only when they changed."""
    terms = tuple(
        (tag, language, label, tuple(forms))
        for tag, language, label, forms in InterestTerm.objects.order_by("pk").values_list(
            "tag", "language", "label", "forms"
        )
    ) or tuple(
        (tag, language, label, tuple(forms)) for tag, language, label, forms in vocabulary_rows()
    )
    if terms != _snapshot.vocabulary.terms:
        return Vocabulary(terms)
    return _snapshot.vocabulary


def _reload() -> _Snapshot:
    global _snapshot
    items = {item.product_id: item for item in _items(Product.objects.values_list(*_FIELDS))}
    translations = {
        (pid, language): (name, description)
        for pid, language, name, description in ProductTranslation.objects.values_list(
            "product_id", "language", "name", "description"
        )
    }
    by_interest: dict[str, set[int]] = {}
    for item in items.values():
        for word in item.words:
            by_interest.setdefault(word, set()).add(item.product_id)
    _snapshot = _Snapshot(  # swapped whole, never half-built
        items,
        {word: frozenset(ids) for word, ids in by_interest.items()},
        translations,
        _vocabulary(),
        max(items, default=0),
        time.monotonic(),
    )
    return _snapshot


def _fresh_snapshot() -> _Snapshot:
    snapshot = _snapshot
    if time.monotonic() - snapshot.loaded_at >= settings.CATALOG_CACHE_SECONDS:
        snapshot = _reload()
    return snapshot


# What is read live for every product shown or offered (with its id): the sku tells a re-used
# id, stock and state decide what can be sold.
_LIVE_FIELDS = ("sku", "stock", "active")

# Past this many products named by the interests, narrowing the query by id stops paying.
MAX_NARROWED_IDS = 2000


def sellable_candidates(
    *,
    currency: str,
    min_price: Decimal | None = None,
    max_price: Decimal | None = None,
    age: int | None = None,
    interests: Iterable[str] | None = None,
) -> list[CatalogItem]:
    """Active, in-stock products priced in `currency`, optionally within a price range, suitable
    for an age and with a tag or category among `interests`. One query whatever the catalog size
    (plus a reload of the snapshot when it is stale or meets a product it does not know);
    sellability (active, stock, price, age) is always decided by the database. In no
    particular order: asked for one, SQLite walks the whole table by the sku index instead of
    probing the ids the interests name (105 against 46 µs a read); ranking orders."""
    # A fixed statement per shape (tool_runtime.rows): building it with the ORM cost more
    # than running it. Sellable: active, priced in `currency`, in stock, within the range.
    where = ["{active}", "{currency} = %s", "{stock} > %s"]
    params: list[tuple[str, Any]] = [("currency", currency), ("stock", 0)]
    if min_price is not None:
        where.append("{price} >= %s")
        params.append(("price", min_price))
    if max_price is not None:
        where.append("{price} <= %s")
        params.append(("price", max_price))
    if age is not None:
        where.append("{age_min} <= %s AND {age_max} >= %s")
        params += [("age_min", age), ("age_max", age)]

    def fetch() -> list[CatalogItem]:
        snapshot = _fresh_snapshot()
        narrowed, narrowed_params = list(where), list(params)
        wanted: set[str] | None = None
        if interests is not None:
            wanted = set(interests)
            named = sorted(set().union(*(snapshot.by_interest.get(word, ()) for word in wanted)))
            if len(named) <= MAX_NARROWED_IDS:
                # Only products the interests name (ranking ~500 products to keep a
                # few cost a third of suggest_gifts); products newer than the snapshot are read
                # too, so a new product is offered at once.
                if not named:
                    narrowed.append("{id} > %s")
                elif rows.supports_any_of():
                    narrowed.append(f"({rows.any_of_sql('{id}')} OR {{id}} > %s)")
                    narrowed_params.append(("id", rows.AnyOf(named)))
                else:
                    ids = _padded(named)
                    marks = ", ".join(["%s"] * len(ids))
                    narrowed.append(f"({{id}} IN ({marks}) OR {{id}} > %s)")
                    narrowed_params += [("id", pid) for pid in ids]
                narrowed_params.append(("id", snapshot.max_id))
        live = rows.values_where(
            Product,
            fields=("id", *_LIVE_FIELDS),
            where=" AND ".join(narrowed),
            params=narrowed_params,
        )
        items = _live_items(live, snapshot)
        if wanted is None:
            return items
        return [item for item in items if not wanted.isdisjoint(item.words)]

    return _with_retries(fetch)


def upstream_read(operation: Callable[[], T]) -> T:
    """`operation` (a read of the catalog) with the upstream's retries and errors."""
    return _with_retries(operation)


def snapshot_items() -> tuple[float, list[CatalogItem]]:
    """Every product as the per-process snapshot holds it (stock and state as last read), with
    the time the snapshot was loaded (a key for what is derived from it)."""
    snapshot = _fresh_snapshot()
    return snapshot.loaded_at, list(snapshot.items.values())


def interest_vocabulary() -> Vocabulary:
    """The interest tags' words in every language (gifts.interests), as cached with the catalog."""
    return _fresh_snapshot().vocabulary


def localized_name(item: CatalogItem, *, language: str) -> str:
    translated = _snapshot.translations.get((item.product_id, language))
    return (translated[0] if translated else "") or item.name


def localized_fields(item: CatalogItem, *, language: str) -> dict[str, Any]:
    """`item.fields()` with the name and description in `language` where the catalog has them
    (the catalog's own text otherwise)."""
    fields = item.fields()
    translated = _snapshot.translations.get((item.product_id, language))
    if translated is not None:
        name, description = translated
        fields["name"] = name or item.name
        fields["description"] = description or item.description
    return fields


def _padded(ids: list[int]) -> list[int]:
    """`ids` repeated at the end up to the next power of two: an IN list then has one of a few
    lengths, so a few statements serve every count (a repeated id matches nothing more)."""
    if not ids:
        return ids
    size = 1 << (len(ids) - 1).bit_length()
    return ids + [ids[-1]] * (size - len(ids))


def items_by_id(product_ids: Iterable[int]) -> dict[int, CatalogItem]:
    """These products (active or not) with their live stock and state: one query, read as
    values (a model instance per product had cost more than the read)."""
    ids = list(dict.fromkeys(product_ids))
    if not ids:
        return {}
    # An IN list (a view shows a handful): a primary-key probe on every database, faster on
    # PostgreSQL than one array parameter (psycopg dumps arrays in Python). Padded, so that a
    # few statements serve every count (a workflow's offers grow with each search).
    padded = _padded(ids)
    live = rows.values_where(
        Product,
        fields=("id", *_LIVE_FIELDS),
        where=f"{{id}} IN ({', '.join(['%s'] * len(padded))})",
        params=[("id", pid) for pid in padded],
    )
    return {item.product_id: item for item in _live_items(live, _fresh_snapshot())}


def _live_items(live: list[tuple[int, str, int, bool]], snapshot: _Snapshot) -> list[CatalogItem]:
    """Products as `_LIVE_FIELDS` read them now, details from the snapshot, which is reloaded
    when any id is unknown to it or now names another sku (a re-used id must never show
    another product)."""
    known = snapshot.items
    if any(pid not in known or known[pid].sku != sku for pid, sku, _, _ in live):
        known = _reload().items
    found = []
    for pid, _, stock, active in live:
        item = known[pid]
        if item.stock != stock or item.active != active:
            # Another thread may do the same at once: both store an equal item.
            item = known[pid] = replace(item, stock=stock, active=active)
        found.append(item)
    return found
