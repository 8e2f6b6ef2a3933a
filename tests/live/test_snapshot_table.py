"""A snapshot's tokens as a table (docs/protocol.md, "Tokens as a table"):
decoded, on the server and by the browser's state.js, they are exactly the
tokens token_data gives, field by field, for the GM and for a player; a
player's table has no row for a hidden token nor, with fog, for one their
party does not see; a socket that names protocol 2 gets the table, one that
names no version the list. (The browser's decoding against the list:
test_snapshot_table_js.py, apart because its Chromium runs its own loop.)"""

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from tests.live.conftest import make_room
from vtt.live import room_reads
from vtt.markers.services import marker_add
from vtt.tabletop import services
from vtt.tabletop.models import Character, Role, Scene, Token
from vtt.tabletop.policy import viewer_in
from vtt.tabletop.selectors import scene_markers, tokens_for
from vtt.tabletop.serialize import (
    REQUIRED,
    TOKEN_FIELDS,
    markers_by_token,
    markers_of_tokens,
    shown_rows,
    table_tokens,
    token_data,
    token_metas,
    with_markers,
)
from vtt.tabletop.services.scenes import activation_data

pytestmark = pytest.mark.django_db(transaction=True)

# A wall down x = 10 (tests/live/test_fog.py's, without its door).
WALLS = [[10, 0, 10, 20]]


def furnish(room) -> dict:
    """Tokens of every kind token_data tells apart, beside make_room's
    Tenrec (the player's) and hidden Zombie: token ids by name."""
    User = get_user_model()
    gm = User.objects.get(pk=room.users["gm"])
    scene = room.scene_id

    def character(name, kind=Character.Kind.PC, portrait=None):
        owner = room.users["player"] if kind == Character.Kind.PC else None
        made = services.character_create(
            campaign_id=room.campaign_id, by=gm, name=name, kind=kind, owner_id=owner
        )
        if portrait:
            Character.objects.filter(pk=made.pk).update(
                portrait=f"portraits/{portrait}.png",
                portrait_128=f"portraits/{portrait}_128.png",
                portrait_256=f"portraits/{portrait}_256.png",
            )
        return made.pk

    kobor = character("Kobor", portrait="kobor")
    ghoul = character("Ghoul", kind=Character.Kind.NPC)
    made = {
        "kobor": services.token_create(
            scene_id=scene,
            by=gm,
            name="Kobor",
            x=3,
            y=3,
            character_id=kobor,
            controllers=[room.users["other"], room.users["player"]],
            sight_ft=60,
            light_ft=20,
        ),
        "ghoul": services.token_create(
            scene_id=scene, by=gm, name="Ghoul", x=12, y=2, size=2, character_id=ghoul
        ),
        "banner": services.token_create(
            scene_id=scene, by=gm, name="Banner", x=5, y=15, color="#aa3322"
        ),
        "statue": services.token_create(scene_id=scene, by=gm, name="Statue", x=15, y=15),
        "idol": services.token_create(scene_id=scene, by=gm, name="Idol", x=6, y=6, hidden=True),
        "mask": services.token_create(
            scene_id=scene, by=gm, name="Mask", x=7, y=12, character_id=kobor
        ),
    }
    # Its own art over its character's portrait; and art without thumbnails.
    Token.objects.filter(pk=made["mask"].pk).update(
        art="tokens/mask.png", art_128="tokens/mask_128.png", art_256="tokens/mask_256.png"
    )
    Token.objects.filter(pk=made["banner"].pk).update(art="tokens/banner.png")
    services.token_move(token_id=made["statue"].pk, by=gm, x=16, y=15)  # version 2
    # Markers: a condition, the GM's secret one, and one on the hidden idol.
    cid = room.campaign_id
    marker_add(campaign_id=cid, token_id=made["kobor"].pk, by=gm, condition_id="prone")
    marker_add(
        campaign_id=cid, token_id=made["kobor"].pk, by=gm, icon="skull", label="Doomed",
        gm_only=True,
    )  # fmt: skip
    marker_add(campaign_id=cid, token_id=made["idol"].pk, by=gm, icon="eye", label="Cursed")
    return {name: token.pk for name, token in made.items()} | room.tokens


def viewers(room) -> dict:
    return {
        "gm": viewer_in(room.users["gm"], Role.GM, {}),
        "player": viewer_in(room.users["player"], Role.PLAYER, {}),
    }


def the_old_list(viewer, scene_id) -> list[dict]:
    """What snapshots sent before tables: token_data of each, by id, with
    the markers the viewer sees of it."""
    markers = markers_by_token(scene_markers(viewer, scene_id))
    return [with_markers(token_data(t), markers) for t in tokens_for(viewer, scene_id)]


def test_the_table_decodes_to_exactly_the_tokens_of_the_list():
    room = make_room()
    ids = furnish(room)
    for name, viewer in viewers(room).items():
        table = room_reads.snapshot(room.campaign_id, viewer)["tokens"]
        assert json.loads(json.dumps(table)) == table  # only JSON types
        decoded = table_tokens(table)
        old = the_old_list(viewer, room.scene_id)
        assert [t["id"] for t in decoded] == [t["id"] for t in old], name
        for mine, theirs in zip(decoded, old, strict=True):
            assert set(mine) == set(theirs) == set(TOKEN_FIELDS), name
            for field in TOKEN_FIELDS:
                assert mine[field] == theirs[field], (name, theirs["name"], field)
    # The cases really were there: every way to get art, and none.
    gm_tokens = {
        t["name"]: t for t in table_tokens(room_reads.visible_table(room.scene_id, viewer))
    }
    assert gm_tokens["Mask"]["art_from"] == "token"
    assert gm_tokens["Kobor"]["art_from"] == "character"
    assert gm_tokens["Banner"]["art"]["thumb_128"] == gm_tokens["Banner"]["art"]["url"]
    assert gm_tokens["Kobor"]["controllers"] == sorted([room.users["player"], room.users["other"]])
    assert gm_tokens["Ghoul"]["art"] is None and gm_tokens["Ghoul"]["character_id"] is not None
    assert gm_tokens["Statue"]["version"] == 2
    assert ids["statue"] in {t["id"] for t in gm_tokens.values()}


