"""The scene form's walls text: one segment per line, `x1 y1 x2 y2` and then
its kind, read into the scene contract's list and written back; a line that
cannot be read is refused with its number and what is wrong with it."""

import pytest
from django import forms

from vtt.web.gm_forms import SceneEditForm, read_walls, walls_text

EVERY_KIND = [
    [0, 0, 12, 0],
    [3, 2, 3, 7, "window"],
    [4, 4, 5, 4, "door"],
    [5, 4, 6, 4, "door", "open"],
    [6, 4, 7, 4, "door", "locked"],
    [0.5, 1, 2, 1.5],
]
EVERY_KIND_TEXT = "\n".join(
    [
        "0 0 12 0",
        "3 2 3 7 window",
        "4 4 5 4 door",
        "5 4 6 4 door open",
        "6 4 7 4 door locked",
        "0.5 1 2 1.5",
    ]
)


def test_every_kind_is_read_into_the_contract_list():
    assert read_walls(EVERY_KIND_TEXT) == EVERY_KIND


def test_the_list_is_written_as_the_text_it_is_read_from():
    assert walls_text(EVERY_KIND) == EVERY_KIND_TEXT
    assert read_walls(walls_text(EVERY_KIND)) == EVERY_KIND


def test_no_walls_is_no_text():
    assert walls_text([]) == walls_text(None) == ""
    assert read_walls("\n  \n") == []


@pytest.mark.parametrize(
    ("line", "wall"),
    [
        ("1, 2, 3, 4", [1, 2, 3, 4]),
        ("1 2 3 4 wall", [1, 2, 3, 4]),
        ("1 2 3 4 DOOR Locked", [1, 2, 3, 4, "door", "locked"]),
        ("1 2 3 4 door closed", [1, 2, 3, 4, "door"]),
        ("  1.0 2 3 4   Window  ", [1, 2, 3, 4, "window"]),
    ],
)
def test_the_ways_a_line_may_be_written(line, wall):
    assert read_walls(line) == [wall]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("1 2 3", "line 1: a segment starts with four numbers x1 y1 x2 y2, not '1 2 3'"),
        ("1 2 3 door", "line 1: a segment starts with four numbers x1 y1 x2 y2, not '1 2 3 door'"),
        ("0 0 1 1\n\n0 y 1 1", "line 3: y1 is 'y', not a number"),
        ("nan 0 1 1", "line 1: x1 is 'nan', not a number"),
        ("0 0 1 inf", "line 1: y2 is 'inf', not a number"),
        ("0x10 0 1 1", "line 1: x1 is '0x10', not a number"),
        ("0 1_0 1 1", "line 1: y1 is '1_0', not a number"),
        ("0 0 1e999 1", "line 1: x2 is '1e999', not a number"),
        ("0 0 1 1 gate", "line 1: 'gate' is not a kind; write nothing for a wall, or window"),
        ("0 0 1 1 door ajar", "line 1: a door is closed, open or locked, not 'ajar'"),
        ("0 0 1 1 window open", "line 1: unexpected 'open' after 'window'"),
        ("0 0 1 1 door open locked", "line 1: unexpected 'open locked' after 'door'"),
    ],
)
def test_a_line_that_cannot_be_read_is_refused_by_its_number(text, said):
    with pytest.raises(forms.ValidationError) as refused:
        read_walls(text)
    assert refused.value.messages[0].startswith(said)


def scene_form(walls):
    return SceneEditForm({"name": "Crypt", "width": "10", "height": "8", "walls": walls})


def test_the_form_posts_the_list_and_the_vision_flags():
    form = scene_form("0 0 3 0\n3 0 3 2 door open")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["walls"] == [[0, 0, 3, 0], [3, 0, 3, 2, "door", "open"]]
    # An unticked box posts nothing: fog off, and the scene dark.
    assert form.cleaned_data["fog"] is False and form.cleaned_data["lit"] is False


def test_the_form_shows_the_bad_line_on_the_walls_field():
    form = scene_form("0 0 3 0\n3 0 3 two")
    assert not form.is_valid()
    assert form.errors["walls"] == ["line 2: y2 is 'two', not a number"]


@pytest.mark.parametrize(
    ("field", "message", "said"),
    [
        (
            "walls[1][2]",
            "walls[1][2]: must be between 0 and 10, not 50",
            "line 3, x2: must be between 0 and 10, not 50",
        ),
        (
            "walls[0]",
            "walls[0]: a wall needs two different ends",
            "line 1: a wall needs two different ends",
        ),
        (
            "walls[1][5]",
            "walls[1][5]: a window may be followed by nothing",
            "line 3, its state: a window may be followed by nothing",
        ),
        ("walls", "walls: must have at most 2000 items", "walls: must have at most 2000 items"),
        ("walls[7]", "walls[7]: no such item", "walls[7]: no such item"),
    ],
)
def test_a_refusal_of_the_service_names_the_line_it_came_from(field, message, said):
    # Blank lines count in the GM's numbering, not in the list's.
    form = scene_form("0 0 1 0\n\n0 0 50 0 door")
    assert form.wall_error(field, message) == said
