"""Every widget state renders from its tool outcome; user data is escaped; no code or internal
text reaches the person; secrets stay in data attributes."""

from __future__ import annotations

import html as html_lib
import json
import re
import uuid
from html.parser import HTMLParser

import pytest

from gifts.models import WorkflowContext
from tool_runtime.errors import ERROR_CATALOG
from tool_runtime.outcome import ToolOutcome
from widget.rendering import render_fragment

# Status views look up the order's gift name and step views the workflow: reads need a database.
pytestmark = pytest.mark.django_db

WORKFLOW = "3f2b8c1e-6d4a-4f7b-9c2e-1a5d7e9f0b34"
ORDER = "9b1d5c7e-2f4a-4e8b-a6c3-0d2e4f6a8b10"
EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>'
GIFT = {
    "product_id": 7,
    "sku": "GG-1",
    "name": "Pour-over kettle",
    "description": "Gooseneck, 1 litre.",
    "price": "34.50",
    "currency": "USD",
    "category": "kitchen",
    "tags": ["coffee", "kitchen"],
    "in_stock": True,
    "match_reasons": ["matches interest 'coffee'"],
}
SHIPPING = {
    "name": "Demo Buyer",
    "line1": "1 Main St",
    "city": "Springfield",
    "postal_code": "12345",
    "country": "US",
}