def test_a_row_leaves_out_the_defaults_after_its_last_own_value():
    room = make_room()
    ids = furnish(room)
    gm = viewers(room)["gm"]
    table = room_reads.visible_table(room.scene_id, gm)
    rows = {row[0]: row for row in table["rows"]}
    assert table["defaults"]["scene_id"] == room.scene_id
    assert len(rows[ids["statue"]]) == REQUIRED  # a plain token: id to version
    hidden = TOKEN_FIELDS.index("hidden")
    assert len(rows[ids["zombie"]]) == hidden + 1
    assert len(rows[ids["mask"]]) == TOKEN_FIELDS.index("art_from") + 1
    # A marked token's row goes on to its markers (the idol is hidden too).
    assert len(rows[ids["idol"]]) == TOKEN_FIELDS.index("markers") + 1
    assert [m["label"] for m in rows[ids["idol"]][-1]] == ["Cursed"]


def test_a_player_gets_no_row_for_a_hidden_token():
    room = make_room()
    ids = furnish(room)
    table = room_reads.snapshot(room.campaign_id, viewers(room)["player"])["tokens"]
    held = {row[0] for row in table["rows"]}
    assert ids["zombie"] not in held and ids["idol"] not in held
    assert ids["tenrec"] in held
    assert "Zombie" not in json.dumps(table) and "Idol" not in json.dumps(table)
    gm_table = room_reads.snapshot(room.campaign_id, viewers(room)["gm"])["tokens"]
    assert {ids["zombie"], ids["idol"]} <= {row[0] for row in gm_table["rows"]}


def test_with_fog_a_player_gets_rows_only_for_what_the_party_sees():
    room = make_room()
    ids = furnish(room)
    gm = get_user_model().objects.get(pk=room.users["gm"])
    services.scene_update(scene_id=room.scene_id, by=gm, walls=WALLS, fog=True)
    state = room_reads.snapshot(room.campaign_id, viewers(room)["player"])
    held = {row[0] for row in state["tokens"]["rows"]}
    # Tenrec and Kobor (west of the wall, the party's eyes) and what they
    # see there; the ghoul and the statue are east of it.
    assert ids["tenrec"] in held and ids["kobor"] in held and ids["banner"] in held
    assert ids["ghoul"] not in held and ids["statue"] not in held
    assert held == set(state["vision"]["tokens"])
    assert "Ghoul" not in json.dumps(state["tokens"]) and "Statue" not in json.dumps(
        state["tokens"]
    )
    decoded = table_tokens(state["tokens"])
    assert decoded == the_old_list(viewers(room)["player"], room.scene_id)
    # The socket's table of eyes knows the tokens the player holds.
    assert set(state["eyes"]) == held


def test_a_scene_change_carries_the_tokens_token_data_gives():
    """scene.activated reads its tokens the snapshot's way: the same dicts."""
    room = make_room()
    furnish(room)
    data = activation_data(Scene.objects.get(pk=room.scene_id))
    tokens = Token.objects.filter(scene_id=room.scene_id).order_by("pk")
    # Each with all of its markers, the GM's secret ones too.
    markers = markers_of_tokens(t.pk for t in tokens)
    assert table_tokens(data["tokens"]) == [with_markers(token_data(t), markers) for t in tokens]
    # Players' copy: the same table without the hidden rows (and, policy's
    # work, without the secret markers: tests/security/test_marker_secrecy.py).
    players = shown_rows(data["tokens"])
    shown = tokens.filter(hidden=False)
    assert table_tokens(players) == [with_markers(token_data(t), markers) for t in shown]
    assert token_metas(data["tokens"]) == [
        {key: token_data(t)[key] for key in ("id", "controllers", "hidden", "version")}
        for t in tokens
    ]


@database_sync_to_async
def furnished_room():
    room = make_room()
    furnish(room)
    return room


@database_sync_to_async
def old_list(room, who, role):
    return the_old_list(viewer_in(room.users[who], role, {}), room.scene_id)


async def test_protocol_2_gets_the_table_and_no_version_the_list(clients):
    room = await furnished_room()
    for who, role in (("gm", Role.GM), ("player", Role.PLAYER)):
        new = await clients(room, who, query="v=2")
        old = await clients(room, who)
        assert new.first["protocol"] == 2 and old.first["protocol"] == 1
        assert set(new.first["tokens"]) == {"fields", "defaults", "rows"}
        expected = await old_list(room, who, role)
        assert old.first["tokens"] == expected
        assert table_tokens(new.first["tokens"]) == expected


async def test_a_reconnect_with_protocol_2_is_welcomed_as_2(clients):
    room = await furnished_room()
    first = await clients(room, "player", query="v=2")
    again = await clients(room, "player", query=f"v=2&since={first.first['seq']}")
    assert again.first["type"] == "welcome" and again.first["protocol"] == 2
