"""The checkout form as a person fills it: countries by name in their language, an error beside
the field it is about with everything typed kept, and times in their own time zone."""

from __future__ import annotations

import html as html_lib
import json
import re
from datetime import UTC, datetime

import pytest
from django.test import Client
from django.utils import translation

from checkout.models import Order
from checkout.schemas import COUNTRY_CODES
from tests.fixtures import SHIPPING, gift_selected, make_product, new_key
from tool_runtime.outcome import ToolOutcome
from widget.formatting import country_choices, in_time_zone, local_time
from widget.rendering import render_fragment
from widget.screens.checkout import FIELD_HINTS, UNPRINTABLE_HINT

pytestmark = pytest.mark.django_db(databases=["default", "payment_ledger"])

LANGUAGES = ["en", "pl", "uk", "ru", "zh-hans"]
POLAND = {"en": "Poland", "pl": "Polska", "uk": "Польща", "ru": "Польша", "zh-hans": "波兰"}
WORKFLOW = "3f2b8c1e-6d4a-4f7b-9c2e-1a5d7e9f0b34"
METHODS = [{"id": "pm_card_visa", "label": "Visa •••• 4242"}]


def checkout_form(locale: str = "en", shipping: dict | None = None) -> str:
    body = {"ok": True, "workflow_id": WORKFLOW, "current_step": "checkout"}
    body["payment_methods"] = METHODS
    outcome = ToolOutcome("get_payment_methods", body, {}, 200, "c")
    return render_fragment(tool="get_payment_methods", outcome=outcome, locale=locale)


def country_options(html: str) -> list[tuple[str, str]]:
    select = re.search(r'<select[^>]*name="shipping\.country".*?</select>', html, re.S).group(0)
    return [
        (code, html_lib.unescape(name))
        for code, name in re.findall(r'<option value="(\w*)"[^>]*>([^<]*)</option>', select)
    ]


def chosen_country(html: str) -> str:
    select = re.search(r'<select[^>]*name="shipping\.country".*?</select>', html, re.S).group(0)
    found = re.search(r'<option value="(\w*)" selected>', select)
    return found.group(1) if found else ""


def typed(html: str) -> dict[str, str]:
    fields = {
        name: html_lib.unescape(value)
        for name, value in re.findall(r'name="shipping\.(\w+)"[^>]*value="([^"]*)"', html)
    }
    return {**fields, "country": chosen_country(html)}


def field_errors(html: str) -> dict[str, str]:
    return {
        field: html_lib.unescape(text)
        for field, text in re.findall(
            r'data-testid="field-error" data-field="([^"]+)">([^<]*)</p>', html
        )
    }


# --- the country drop-down -------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_country_is_chosen_from_every_iso_country_named_in_the_persons_language(language):
    options = country_options(checkout_form(language))
    placeholder, countries = options[0], options[1:]
    assert placeholder[0] == ""  # nothing chosen is not a country
    assert sorted(code for code, _name in countries) == sorted(COUNTRY_CODES)
    assert dict(countries)["PL"] == POLAND[language]
    assert not any(name == code for code, name in countries)  # every one has a name


def test_countries_are_in_alphabetical_order_with_accents_sorting_beside_their_letter():
    with translation.override("en"):
        names = [name for _code, name in country_choices(COUNTRY_CODES)]
    assert names[0] == "Afghanistan"
    assert names.index("Åland Islands") < names.index("Albania")  # not after "Zimbabwe"
    with translation.override("pl"):
        polish = [name for _code, name in country_choices(COUNTRY_CODES)]
    assert polish.index("Niemcy") < polish.index("Polska") < polish.index("Włochy")


def test_the_form_starts_with_the_demo_country_chosen(settings):
    settings.WIDGET_DEMO_SHIPPING = True
    assert chosen_country(checkout_form()) == "US"
    settings.WIDGET_DEMO_SHIPPING = False
    assert chosen_country(checkout_form()) == ""


@pytest.mark.parametrize("language", ["pl", "uk", "ru", "zh-hans"])
def test_the_forms_words_are_translated(language):
    words = [
        *FIELD_HINTS.values(),
        UNPRINTABLE_HINT,
        *map(
            translation.gettext_lazy,
            ["Country", "Choose a country", "Please correct the marked fields."],
        ),
    ]
    for text in words:
        with translation.override("en"):
            english = str(text)
        with translation.override(language):
            assert str(text) != english, (english, language)


# --- a refused form: the error beside its field, the typed values kept ----------------------------


@pytest.fixture
def person(user) -> Client:
    client = Client(SERVER_NAME="127.0.0.1")
    client.force_login(user)
    return client


@pytest.fixture
def workflow_id(api) -> str:
    return gift_selected(api, make_product())


def send_form(client: Client, arguments: dict, *, locale: str = "en", zone: str = "") -> str:
    headers = {"HTTP_X_GG_LOCALE": locale}
    if zone:
        headers["HTTP_X_GG_TIME_ZONE"] = zone
    response = client.post(
        "/widget/actions/prepare_order",
        data=json.dumps(arguments),
        content_type="application/json",
        **headers,
    )
    assert response.status_code == 200
    return response.content.decode()


