"""Movement trails for the current turn, resetting a token to where its turn
began, and the range bands read."""

import pytest

from vtt.combat.models import TrailStep
from vtt.combat.projection import FREE_STEPS
from vtt.combat.selectors import scene_trails, token_range_bands
from vtt.combat.services.encounters import encounter_next, encounter_start
from vtt.combat.services.trails import token_reset, trails_clear
from vtt.tabletop.models import RoomEvent, Token
from vtt.tabletop.services import scene_update, token_move, token_set_hidden
from vtt.tabletop.services.errors import NotAllowed, NotFound, ServiceError


def walk(battle, key="tenrec", by="player", path=((5, 4), (6, 4), (6, 5))):
    for x, y in path:
        token_move(token_id=battle.tokens[key].pk, by=battle.users[by], x=x, y=y)


def trails(battle, by="gm"):
    return {
        t["token_id"]: t
        for t in scene_trails(scene_id=battle.scene.pk, by=battle.users[by])["trails"]
    }


def test_moves_this_turn_make_a_trail(battle):
    walk(battle)
    trail = trails(battle, by="other")[battle.tokens["tenrec"].pk]
    assert trail == {
        "token_id": battle.tokens["tenrec"].pk,
        "start": [4, 4],
        "path": [[5, 4], [6, 4], [6, 5]],
    }


def test_reset_puts_the_token_back_where_the_turn_began(battle):
    walk(battle)
    token = token_reset(token_id=battle.tokens["tenrec"].pk, by=battle.users["player"])
    assert (token.x, token.y) == (4, 4)
    event = RoomEvent.objects.latest("seq")
    assert event.kind == "token.moved" and event.data["reset"] is True
    assert event.data["from"] == [6, 5]
    assert battle.tokens["tenrec"].pk not in trails(battle)
    # Nothing to reset now: no event.
    token_reset(token_id=battle.tokens["tenrec"].pk, by=battle.users["player"])
    assert RoomEvent.objects.latest("seq").seq == event.seq


def test_only_controllers_and_gms_reset(battle):
    walk(battle)
    with pytest.raises(NotAllowed):
        token_reset(token_id=battle.tokens["tenrec"].pk, by=battle.users["other"])
    with pytest.raises(NotAllowed):
        token_reset(token_id=battle.tokens["tenrec"].pk, by=battle.users["observer"])
    token_reset(token_id=battle.tokens["tenrec"].pk, by=battle.users["gm"])
    assert Token.objects.get(pk=battle.tokens["tenrec"].pk).x == 4


def test_a_new_turn_starts_the_trails_afresh(battle):
    encounter = encounter_start(scene_id=battle.scene.pk, by=battle.users["gm"])
    walk(battle)
    assert trails(battle)
    encounter_next(encounter_id=encounter.pk, by=battle.users["gm"])
    assert trails(battle) == {}
    walk(battle, path=((7, 5),))
    assert trails(battle)[battle.tokens["tenrec"].pk]["start"] == [6, 5]


def test_the_gm_clears_trails_outside_an_encounter(battle):
    walk(battle)
    with pytest.raises(NotAllowed):
        trails_clear(scene_id=battle.scene.pk, by=battle.users["player"])
    trails_clear(scene_id=battle.scene.pk, by=battle.users["gm"])
    assert trails(battle) == {}
    assert RoomEvent.objects.latest("seq").kind == "trails.cleared"


def test_a_hidden_tokens_trail_is_the_gms_alone(battle):
    walk(battle, key="zombie", by="gm", path=((6, 6),))
    token_set_hidden(token_id=battle.tokens["zombie"].pk, by=battle.users["gm"], hidden=True)
    assert battle.tokens["zombie"].pk in trails(battle)
    assert battle.tokens["zombie"].pk not in trails(battle, by="player")
    with pytest.raises(NotFound):
        scene_trails(scene_id=battle.scene.pk, by=battle.users["stranger"])


LONG_WALK = tuple((4 + i % 2, 5 + i) for i in range(FREE_STEPS + 4))


