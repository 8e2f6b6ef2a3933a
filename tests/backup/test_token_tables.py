"""An import rewrites the ids inside a scene change's table of tokens (its
rows and its defaults), as it does inside a list of tokens."""

from vtt.records.backup.ids import SCENE, TOKEN, USER, NewIds, rewrite
from vtt.tabletop.serialize import TOKEN_DEFAULTS, table_tokens, tokens_table

CHARACTER = "tabletop.character"


def test_a_table_of_tokens_gets_the_new_ids():
    old = [
        {"id": 11, "name": "Statue", "x": 1, "y": 2, "color": "#888888", "version": 1},
        {
            "id": 12,
            "name": "Hero",
            "x": 3,
            "y": 4,
            "color": "#2266aa",
            "version": 5,
            "character_id": 21,
            "controllers": [31],
            "art": {"url": "/m/a.png", "thumb_128": "/m/a.png", "thumb_256": "/m/a.png"},
            "art_from": "character",
        },
    ]
    table = tokens_table(old, {**TOKEN_DEFAULTS, "scene_id": 7})
    ids = NewIds({TOKEN: {11: 111, 12: 112}, SCENE: {7: 77}, CHARACTER: {21: 221}, USER: {31: 331}})
    data = rewrite(
        {"scene": {"id": 7, "name": "Hall"}, "tokens": table}, ids, {"/m/a.png": "/n/b.png"}
    )

    assert data["scene"]["id"] == 77
    assert data["tokens"]["defaults"]["scene_id"] == 77
    tokens = table_tokens(data["tokens"])
    assert [(t["id"], t["scene_id"]) for t in tokens] == [(111, 77), (112, 77)]
    assert (tokens[1]["character_id"], tokens[1]["controllers"]) == (221, [331])
    assert tokens[1]["art"]["url"] == "/n/b.png"
    # Still a table whose plain rows stop after `version`.
    assert len(data["tokens"]["rows"][0]) == 6


def test_a_table_without_what_players_are_filtered_by_is_refused():
    """An archive's scene change must say which tokens are hidden."""
    import pytest

    from vtt.tabletop import event_kinds

    table = tokens_table([], {**TOKEN_DEFAULTS, "scene_id": 7})
    scene = {"id": 7, "name": "Hall", "width": 5, "height": 5, "background": None, "walls": []}
    event_kinds.check("scene.activated", {"scene": scene, "tokens": table}, "public")
    at = table["fields"].index("hidden")
    without = {**table, "fields": table["fields"][:at] + table["fields"][at + 1 :]}
    with pytest.raises(event_kinds.InvalidEvent):
        event_kinds.check("scene.activated", {"scene": scene, "tokens": without}, "public")
    short = {**table, "rows": [[1, "A", 0, 0, "#888888", 1]], "defaults": {}}
    with pytest.raises(event_kinds.InvalidEvent):
        event_kinds.check("scene.activated", {"scene": scene, "tokens": short}, "public")