def form_arguments(workflow_id: str, **shipping) -> dict:
    return {
        "workflow_id": workflow_id,
        "payment_method_id": "pm_card_declined",
        "shipping": {**SHIPPING, **shipping},
        "idempotency_key": new_key(),
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_country_stands_beside_the_country_with_everything_typed_kept(
    person, workflow_id, language
):
    arguments = form_arguments(
        workflow_id, name="Zoë O'Brien", line1="12 <Market> St", country="Po"
    )
    html = send_form(person, arguments, locale=language)
    assert re.search(r'data-gg-state="checkout"', html)  # the form, not a page-level banner
    assert "error-banner" not in html
    with translation.override(language):
        hint = translation.gettext("Choose the country from the list.")
    assert field_errors(html) == {"shipping.country": hint}
    assert typed(html) == {**arguments["shipping"], "country": ""}  # "Po" is no country
    assert "12 &lt;Market&gt; St" in html  # what was typed is escaped, never markup
    # The person's payment method stays chosen.
    assert re.search(r'<option value="pm_card_declined" selected>', html)
    # The country is marked for assistive technology and takes the focus.
    select = re.search(r'<select[^>]*name="shipping\.country"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in select and "data-gg-focus" in select
    described = re.search(r'aria-describedby="([^"]+)"', select).group(1)
    assert f'id="{described}"' in html
    assert not Order.objects.filter(workflow_id=workflow_id).exists()  # nothing half-written


def test_every_field_validation_refused_is_marked_not_only_the_first(person, workflow_id):
    arguments = form_arguments(workflow_id, postal_code="!", city="", country="XX")
    errors = field_errors(send_form(person, arguments))
    assert set(errors) == {"shipping.postal_code", "shipping.city", "shipping.country"}
    assert typed(send_form(person, arguments))["postal_code"] == "!"


def test_control_characters_are_named_beside_their_field(person, workflow_id):
    html = send_form(person, form_arguments(workflow_id, name="Ann\u202eSmith"))
    assert field_errors(html) == {
        "shipping.name": "Remove the invisible control characters from this field."
    }


def test_a_business_rule_about_a_field_shows_its_banner_beside_the_field(person, workflow_id):
    arguments = form_arguments(workflow_id)
    arguments["payment_method_id"] = "pm_nope"
    html = send_form(person, arguments, locale="pl")
    errors = field_errors(html)
    assert list(errors) == ["payment_method_id"]
    assert "Something in the request" not in errors["payment_method_id"]
    assert typed(html) == SHIPPING


@pytest.mark.parametrize(
    ("error", "arguments"),
    [
        # Not about a field of the form: the banner says what to do.
        ({"code": "OUT_OF_STOCK"}, {"workflow_id": WORKFLOW}),
        ({"code": "VALIDATION_ERROR", "field": "idempotency_key"}, {"workflow_id": WORKFLOW}),
        # About a field, but with no workflow to go on with.
        ({"code": "VALIDATION_ERROR", "field": "shipping.city"}, {"workflow_id": "nope"}),
        ({"code": "VALIDATION_ERROR", "field": "shipping.city"}, ["not", "an", "object"]),
    ],
)
def test_errors_the_form_cannot_show_stay_banners(error, arguments):
    body = {"ok": False, "error": {"message": "m", "retryable": False, **error}}
    outcome = ToolOutcome("prepare_order", body, {}, 400, "c")
    html = render_fragment(tool="prepare_order", outcome=outcome, locale="en", arguments=arguments)
    assert 'data-gg-state="error"' in html


def test_only_text_is_shown_again():
    body = {"ok": False, "error": {"code": "VALIDATION_ERROR", "field": "shipping.city"}}
    outcome = ToolOutcome("prepare_order", body, {}, 400, "c")
    arguments = {
        "workflow_id": WORKFLOW,
        "payment_method_id": {"$gt": ""},
        "shipping": {"name": ["A"], "line1": 12, "city": "x" * 5000, "country": "PL"},
    }
    html = render_fragment(tool="prepare_order", outcome=outcome, locale="en", arguments=arguments)
    kept = typed(html)
    assert kept["name"] == "" and kept["line1"] == ""
    assert len(kept["city"]) == 200 and kept["country"] == "PL"


# --- times in the person's own time zone ---------------------------------------------------------

MOMENT = datetime(2026, 3, 14, 4, 43, tzinfo=UTC)


@pytest.mark.parametrize(
    ("language", "tokyo", "utc"),
    [
        ("en", "1:43\u202fPM", "4:43\u202fAM UTC"),
        ("pl", "13:43", "04:43 UTC"),
        ("uk", "13:43", "04:43 UTC"),
        ("ru", "13:43", "04:43 UTC"),
        ("zh-hans", "13:43", "04:43 UTC"),
    ],
)
def test_a_time_is_written_in_the_persons_zone_and_language(language, tokyo, utc):
    with translation.override(language):
        with in_time_zone("Asia/Tokyo"):
            assert local_time(MOMENT) == tokyo
            assert local_time(MOMENT.isoformat()) == tokyo
        # Where nobody said which zone, the time says it is UTC.
        assert local_time(MOMENT) == utc
        assert local_time(None) == ""


def test_a_zone_that_is_not_one_is_ignored():
    body = {"ok": True, "workflow_id": WORKFLOW, "current_step": "checkout", "order_id": WORKFLOW}
    body.update(expires_at=MOMENT.isoformat(), amount="30.00", currency="USD", shipping=SHIPPING)
    outcome = ToolOutcome("prepare_order", body, {}, 200, "c")
    for zone in ("Mars/Olympus", "../../etc/localtime", "", None):
        html = render_fragment(tool="prepare_order", outcome=outcome, locale="en", time_zone=zone)
        assert "4:43\u202fAM UTC" in html_lib.unescape(html)


@pytest.mark.parametrize(
    ("zone", "language"), [("America/New_York", "en"), ("Europe/Warsaw", "pl")]
)
def test_the_review_says_until_when_in_the_zone_the_browser_sent(
    person, workflow_id, zone, language
):
    html = html_lib.unescape(
        send_form(person, form_arguments(workflow_id), locale=language, zone=zone)
    )
    order = Order.objects.get(workflow_id=workflow_id)
    with translation.override(language), in_time_zone(zone):
        expected = local_time(order.expires_at)
    assert expected in html
    assert "UTC" not in html