def test_outside_an_encounter_a_trail_keeps_its_last_steps(battle):
    walk(battle, path=LONG_WALK)
    trail = trails(battle, by="player")[battle.tokens["tenrec"].pk]
    kept = LONG_WALK[-FREE_STEPS:]
    assert trail["path"] == [list(square) for square in kept]
    assert trail["start"] == list(LONG_WALK[-FREE_STEPS - 1])
    # The older steps are gone from the table, not merely left out.
    assert TrailStep.objects.filter(token=battle.tokens["tenrec"]).count() == FREE_STEPS
    # A reset goes back to where the kept trail starts.
    token = token_reset(token_id=battle.tokens["tenrec"].pk, by=battle.users["player"])
    assert [token.x, token.y] == trail["start"]


def test_during_an_encounter_the_turns_whole_path_is_kept(battle):
    encounter_start(scene_id=battle.scene.pk, by=battle.users["gm"])
    walk(battle, path=LONG_WALK)
    trail = trails(battle)[battle.tokens["tenrec"].pk]
    assert trail["start"] == [4, 4]
    assert trail["path"] == [list(square) for square in LONG_WALK]
    token = token_reset(token_id=battle.tokens["tenrec"].pk, by=battle.users["player"])
    assert (token.x, token.y) == (4, 4)


def test_compaction_keeps_each_tokens_own_steps(battle):
    walk(battle, key="zombie", by="gm", path=((6, 6),))
    walk(battle, path=LONG_WALK)
    assert trails(battle)[battle.tokens["zombie"].pk]["path"] == [[6, 6]]


def test_a_players_trail_leaves_out_moves_the_party_did_not_see(battle):
    """On a fog scene a wall at x = 10 hides the east side from Tenrec; the
    zombie's steps there are the GM's alone, and the read checks each kept
    step against its own log entry."""
    scene_update(scene_id=battle.scene.pk, by=battle.users["gm"], walls=[[10, 0, 10, 30]], fog=True)
    walk(battle, key="zombie", by="gm", path=((6, 5), (13, 5), (14, 5), (6, 6)))
    assert trails(battle)[battle.tokens["zombie"].pk]["path"] == [[6, 5], [13, 5], [14, 5], [6, 6]]
    seen = trails(battle, by="player")[battle.tokens["zombie"].pk]["path"]
    assert [6, 5] in seen and [14, 5] not in seen


def test_range_bands_for_a_weapon_and_for_a_ruler(battle):
    bands = token_range_bands(
        token_id=battle.tokens["tenrec"].pk, by=battle.users["player"], weapon="Long bow"
    )
    assert (bands["width"], bands["height"], bands["origin"]) == (30, 30, [4, 4])
    rows = bands["bands"]
    assert rows[4][5] == "a" and rows[4][16] == "n" and rows[4][17] == "f"
    assert rows[4][28] == "f" and rows[4][29] == "o"
    assert bands["legend"]["n"] == "near"
    ruler = token_range_bands(
        token_id=battle.tokens["tenrec"].pk,
        by=battle.users["player"],
        kind="missile",
        range_ft="10",
    )
    assert ruler["bands"][4][6] == "n" and ruler["bands"][4][7] == "f"
    unarmed = token_range_bands(token_id=battle.tokens["tenrec"].pk, by=battle.users["player"])
    assert unarmed["bands"][4][6] == "o"


def test_spell_bands_stop_at_the_wall(battle):
    token_move(token_id=battle.tokens["kobor"].pk, by=battle.users["gm"], x=8, y=5)
    rows = token_range_bands(
        token_id=battle.tokens["kobor"].pk, by=battle.users["other"], weapon="Firebolt"
    )["bands"]
    assert rows[5][9] == "a" and rows[5][12] == "o" and rows[20][12] == "n"


def test_a_players_bands_never_use_an_npcs_weapons(battle):
    with pytest.raises(NotFound):
        token_range_bands(
            token_id=battle.tokens["zombie"].pk, by=battle.users["player"], weapon="Claws"
        )
    gm = token_range_bands(
        token_id=battle.tokens["zombie"].pk, by=battle.users["gm"], weapon="Claws"
    )
    assert gm["weapon"]["name"] == "Claws"
    with pytest.raises(ServiceError):
        token_range_bands(
            token_id=battle.tokens["tenrec"].pk,
            by=battle.users["player"],
            kind="missile",
            range_ft="line_of_sight",
        )


def test_no_model_signal_writes_beside_the_log():
    """Trails and resource history are written by projectors that
    append_event calls, not by a post_save receiver on the log's rows."""
    from django.db.models.signals import post_save

    from vtt.tabletop.models import RoomEvent

    assert not post_save.has_listeners(RoomEvent)