class VisibleText(HTMLParser):
    """The text a person sees: element text only, never attribute values."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def ok(tool: str, body: dict, meta: dict | None = None) -> ToolOutcome:
    return ToolOutcome(tool, {"ok": True, **body}, meta or {}, 200, "cid-1")


def failed(tool: str, code: str, message: str = "internal detail for the model") -> ToolOutcome:
    spec = ERROR_CATALOG[code]
    error = {
        "code": code,
        "error_type": str(spec.error_type),
        "message": message,
        "retryable": spec.retryable,
    }
    return ToolOutcome(tool, {"ok": False, "error": error}, {}, spec.http_status, "cid-1")


def render(tool: str, outcome: ToolOutcome, locale: str = "en") -> str:
    return render_fragment(tool=tool, outcome=outcome, locale=locale)


def state(html: str) -> str:
    return re.search(r'data-gg-state="([^"]*)"', html).group(1)


def args_of(html: str, testid: str) -> dict:
    tag = re.search(rf'<[^>]*data-testid="{testid}"[^>]*>', html).group(0)
    raw = re.search(r'data-gg-args="([^"]*)"', tag).group(1)
    return json.loads(html_lib.unescape(raw))


def prepared(**gift) -> ToolOutcome:
    body = {
        "workflow_id": WORKFLOW,
        "current_step": "checkout",
        "order_id": ORDER,
        "status": "draft",
        "gift": {
            "product_id": 7,
            "sku": "GG-1",
            "name": "Pour-over kettle",
            "unit_price": "34.50",
            "quantity": 1,
            **gift,
        },
        "amount": "34.50",
        "currency": "USD",
        "shipping": SHIPPING,
        "payment_method": {"id": "pm_card_visa", "label": "Visa •••• 4242"},
        "expires_at": "2026-01-01T12:30:00Z",
        "next_step": "Show this summary to the person.",
    }
    return ok(
        "prepare_order", body, {"confirmation_token": "tok-SECRET-123", "correlation_id": "cid-1"}
    )


# --- every state -------------------------------------------------------------------------------------


def test_start_renders_the_brief_form():
    html = render(
        "start_gift_workflow",
        ok("start_gift_workflow", {"workflow_id": WORKFLOW, "current_step": "brief"}),
    )
    assert state(html) == "brief"
    assert (
        'data-testid="brief-form"' in html
        and 'name="interests"' in html
        and 'data-gg-type="list"' in html
    )
    assert json.loads(html_lib.unescape(re.search(r'data-gg-args="([^"]*)"', html).group(1))) == {
        "workflow_id": WORKFLOW
    }


def test_suggestions_render_cards_with_select():
    html = render(
        "suggest_gifts",
        ok("suggest_gifts", {"workflow_id": WORKFLOW, "current_step": "ideas", "gifts": [GIFT]}),
    )
    assert state(html) == "suggestions"
    assert html.count('data-testid="gift-card"') == 1
    assert args_of(html, "select-gift") == {"product_id": 7, "workflow_id": WORKFLOW}
    assert "$34.50" in visible_text(html)
    assert "matches interest" not in visible_text(html)  # the model's sentences never show


def test_reasons_written_for_the_model_are_not_shown_in_other_languages():
    html = render(
        "suggest_gifts",
        ok("suggest_gifts", {"workflow_id": WORKFLOW, "current_step": "ideas", "gifts": [GIFT]}),
        "pl",
    )
    assert "matches interest" not in html
    assert "34,50 USD" in visible_text(html)  # localized number
    assert "Wybierz" in visible_text(html)


def _at_ideas(user, **brief) -> WorkflowContext:
    """A workflow at the ideas step with this brief (a friend, in USD, besides)."""
    return WorkflowContext.objects.create(
        owner=user,
        current_step="ideas",
        visited_steps=["brief", "ideas"],
        brief={"relationship": "friend", "currency": "USD", **brief},
    )


def test_a_card_names_the_interests_the_gift_answers_to_by_tag_or_category(user):
    workflow = _at_ideas(
        user, interests=["tea", "coffee", "outdoors"], budget_min="10", budget_max="80"
    )
    gift = {**GIFT, "tags": ["coffee"], "category": "outdoors"}
    body = {"workflow_id": str(workflow.pk), "current_step": "ideas", "gifts": [gift]}
    text = visible_text(render("suggest_gifts", ok("suggest_gifts", body)))
    named = re.findall(r"Matches the interest “([^”]*)”", text)
    assert named == ["coffee", "outdoors"]  # a tag, then the category; never "tea"


def test_empty_result_shows_the_reason_and_the_concrete_suggestions(user):
    workflow = _at_ideas(user, interests=["coffee", "zzz"], budget_min="1", budget_max="2", age=30)
    body = {
        "workflow_id": str(workflow.pk),
        "current_step": "ideas",
        "gifts": [],
        "no_results_reason": "Products matching these interests exist, but none costs between 1 and 2 USD.",
        "suggestions": [
            {
                "change": "raise_budget_max",
                "field": "budget_max",
                "value": 40,
                "matches": 4,
                "message": "raise",
            },
            {
                "change": "drop_interest",
                "field": "interests",
                "value": "zzz",
                "matches": 0,
                "message": "drop",
            },
            {"change": "drop_age", "field": "age", "value": None, "matches": 2, "message": "age"},
            {
                "change": "use_interests",
                "field": "interests",
                "value": ["tea", "books"],
                "matches": 3,
                "message": "x",
            },
        ],
    }
    html = render("suggest_gifts", ok("suggest_gifts", body))
    assert state(html) == "empty"
    # The person reads a reason built from the change codes, not the model's English sentence.
    assert "Gifts for these interests exist, but none costs between $1.00 and $2.00." in (
        visible_text(html)
    )
    actions = [
        json.loads(html_lib.unescape(raw))
        for raw in re.findall(r'data-gg-args="([^"]*)"[^>]*data-testid="apply-suggestion"', html)
    ]
    assert actions[0]["budget_max"] == 40
    assert actions[1]["interests"] == ["coffee"]
    assert "age" not in actions[2]
    assert actions[3]["interests"] == ["tea", "books"]
    assert all(
        a["workflow_id"] == str(workflow.pk) and a["relationship"] == "friend" for a in actions
    )
    assert "Raise the budget to 40 (4 ideas)" in visible_text(html)


def test_an_empty_result_offers_the_brief_form_when_no_suggestion_can_be_applied(user):
    # The only interest matches nothing: dropping it leaves nothing to search, so no button; the
    # brief form is the way on.
    workflow = _at_ideas(
        user, interests=["underwater basket weaving"], budget_min="500", budget_max="510", age=7
    )
    body = {
        "workflow_id": str(workflow.pk),
        "current_step": "ideas",
        "gifts": [],
        "no_results_reason": "No product in stock matches the interests underwater basket weaving.",
        "suggestions": [
            {
                "change": "drop_interest",
                "field": "interests",
                "value": "underwater basket weaving",
                "matches": 0,
                "message": "drop",
            }
        ],
    }
    html = render("suggest_gifts", ok("suggest_gifts", body), locale="pl-PL")
    assert state(html) == "empty"
    assert 'data-testid="apply-suggestion"' not in html
    form = re.search(r'<form[^>]*data-testid="brief-form"[^>]*>.*?</form>', html, re.S).group(0)
    assert 'data-gg-tool="suggest_gifts"' in form
    assert args_of(form, "brief-form") == {"workflow_id": str(workflow.pk)}
    assert 'value="underwater basket weaving"' in form and 'value="510"' in form
    assert '<option value="friend" selected>' in form
    text = visible_text(html)
    assert "Nic w katalogu nie pasuje do „underwater basket weaving”." in text
    assert "No product in stock" not in text and 'lang="en"' not in html
    assert "Pokaż pomysły na prezent" in text  # the form's button, in Polish


@pytest.mark.parametrize(
    ("suggestions", "english"),
    [
        ([{"change": "raise_budget_max", "value": 40}], "none costs between"),
        ([{"change": "drop_interest", "value": "zzz"}], "Nothing in the catalog matches"),
        ([{"change": "drop_age", "value": None}], "but none for this age"),
        ([{"change": "use_interests", "value": ["tea"]}], "budget and age together"),
    ],
)
@pytest.mark.parametrize("language", ["pl", "uk", "ru", "zh-hans"])
def test_every_no_results_reason_is_translated(suggestions, english, language):
    from django.utils import translation

    from widget.screens.empty import empty_reason

    brief = {"budget_min": "1", "budget_max": "2", "currency": "USD"}
    with translation.override("en"):
        assert english in empty_reason(suggestions=suggestions, brief=brief)
    with translation.override(language):
        translated = empty_reason(suggestions=suggestions, brief=brief)
    assert english not in translated and translated.strip()


def test_search_results_without_a_workflow_cannot_be_selected():
    product = {k: v for k, v in GIFT.items() if k != "match_reasons"}
    html = render(
        "search_products", ok("search_products", {"products": [product], "current_step": None})
    )
    assert state(html) == "suggestions" and 'data-testid="select-gift"' not in html


def test_search_results_in_a_workflow_select_within_that_workflow():
    product = {k: v for k, v in GIFT.items() if k != "match_reasons"}
    workflow_id = str(uuid.uuid4())
    body = {"products": [product], "workflow_id": workflow_id, "current_step": "ideas"}
    html = render("search_products", ok("search_products", body))
    assert state(html) == "suggestions"
    assert args_of(html, "select-gift") == {"product_id": 7, "workflow_id": workflow_id}
    assert f'data-gg-workflow="{workflow_id}"' in html


@pytest.mark.parametrize(
    "products", [[], [{k: v for k, v in GIFT.items() if k != "match_reasons"}]]
)
def test_a_search_in_a_workflow_keeps_the_filters_and_leads_back_to_the_ideas(user, products):
    workflow = _at_ideas(user, interests=["coffee"], budget_min="20", budget_max="60")
    body = {"products": products, "workflow_id": str(workflow.pk), "current_step": "ideas"}
    html = render("search_products", ok("search_products", body), locale="pl")
    assert 'data-testid="filters"' in html and 'data-testid="filter-category"' in html
    assert args_of(html, "back") == {"workflow_id": str(workflow.pk), "step_id": "ideas"}
    assert "Wróć do pomysłów" in visible_text(html)


def test_a_search_without_a_workflow_has_no_filters_and_nowhere_to_go_back_to():
    html = render("search_products", ok("search_products", {"products": [], "current_step": None}))
    assert 'data-testid="filters"' not in html and 'data-testid="back"' not in html


def test_sold_out_search_results_say_so_instead_of_select():
    product = {**{k: v for k, v in GIFT.items() if k != "match_reasons"}, "in_stock": False}
    body = {"products": [product], "workflow_id": str(uuid.uuid4()), "current_step": "ideas"}
    html = render("search_products", ok("search_products", body))
    assert "Sold out" in visible_text(html) and 'data-testid="select-gift"' not in html


def test_selected_gift_offers_checkout_and_back():
    gift = {k: v for k, v in GIFT.items() if k != "match_reasons"}
    html = render(
        "select_gift",
        ok("select_gift", {"workflow_id": WORKFLOW, "current_step": "gift_selected", "gift": gift}),
    )
    assert state(html) == "selected"
    assert args_of(html, "go-to-checkout") == {"workflow_id": WORKFLOW}
    assert args_of(html, "back") == {"workflow_id": WORKFLOW, "step_id": "ideas"}


def test_checkout_form_lists_payment_methods_and_prefills_the_demo_address():
    methods = [
        {
            "id": "pm_card_visa",
            "label": "Visa •••• 4242",
            "brand": "Visa",
            "last4": "4242",
            "description": "ok",
        },
        {
            "id": "pm_card_declined",
            "label": "Visa •••• 0002",
            "brand": "Visa",
            "last4": "0002",
            "description": "declines",
        },
    ]
    body = {
        "workflow_id": WORKFLOW,
        "current_step": "gift_selected",
        "payment_methods": methods,
        "selected_payment_method_id": None,
    }
    html = render("get_payment_methods", ok("get_payment_methods", body))
    assert state(html) == "checkout"
    select = re.search(
        r'<select[^>]*data-testid="payment-method"[^>]*>(.*?)</select>', html, re.S
    ).group(1)
    assert re.findall(r'<option value="([^"]+)"', select) == ["pm_card_visa", "pm_card_declined"]
    for value in SHIPPING.values():
        assert f'value="{value}"' in html
    assert 'data-gg-tool="prepare_order"' in html and "data-gg-idem" in html
    assert 'data-testid="prepare-order"' in html
    assert args_of(html, "back") == {"workflow_id": WORKFLOW, "step_id": "gift_selected"}


def _checkout(workflow_id: str) -> str:
    methods = [{"id": "pm_card_visa", "label": "Visa •••• 4242"}]
    body = {"workflow_id": workflow_id, "current_step": "checkout", "payment_methods": methods}
    return render("get_payment_methods", ok("get_payment_methods", body))


def _address_fields(html: str) -> dict[str, str]:
    """The typed fields, and the country chosen in its drop-down."""
    fields = {
        name: html_lib.unescape(value)
        for name, value in re.findall(r'name="shipping\.(\w+)"[^>]*value="([^"]*)"', html)
    }
    country = re.search(r'name="shipping\.country".*?</select>', html, re.S).group(0)
    chosen = re.search(r'<option value="(\w*)" selected>', country)
    return {**fields, "country": chosen.group(1) if chosen else ""}


def test_checkout_again_keeps_the_address_the_person_entered_in_this_workflow(user):
    from checkout.models import Order

    workflow = WorkflowContext.objects.create(
        owner=user, current_step="checkout", visited_steps=["brief", "ideas", "checkout"]
    )
    ann = {**SHIPPING, "name": "Ann Smith", "line1": "5 Elm Rd", "city": "Kraków"}
    common = {"owner": user, "workflow": workflow, "amount": "34.50", "currency": "USD"}
    Order.objects.create(
        **common,
        payment_method_id="pm_card_visa",
        status="cancelled",
        shipping={**SHIPPING, "name": "Older Entry"},
    )
    # The newest order (declined, compensated) carries what the person typed last.
    Order.objects.create(
        **common, payment_method_id="pm_card_declined", status="failed", shipping=ann
    )
    assert _address_fields(_checkout(str(workflow.pk))) == ann


def test_checkout_starts_empty_for_a_real_person_and_with_the_demo_address_only_in_the_demo(
    user, settings
):
    workflow = WorkflowContext.objects.create(owner=user, current_step="gift_selected")
    settings.WIDGET_DEMO_SHIPPING = False
    assert _address_fields(_checkout(str(workflow.pk))) == dict.fromkeys(SHIPPING, "")
    settings.WIDGET_DEMO_SHIPPING = True
    assert _address_fields(_checkout(str(workflow.pk))) == SHIPPING


def test_summary_puts_the_confirmation_token_only_in_the_confirm_button():
    html = render("prepare_order", prepared())
    assert state(html) == "summary"
    confirm = args_of(html, "confirm-purchase")
    assert confirm == {
        "workflow_id": WORKFLOW,
        "order_id": ORDER,
        "confirmation_token": "tok-SECRET-123",
    }
    assert html.count("tok-SECRET-123") == 1
    assert "tok-SECRET-123" not in visible_text(html)
    assert "data-gg-idem" in re.search(
        r'<button[^>]*data-testid="confirm-purchase"[^>]*>', html
    ).group(0)
    # Back returns to the checkout form (a read), not past it to the chosen gift.
    assert args_of(html, "back") == {"workflow_id": WORKFLOW}
    assert 'data-gg-tool="get_payment_methods"' in re.search(
        r'<button[^>]*data-testid="back"[^>]*>', html
    ).group(0)
    assert "Show this summary" not in html  # model-facing text is not shown


@pytest.mark.parametrize(
    ("locale", "text"),
    [("en", "We hold the gift for you until"), ("pl", "Rezerwujemy dla ciebie prezent do")],
)
def test_summary_says_until_when_the_gift_is_held(locale, text):
    shown = visible_text(render("prepare_order", prepared(), locale=locale))
    assert text in shown
    assert "%(" not in shown


@pytest.mark.parametrize(
    ("status", "testid"),
    [
        ("completed", "follow-up"),
        ("payment_pending", "check-again"),
        ("processing", "check-again"),
    ],
)
def test_commit_outcomes_are_statuses_with_a_next_action(status, testid):
    body = {
        "workflow_id": WORKFLOW,
        "current_step": "checkout",
        "order_id": ORDER,
        "status": status,
        "amount": "34.50",
        "currency": "USD",
        "message": "model text",
    }
    html = render("commit_order", ok("commit_order", body))
    assert f'data-testid="order-status" data-status="{status}"' in html
    assert f'data-testid="{testid}"' in html
    assert "model text" not in html
    if testid == "check-again":
        assert args_of(html, "check-again") == {"order_id": ORDER}


def test_a_completed_order_offers_chat_follow_ups_only_where_there_is_a_host():
    body = {"workflow_id": WORKFLOW, "order_id": ORDER, "status": "completed", "amount": "34.50",
            "currency": "USD"}  # fmt: skip
    outcome = ok("commit_order", body)
    hosted = render_fragment(tool="commit_order", outcome=outcome, locale="en")
    page = render_fragment(tool="commit_order", outcome=outcome, locale="en", hosted=False)
    assert 'data-testid="follow-up"' in hosted and "Write a card message" in hosted
    assert "data-gg-follow-up" not in page and "Write a card message" not in page
    for html in (hosted, page):  # a tool too: on the standalone page it starts a new search
        start = re.search(r'<button[^>]*data-testid="start-over"[^>]*>([^<]*)<', html)
        assert start.group(1) == "Find another gift"
        assert 'data-gg-tool="start_gift_workflow"' in start.group(0)
        assert 'data-gg-followup="Let' in start.group(0)  # in a host: asks the model


def test_a_failed_order_shows_its_banner_and_another_payment_method():
    body = {
        "order_id": ORDER, "workflow_id": WORKFLOW, "status": "failed", "amount": "34.50", "currency": "USD",
        "gift": None, "shipping": {}, "payment_method": {"id": "pm_card_declined", "label": "Visa"},
        "created_at": "2026-01-01T12:00:00Z", "expires_at": None, "payments": [], "saga": [],
        "failure": {"code": "CARD_DECLINED", "message": "model text", "retryable": False},
    }  # fmt: skip
    html = render("get_order", ok("get_order", body), "ru")
    assert 'data-status="failed"' in html
    assert "Ваша карта отклонена" in visible_text(html)
    assert args_of(html, "go-to-checkout") == {"workflow_id": WORKFLOW}


def test_a_cancelled_order_shows_the_refund():
    body = {
        "order_id": ORDER,
        "status": "cancelled",
        "already_cancelled": False,
        "refunded_amount": "34.50",
        "currency": "USD",
        "message": "m",
    }
    html = render("cancel_order", ok("cancel_order", body))
    assert 'data-status="cancelled"' in html and "$34.50" in visible_text(html)


@pytest.mark.parametrize("code", sorted(ERROR_CATALOG))
def test_every_error_code_renders_a_banner_without_the_code_or_the_message(code):
    html = render(
        "commit_order", failed("commit_order", code, message=f"secret detail {code} at /srv/app.py")
    )
    assert f'data-error-code="{code}"' in html
    text = visible_text(html)
    assert str(ERROR_CATALOG[code].banner) in text
    assert code not in text and "secret detail" not in html and "/srv/app.py" not in html
    if ERROR_CATALOG[code].retryable:
        assert 'data-testid="retry"' in html and "data-gg-retry" in html
    else:
        assert 'data-testid="retry"' not in html


@pytest.mark.parametrize(
    ("code", "testid", "tool"),
    [
        ("CARD_DECLINED", "change-payment", "get_payment_methods"),
        ("INSUFFICIENT_FUNDS", "change-payment", "get_payment_methods"),
        ("ORDER_EXPIRED", "review-order", "get_payment_methods"),
        ("OUT_OF_STOCK", "show-step", "get_workflow"),
        ("TOOL_NOT_AVAILABLE_IN_STEP", "show-step", "get_workflow"),
        ("NOT_FOUND", "start-over", "start_gift_workflow"),
        ("RETRY_LIMIT_EXCEEDED", "start-over", "start_gift_workflow"),
    ],
)
def test_non_retryable_errors_say_what_to_change(code, testid, tool):
    html = render("commit_order", failed("commit_order", code))
    button = re.search(rf'<button[^>]*data-testid="{testid}"[^>]*>', html).group(0)
    assert f'data-gg-tool="{tool}"' in button


def test_start_over_asks_the_model_in_chatgpt():
    html = render("commit_order", failed("commit_order", "NOT_FOUND"))
    assert "data-gg-followup=" in re.search(
        r'<button[^>]*data-testid="start-over"[^>]*>', html
    ).group(0)


def test_retryable_payment_errors_offer_another_card_too():
    html = render("commit_order", failed("commit_order", "PAYMENT_TIMEOUT"))
    assert 'data-testid="retry"' in html and 'data-testid="change-payment"' in html


def test_going_back_redraws_the_ideas_from_the_workflow(user, demo_catalog):
    from gifts.models import Product, WorkflowContext

    # Three ideas and a variant of the first, offered beside it: one card per family.
    by_family = {}
    for product in Product.objects.filter(active=True, stock__gt=0).exclude(family=""):
        by_family.setdefault(product.family, []).append(product)
    families = [members for members in by_family.values() if len(members) > 1][:3]
    products = [members[0] for members in families]
    workflow = WorkflowContext.objects.create(
        owner=user,
        current_step="ideas",
        visited_steps=["brief", "ideas"],
        last_suggestions=[p.pk for p in products] + [families[0][1].pk],
    )
    body = {
        "workflow_id": str(workflow.pk),
        "current_step": "ideas",
        "invalidated": ["selected gift 1"],
        "allowed_tools": [],
    }
    html = render("user_navigated_to_step", ok("user_navigated_to_step", body))
    assert state(html) == "suggestions"
    assert html.count('data-testid="gift-card"') == 3
    assert [c for c in re.findall(r'data-product-id="(\d+)"', html)] == [
        str(p.pk) for p in products
    ]


def test_get_workflow_at_brief_shows_the_form_with_the_brief_filled_in(user):
    workflow = WorkflowContext.objects.create(
        owner=user, current_step="brief", visited_steps=["brief"],
        brief={"relationship": "mother", "interests": ["tea", "garden"], "budget_min": "5", "budget_max": "50", "currency": "USD"},
    )  # fmt: skip
    html = render(
        "get_workflow",
        ok("get_workflow", {"workflow_id": str(workflow.pk), "current_step": "brief"}),
    )
    assert state(html) == "brief"
    assert 'value="tea, garden"' in html and '<option value="mother" selected>' in html


@pytest.mark.parametrize("step", ["checkout", "completed", "failed"])
def test_get_workflow_later_steps_offer_the_next_action(user, step):
    workflow = WorkflowContext.objects.create(
        owner=user, current_step=step, visited_steps=["brief", step]
    )
    html = render(
        "get_workflow", ok("get_workflow", {"workflow_id": str(workflow.pk), "current_step": step})
    )
    assert state(html) == "resume"
    assert ('data-testid="go-to-checkout"' in html) == (step == "checkout")


def test_unknown_tools_render_a_plain_done():
    assert state(render("future_tool", ok("future_tool", {}))) == "done"


# --- escaping --------------------------------------------------------------------------------------


def test_user_data_is_escaped_in_cards():
    evil = {**GIFT, "name": EVIL, "description": EVIL, "tags": [EVIL], "match_reasons": [EVIL]}
    html = render(
        "suggest_gifts",
        ok("suggest_gifts", {"workflow_id": WORKFLOW, "current_step": "ideas", "gifts": [evil]}),
    )
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
    assert 'aria-label="Select &lt;script&gt;' in html


def test_user_data_is_escaped_in_the_summary_and_the_address():
    outcome = prepared(name=EVIL)
    outcome.body["shipping"] = {**SHIPPING, "name": EVIL, "line1": '" onmouseover="alert(1)'}
    html = render("prepare_order", outcome)
    assert "<script>" not in html and "<img" not in html and '" onmouseover' not in html
    assert EVIL in visible_text(html)  # shown as text, exactly as typed


def test_fragments_have_no_inline_script_style_or_handlers():
    samples = [
        render("prepare_order", prepared()),
        render("commit_order", failed("commit_order", "PAYMENT_TIMEOUT")),
        render(
            "suggest_gifts",
            ok(
                "suggest_gifts", {"workflow_id": WORKFLOW, "current_step": "ideas", "gifts": [GIFT]}
            ),
        ),
        render(
            "start_gift_workflow",
            ok("start_gift_workflow", {"workflow_id": WORKFLOW, "current_step": "brief"}),
        ),
    ]
    for html in samples:
        assert "<script" not in html and "<style" not in html
        assert not re.search(r"\sstyle=", html)
        assert not re.search(r"\son[a-z]+=", html)
        assert "hx-on" not in html and "js:" not in html and "hx-vals" not in html


def test_each_render_is_a_new_view_with_the_contract_version():
    outcome = prepared()
    first, second = render("prepare_order", outcome), render("prepare_order", outcome)
    view = re.compile(r'data-gg-view="([0-9a-f]{32})"')
    assert view.search(first).group(1) != view.search(second).group(1)  # a new view → new keys
    assert 'data-gg-contract="v1"' in first
    uuid.UUID(view.search(first).group(1))
