"""What the wheel register records and checks (issue 31, item 4). A Roulette wheel's compartments:
"The color of each compartment must either be a corresponding color to those depicted on the ring or
a neutral color as approved in accordance with § 601a.10(a)" (58 Pa. Code § 617a.1(c), (d)): the
register records which, and a neutral colour with the Bureau's approval's reference. A Big Six
wheel's glass, odds on each section and clapper (§ 619a.1(a), (d), (e), proposed): stated at
registration. A wheel without them is refused at every jurisdiction's property (New Jersey's and
Section 4's borrow the paragraphs, saying so)."""

import pytest

from compliance.casinos.models import Wheel
from compliance.rulebook import pa
from tests.compliance.test_wheels import big_six_body, post_wheel, roulette_body
from tests.factories import PropertyFactory
from tests.support.people import staff_of

TEXT = {"NJ": "N.J.A.C. 19:47-5", "S4": "Section 4"}


@pytest.fixture(params=["PA", "NJ", "S4"])
def any_casino(request, db):
    return staff_of(PropertyFactory(jurisdiction=request.param, licence_number=f"{request.param}-C"))


def cited(paragraph: str, code: str) -> str:
    if code == "PA":
        return paragraph
    return f"{paragraph} (applied by policy: {TEXT[code]} sets no equipment standard)"


def errors_of(response) -> list[tuple[str, str, str]]:
    assert response.status_code == 400, response.content
    return [(e["code"], e["citation"], e["field"]) for e in response.json()["errors"]]


def code_of(staff) -> str:
    return staff.property.jurisdiction


def test_a_wheel_coloured_as_its_ring_is_registered_so(any_casino):
    response = post_wheel(any_casino, **roulette_body())
    assert response.status_code == 201, response.content
    assert response.json()["compartments"] == "ring"
    wheel = Wheel.objects.get()
    assert (wheel.compartments, wheel.compartment_colour, wheel.compartment_approval) == ("ring", "", "")


@pytest.mark.parametrize(
    ("wheel_type", "order", "paragraph"),
    [
        ("single_zero", pa.SINGLE_ZERO_ORDER, "58 Pa. Code § 617a.1(c)"),
        ("double_zero", pa.DOUBLE_ZERO_ORDER, "58 Pa. Code § 617a.1(d)"),
    ],
)
def test_a_wheel_that_does_not_say_how_its_compartments_are_coloured_is_refused(
    any_casino, wheel_type, order, paragraph
):
    body = roulette_body(order, wheel_type)
    del body["compartments"]
    assert errors_of(post_wheel(any_casino, **body)) == [
        ("wheel_compartment_colours", cited(paragraph, code_of(any_casino)), "compartments")
    ]
    assert not Wheel.objects.exists()


def test_a_neutral_colour_is_registered_with_the_bureaus_approval(any_casino):
    body = {
        **roulette_body(),
        "compartments": "neutral",
        "compartment_colour": "Silver",
        "compartment_approval": "BGO-EQ-2026-0042",
    }
    response = post_wheel(any_casino, **body)
    assert response.status_code == 201, response.content
    wheel = Wheel.objects.get()
    assert (wheel.compartments, wheel.compartment_colour, wheel.compartment_approval) == (
        "neutral",
        "Silver",
        "BGO-EQ-2026-0042",
    )


def test_a_neutral_colour_without_its_colour_or_approval_is_refused(any_casino):
    citation = cited("58 Pa. Code § 617a.1(d)", code_of(any_casino))
    body = {**roulette_body(), "compartments": "neutral"}
    assert errors_of(post_wheel(any_casino, **body)) == [
        ("wheel_compartment_colours_neutral", citation, "compartment_colour"),
        ("wheel_compartment_colours_neutral", citation, "compartment_approval"),
    ]
    body["compartment_colour"] = "Silver"
    assert errors_of(post_wheel(any_casino, **body)) == [
        ("wheel_compartment_colours_neutral", citation, "compartment_approval"),
    ]
    assert not Wheel.objects.exists()


def test_compartments_coloured_as_the_ring_name_no_neutral_colour(any_casino):
    body = {**roulette_body(), "compartment_approval": "BGO-EQ-2026-0042"}
    assert errors_of(post_wheel(any_casino, **body)) == [
        (
            "wheel_compartment_colours_as_ring",
            cited("58 Pa. Code § 617a.1(d)", code_of(any_casino)),
            "compartment_approval",
        )
    ]


def test_a_big_six_wheel_has_no_roulette_compartments(any_casino):
    response = post_wheel(any_casino, **big_six_body(), compartments="ring")
    assert [(code, field) for code, _, field in errors_of(response)] == [("big_six_not_roulette", "compartments")]
    assert post_wheel(any_casino, **big_six_body()).status_code == 201
    assert Wheel.objects.get().compartments == ""


# ---- A Big Six wheel: glass, odds on each section, a clapper (§ 619a.1(a), (d), (e), proposed) ----

PARTS = [
    ("sections_under_glass", "58 Pa. Code § 619a.1(a) (proposed, 41 Pa.B. 3000)"),
    ("sections_show_odds", "58 Pa. Code § 619a.1(d) (proposed, 41 Pa.B. 3000)"),
    ("clapper", "58 Pa. Code § 619a.1(e) (proposed, 41 Pa.B. 3000)"),
]


def big_six_cited(paragraph: str, code: str) -> str:
    if code == "PA":
        return paragraph
    return f"{paragraph} (applied by policy: {TEXT[code]} sets no such Big Six rule)"


def test_a_big_six_wheel_is_registered_stating_its_glass_odds_and_clapper(any_casino):
    response = post_wheel(any_casino, **big_six_body())
    assert response.status_code == 201, response.content
    wheel = Wheel.objects.get()
    assert (wheel.sections_under_glass, wheel.sections_show_odds, wheel.clapper) == (True, True, True)
    assert {name: response.json()[name] for name, _ in PARTS} == dict.fromkeys((n for n, _ in PARTS), True)


@pytest.mark.parametrize(("part", "paragraph"), PARTS)
@pytest.mark.parametrize("stated", [None, False])
def test_a_big_six_wheel_without_one_of_them_is_refused_citing_its_paragraph(any_casino, part, paragraph, stated):
    body = big_six_body()
    if stated is None:
        del body[part]
    else:
        body[part] = stated
    assert errors_of(post_wheel(any_casino, **body)) == [
        ("big_six_wheel_part", big_six_cited(paragraph, code_of(any_casino)), part)
    ]
    assert not Wheel.objects.exists()


def test_a_roulette_wheel_states_none_of_them(any_casino):
    body = {**roulette_body(), "clapper": True}
    assert [(code, field) for code, _, field in errors_of(post_wheel(any_casino, **body))] == [
        ("roulette_not_big_six", "clapper")
    ]
    assert post_wheel(any_casino, **roulette_body()).status_code == 201
    assert Wheel.objects.get().clapper is None
