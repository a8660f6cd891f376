"""A remembered rendering is the rendering: a new view id on every draw, and a new drawing
whenever anything the template reads differs (stock, language, markup, settings)."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.test import override_settings
from django.utils.safestring import mark_safe

from gifts.models import Product, WorkflowContext
from tool_runtime.outcome import ToolOutcome
from widget import rendering
from widget.fragment_cache import VIEW_ID_PLACEHOLDER, FragmentCache, fingerprint
from widget.rendering import render_fragment

VIEW_ID = re.compile(r'data-gg-view="([0-9a-f]{32})"')


class CountingDraw:
    def __init__(self) -> None:
        self.contexts: list[dict] = []

    def __call__(self, context: dict) -> str:
        self.contexts.append(context)
        return (
            f"<p id='a-{context['view_id']}'>{context.get('text')}</p><i>{context['view_id']}</i>"
        )


def test_the_same_context_is_drawn_once_and_every_draw_has_its_own_view_id():
    cache, draw = FragmentCache(8), CountingDraw()
    first = cache.render("t", {"text": "hello"}, draw)
    second = cache.render("t", {"text": "hello"}, draw)
    assert len(draw.contexts) == 1
    first_id = re.search(r"a-([0-9a-f]{32})", first).group(1)
    second_id = re.search(r"a-([0-9a-f]{32})", second).group(1)
    assert first_id != second_id
    # Every place the view id was drawn gets this draw's id, and the placeholder never shows.
    assert first == f"<p id='a-{first_id}'>hello</p><i>{first_id}</i>"
    assert VIEW_ID_PLACEHOLDER not in first + second


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ({"text": "a"}, {"text": "b"}),
        ({"text": "<b>"}, {"text": mark_safe("<b>")}),  # escaped vs not: different HTML
        ({"text": Decimal("1.0")}, {"text": "1.0"}),
        ({"text": Decimal("1.0")}, {"text": Decimal("1.00")}),
        ({"text": 1}, {"text": "1"}),
        ({"text": None}, {"text": ""}),
    ],
)
def test_contexts_that_could_draw_differently_are_drawn_apart(one, other):
    assert fingerprint(one) != fingerprint(other)
    cache, draw = FragmentCache(8), CountingDraw()
    cache.render("t", one, draw)
    cache.render("t", other, draw)
    assert len(draw.contexts) == 2


def test_the_template_and_the_language_are_part_of_the_key():
    from django.utils import translation

    cache, draw = FragmentCache(8), CountingDraw()
    cache.render("t", {"text": "x"}, draw)
    cache.render("u", {"text": "x"}, draw)
    with translation.override("de"):
        cache.render("t", {"text": "x"}, draw)
    assert len(draw.contexts) == 3


def test_a_context_it_cannot_fingerprint_is_drawn_every_time():
    cache, draw = FragmentCache(8), CountingDraw()
    context = {"text": "x", "thing": object()}
    assert fingerprint(context) is None
    cache.render("t", context, draw)
    cache.render("t", context, draw)
    assert len(draw.contexts) == 2
    assert draw.contexts[0]["view_id"] != draw.contexts[1]["view_id"]


def test_size_zero_turns_it_off():
    cache, draw = FragmentCache(0), CountingDraw()
    cache.render("t", {"text": "x"}, draw)
    cache.render("t", {"text": "x"}, draw)
    assert len(draw.contexts) == 2


def test_the_oldest_rendering_is_forgotten_past_the_size():
    cache, draw = FragmentCache(2), CountingDraw()
    for text in ("a", "b", "c", "a"):
        cache.render("t", {"text": text}, draw)
    assert [c["text"] for c in draw.contexts] == ["a", "b", "c", "a"]


# --- the real views ---------------------------------------------------------------------------------


@pytest.fixture
def ideas(user, demo_catalog):
    # Three products, none a variant of another (a redraw shows one card per family).
    by_family = {}
    for product in Product.objects.filter(active=True, stock__gt=0).order_by("pk"):
        by_family.setdefault(product.family or product.sku, product)
    products = list(by_family.values())[:3]
    workflow = WorkflowContext.objects.create(
        owner=user,
        current_step="ideas",
        visited_steps=["brief", "ideas"],
        brief={"relationship": "friend", "interests": ["coffee"], "currency": "USD"},
        last_suggestions=[p.pk for p in products],
    )
    return workflow, products


def redraw(workflow: WorkflowContext, locale: str = "en") -> str:
    body = {"ok": True, "workflow_id": str(workflow.pk), "current_step": "ideas"}
    outcome = ToolOutcome("get_workflow", body, {}, 200, "cid", workflow=workflow)
    return render_fragment(tool="get_workflow", outcome=outcome, locale=locale)


def without_view_id(html: str) -> str:
    return html.replace(VIEW_ID.search(html).group(1), "")


@pytest.fixture
def drawn(monkeypatch) -> list[str]:
    """The templates really drawn (a view taken from the cache draws none)."""
    names: list[str] = []
    real = rendering.render_to_string

    def spy(name, context, **kwargs):
        names.append(name)
        return real(name, context, **kwargs)

    monkeypatch.setattr(rendering, "render_to_string", spy)
    return names


@override_settings(WIDGET_FRAGMENT_CACHE_SIZE=64)
def test_a_redraw_of_an_unchanged_workflow_is_the_same_view_with_a_new_id(ideas, drawn):
    workflow, _ = ideas
    first, second = redraw(workflow), redraw(workflow)
    assert drawn == ["widget/fragments/suggestions.html"]
    assert VIEW_ID.search(first).group(1) != VIEW_ID.search(second).group(1)
    assert without_view_id(first) == without_view_id(second)
    # The element ids made from the view id are this view's own: a second view on the same
    # page never shares a label target with the first.
    assert f"gg-fcat-{VIEW_ID.search(second).group(1)}" in second


@override_settings(WIDGET_FRAGMENT_CACHE_SIZE=64)
def test_a_sold_out_offer_is_redrawn_sold_out_not_remembered_in_stock(ideas):
    workflow, products = ideas
    before = redraw(workflow)
    assert before.count('data-testid="select-gift"') == 3
    Product.objects.filter(pk=products[0].pk).update(stock=0)
    after = redraw(workflow)
    assert after.count('data-testid="select-gift"') == 2


@override_settings(WIDGET_FRAGMENT_CACHE_SIZE=64)
def test_each_language_gets_its_own_drawing(ideas):
    workflow, _ = ideas
    english, polish = redraw(workflow, "en"), redraw(workflow, "pl")
    assert 'lang="en"' in english and 'lang="pl"' in polish
    assert ">Select<" in english and ">Wybierz<" in polish


@override_settings(WIDGET_FRAGMENT_CACHE_SIZE=64)
def test_a_changed_setting_is_drawn_with_the_new_value(ideas):
    workflow, _ = ideas
    assert "https://pictures.example" not in redraw(workflow)
    with override_settings(WIDGET_IMAGE_BASE_URL="https://pictures.example"):
        assert "https://pictures.example" in redraw(workflow)


# --- views remembered by their inputs ------------------------------------------------------------


class CountingInputsDraw:
    def __init__(self) -> None:
        self.view_ids: list[str] = []

    def __call__(self, view_id: str) -> str:
        self.view_ids.append(view_id)
        return f"<p id='a-{view_id}'>view</p>"


def test_the_same_inputs_are_drawn_once_each_draw_with_its_own_view_id():
    cache, draw = FragmentCache(8), CountingInputsDraw()
    first = cache.render_from_inputs(("get_workflow", {"step": "ideas"}), draw)
    second = cache.render_from_inputs(("get_workflow", {"step": "ideas"}), draw)
    cache.render_from_inputs(("get_workflow", {"step": "checkout"}), draw)
    assert draw.view_ids == [VIEW_ID_PLACEHOLDER, VIEW_ID_PLACEHOLDER]
    assert first != second and VIEW_ID_PLACEHOLDER not in first + second


def test_inputs_it_cannot_fingerprint_are_drawn_every_time_and_never_meet_a_template_key():
    cache, draw = FragmentCache(8), CountingInputsDraw()
    cache.render_from_inputs(("x", object()), draw)
    cache.render_from_inputs(("x", object()), draw)
    assert len(draw.view_ids) == 2 and VIEW_ID_PLACEHOLDER not in draw.view_ids
    # A context equal to some inputs is still another view: the kinds of key never mix.
    by_context = CountingDraw()
    cache.render("t", {"text": "hi"}, by_context)
    cache.render_from_inputs({"text": "hi"}, draw)
    assert len(by_context.contexts) == 1 and len(draw.view_ids) == 3


def _steps(workflow: WorkflowContext, products: list[Product]):
    """The workflow at each step a redraw can find it in."""
    yield "ideas"
    workflow.current_step, workflow.selected_product = "gift_selected", products[1]
    yield "gift_selected"
    for step in ("checkout", "completed", "brief"):
        workflow.current_step = step
        yield step


def _drawn_fresh(render) -> str:
    with override_settings(WIDGET_FRAGMENT_CACHE_SIZE=0):
        return render()


@override_settings(WIDGET_FRAGMENT_CACHE_SIZE=64)
@pytest.mark.parametrize("locale", ["en", "pl"])
def test_every_redrawn_step_remembered_is_the_view_built_afresh(ideas, locale, drawn):
    workflow, products = ideas
    for step in _steps(workflow, products):
        workflow.save()
        body = {"ok": True, "workflow_id": str(workflow.pk), "current_step": step}
        outcome = ToolOutcome("get_workflow", body, {}, 200, "cid", workflow=workflow)

        def render(outcome=outcome) -> str:
            return render_fragment(tool="get_workflow", outcome=outcome, locale=locale)

        remembered = render()
        assert without_view_id(render()) == without_view_id(remembered)
        assert without_view_id(_drawn_fresh(render)) == without_view_id(remembered), step
    # Five steps drawn once each into the cache (the fresh drawings are the other five).
    assert len(drawn) == 10


def _gifts(products: list[Product]) -> list[dict]:
    return [
        {
            "product_id": p.pk,
            "name": p.name,
            "description": p.description,
            "price": str(p.price),
            "currency": "USD",
            "category": p.category,
            "tags": list(p.tags),
            "in_stock": True,
            "match_reasons": ["matches interest 'coffee'"],
        }
        for p in products
    ]


def _ideas(workflow: WorkflowContext, **body) -> str:
    body = {"ok": True, "workflow_id": str(workflow.pk), "current_step": "ideas", **body}
    outcome = ToolOutcome("suggest_gifts", body, {}, 200, "cid", workflow=workflow)
    return render_fragment(tool="suggest_gifts", outcome=outcome, locale="en")


@override_settings(WIDGET_FRAGMENT_CACHE_SIZE=64)
def test_ideas_remembered_by_their_inputs_are_the_ideas_built_afresh(ideas, drawn):
    workflow, products = ideas
    nothing = {
        "no_results_reason": "Nothing in budget.",
        "suggestions": [{"change": "raise_budget_max", "value": 90, "matches": 4}],
    }
    for body in ({"gifts": _gifts(products)}, {"gifts": [], **nothing}):
        remembered = _ideas(workflow, **body)
        assert without_view_id(_ideas(workflow, **body)) == without_view_id(remembered)
        assert without_view_id(_drawn_fresh(lambda body=body: _ideas(workflow, **body))) == (
            without_view_id(remembered)
        )
    assert drawn.count("widget/fragments/suggestions.html") == 2  # remembered, then afresh
    assert drawn.count("widget/fragments/empty.html") == 2


@override_settings(WIDGET_FRAGMENT_CACHE_SIZE=64)
def test_the_same_ideas_for_another_brief_are_drawn_anew(ideas, drawn):
    workflow, products = ideas
    first = _ideas(workflow, gifts=_gifts(products))
    workflow.brief = {**workflow.brief, "age": 40}  # the reasons and the filters follow the brief
    second = _ideas(workflow, gifts=_gifts(products))
    assert "aged 40" not in first and "aged 40" in second
    assert drawn.count("widget/fragments/suggestions.html") == 2


@override_settings(WIDGET_FRAGMENT_CACHE_SIZE=64)
def test_a_redraw_follows_the_workflow_and_the_catalog_as_they_are_now(ideas):
    workflow, products = ideas
    before = redraw(workflow)
    assert before.count('data-testid="select-gift"') == 3
    Product.objects.filter(pk=products[2].pk).update(active=False)  # discontinued meanwhile
    assert redraw(workflow).count('data-testid="select-gift"') == 2
    workflow.last_suggestions = [products[0].pk]  # new ideas recorded meanwhile
    assert redraw(workflow).count('data-testid="select-gift"') == 1
    workflow.brief = {**workflow.brief, "interests": ["tea"]}
    assert 'value="tea"' not in before and "tea" in redraw(workflow)


@override_settings(WIDGET_FRAGMENT_CACHE_SIZE=64)
def test_pictures_point_at_the_origin_each_page_asked_for(ideas):
    workflow, _ = ideas
    body = {"ok": True, "workflow_id": str(workflow.pk), "current_step": "ideas"}
    outcome = ToolOutcome("get_workflow", body, {}, 200, "cid", workflow=workflow)
    one = render_fragment(
        tool="get_workflow", outcome=outcome, locale="en", origin="https://a.test"
    )
    other = render_fragment(
        tool="get_workflow", outcome=outcome, locale="en", origin="https://b.test"
    )
    assert 'src="https://a.test/' in one and "https://b.test" not in one
    assert 'src="https://b.test/' in other
