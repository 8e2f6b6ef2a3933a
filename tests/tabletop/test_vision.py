"""Fog of war on the server: what each sight group sees, kept with the log,
and what a player's view of an event, a token list or a move becomes."""

import pytest

from vtt.fog import vision
from vtt.fog.services import fog_edit
from vtt.rules import sight
from vtt.tabletop import policy, selectors, services
from vtt.tabletop.event_kinds import SIGHT
from vtt.tabletop.models import Campaign, Role, RoomEvent, SceneSight, SeenToken, Token
from vtt.tabletop.serialize import token_table
from vtt.tabletop.services.errors import NotAllowed, ServiceError
from vtt.tabletop.services.scenes import scene_set_door

from .crypt import DOOR, WALLS, make_crypt

pytestmark = pytest.mark.django_db


@pytest.fixture
def crypt():
    return make_crypt()


def same_area(a: str, b: str) -> bool:
    """Two stored paths draw the same area (up to their rounding)."""
    return sight.difference(sight.from_path(a), sight.from_path(b)).area < 0.01 and (
        sight.difference(sight.from_path(b), sight.from_path(a)).area < 0.01
    )


def last_event():
    return RoomEvent.objects.order_by("-id").first()


def viewer(c, user, role=Role.PLAYER):
    campaign = Campaign.objects.get(pk=c.campaign.pk)
    return policy.viewer_in(user.pk, role, campaign.settings)


def fog_on(c):
    services.scene_update(scene_id=c.scene.pk, by=c.gm, fog=True)
    return last_event()


def seen_ids(c, user):
    return sorted(t.pk for t in selectors.tokens_for(viewer(c, user), c.scene.pk))


def test_fog_on_hides_tokens_behind_the_wall(crypt):
    event = fog_on(crypt)
    player_view = policy.event_view(event, viewer(crypt, crypt.player))
    assert player_view["data"][SIGHT] == {"enter": [], "leave": [crypt.goblin.pk]}
    gm_view = policy.event_view(event, policy.viewer_in(crypt.gm.pk, Role.GM, {}))
    assert SIGHT not in gm_view["data"]
    assert seen_ids(crypt, crypt.player) == sorted([crypt.tenrec.pk, crypt.mara.pk, crypt.orc.pk])
    assert len(selectors.tokens_for(viewer(crypt, crypt.gm, Role.GM), crypt.scene.pk)) == 4


def test_opening_the_door_brings_the_goblin_into_view(crypt):
    fog_on(crypt)
    scene_set_door(scene_id=crypt.scene.pk, by=crypt.gm, wall=DOOR, state="open")
    view = policy.event_view(last_event(), viewer(crypt, crypt.player))
    assert [t["name"] for t in view["data"][SIGHT]["enter"]] == ["Goblin"]
    assert crypt.goblin.pk in seen_ids(crypt, crypt.player)


def test_a_token_moving_out_of_view_arrives_as_its_removal_and_then_as_nothing(crypt):
    fog_on(crypt)
    services.token_move(token_id=crypt.orc.pk, by=crypt.gm, x=16, y=15)
    gone = policy.event_view(last_event(), viewer(crypt, crypt.player))
    assert gone["type"] == "token.removed"
    assert gone["data"] == {"token_id": crypt.orc.pk}
    services.token_move(token_id=crypt.orc.pk, by=crypt.gm, x=17, y=15)
    unseen = policy.event_view(last_event(), viewer(crypt, crypt.player))
    assert unseen == {"seq": last_event().seq, "type": "redacted"}
    services.token_move(token_id=crypt.orc.pk, by=crypt.gm, x=5, y=15)
    back = policy.event_view(last_event(), viewer(crypt, crypt.player))
    assert back["type"] == "token.moved"
    assert back["data"]["token"]["x"] == 5


def test_a_player_may_not_walk_through_a_closed_door_but_the_gm_may(crypt):
    with pytest.raises(ServiceError) as refused:
        services.token_move(token_id=crypt.tenrec.pk, by=crypt.player, x=12, y=8)
    assert (refused.value.code, refused.value.field) == ("blocked", "x")
    scene_set_door(scene_id=crypt.scene.pk, by=crypt.gm, wall=DOOR, state="open")
    services.token_move(token_id=crypt.tenrec.pk, by=crypt.player, x=12, y=8)
    services.token_move(token_id=crypt.mara.pk, by=crypt.gm, x=14, y=3)


def test_a_window_lets_sight_through_but_not_the_player(crypt):
    services.scene_update(
        scene_id=crypt.scene.pk, by=crypt.gm, walls=[[10, 0, 10, 20, "window"]], fog=True
    )
    assert crypt.goblin.pk in seen_ids(crypt, crypt.player)
    with pytest.raises(ServiceError):
        services.token_move(token_id=crypt.tenrec.pk, by=crypt.player, x=12, y=8)


def test_players_open_doors_next_to_their_tokens_when_the_table_lets_them(crypt):
    with pytest.raises(NotAllowed):
        scene_set_door(scene_id=crypt.scene.pk, by=crypt.player, wall=DOOR, state="open")
    settings = {**crypt.campaign.settings, "players_open_doors": True}
    Campaign.objects.filter(pk=crypt.campaign.pk).update(settings=settings)
    with pytest.raises(NotAllowed):  # Tenrec is far from it
        scene_set_door(scene_id=crypt.scene.pk, by=crypt.player, wall=DOOR, state="open")
    services.token_move(token_id=crypt.tenrec.pk, by=crypt.player, x=9, y=8)
    scene_set_door(scene_id=crypt.scene.pk, by=crypt.player, wall=DOOR, state="open")
    with pytest.raises(NotAllowed):
        scene_set_door(scene_id=crypt.scene.pk, by=crypt.player, wall=DOOR, state="locked")


def test_with_own_vision_each_player_sees_through_their_own_tokens(crypt):
    settings = {**crypt.campaign.settings, "own_vision": True}
    Campaign.objects.filter(pk=crypt.campaign.pk).update(settings=settings)
    services.scene_update(
        scene_id=crypt.scene.pk, by=crypt.gm, walls=[*WALLS, [0, 6, 10, 6]], fog=True
    )
    # A wall at y = 6 parts Mara (north) from Tenrec and the orc (south).
    assert crypt.mara.pk not in seen_ids(crypt, crypt.player)
    assert crypt.tenrec.pk not in seen_ids(crypt, crypt.other)
    assert crypt.orc.pk in seen_ids(crypt, crypt.player)


def test_a_players_move_finds_only_what_their_groups_view_holds(crypt):
    """The move reads the token and whether the mover's group sees it in one
    statement: a token out of that view is not there (not_found), one in it
    that is not theirs is refused as not theirs."""
    services.scene_update(
        scene_id=crypt.scene.pk, by=crypt.gm, walls=[*WALLS, [0, 6, 10, 6]], fog=True
    )

    def refusal(token):
        with pytest.raises(ServiceError) as refused:
            services.token_move(token_id=token.pk, by=crypt.player, x=4, y=9)
        return refused.value.code

    # The party sees Mara through her own eyes; the goblin is behind the door.
    assert (refusal(crypt.mara), refusal(crypt.goblin)) == ("forbidden", "not_found")
    settings = {**crypt.campaign.settings, "own_vision": True}
    Campaign.objects.filter(pk=crypt.campaign.pk).update(settings=settings)
    services.scene_update(scene_id=crypt.scene.pk, by=crypt.gm, walls=[*WALLS, [0, 5, 10, 5]])
    # Through Tenrec alone the wall hides Mara.
    assert (refusal(crypt.mara), refusal(crypt.goblin)) == ("not_found", "not_found")
    moved = services.token_move(token_id=crypt.tenrec.pk, by=crypt.player, x=4, y=9)
    assert (moved.x, moved.y) == (4, 9)


def test_a_turn_order_records_per_group_only_the_combatants_it_does_not_see(crypt):
    """The annotation of an encounter event lists, per group, the unseen
    combatants' tokens (the seen ones are the group's SeenToken rows); the
    player's copy leaves the goblin out, the GM's has it."""
    from vtt.combat.services.encounters import encounter_next, encounter_start

    fog_on(crypt)
    fight = encounter_start(
        scene_id=crypt.scene.pk, by=crypt.gm, tokens=[crypt.tenrec.pk, crypt.goblin.pk]
    )
    started = last_event()
    assert started.data[SIGHT]["groups"]["party"]["out_of_view"] == [crypt.goblin.pk]
    mine = policy.event_view(started, viewer(crypt, crypt.player))["data"]["encounter"]
    assert [c["token_id"] for c in mine["order"]] == [crypt.tenrec.pk]
    gm = policy.event_view(started, policy.viewer_in(crypt.gm.pk, Role.GM, {}))
    assert len(gm["data"]["encounter"]["order"]) == 2 and SIGHT not in gm["data"]
    # Events about no fight carry no such list.
    services.token_move(token_id=crypt.tenrec.pk, by=crypt.gm, x=3, y=8)
    assert "out_of_view" not in last_event().data[SIGHT]["groups"]["party"]
    # Once the door is open nobody is out of view: an empty list.
    scene_set_door(scene_id=crypt.scene.pk, by=crypt.gm, wall=DOOR, state="open")
    encounter_next(encounter_id=fight.pk, by=crypt.gm)
    assert last_event().data[SIGHT]["groups"]["party"]["out_of_view"] == []


def test_a_dark_scene_shows_what_sight_and_light_reach(crypt):
    services.scene_update(scene_id=crypt.scene.pk, by=crypt.gm, fog=True, lit=False)
    assert seen_ids(crypt, crypt.player) == sorted([crypt.tenrec.pk, crypt.mara.pk])
    services.token_update(token_id=crypt.orc.pk, by=crypt.gm, light_ft=10)
    assert crypt.orc.pk in seen_ids(crypt, crypt.player)


def test_the_explored_area_is_remembered_and_the_gm_can_reset_reveal_and_cover_it(crypt):
    services.scene_update(scene_id=crypt.scene.pk, by=crypt.gm, fog=True, lit=False)
    services.token_update(token_id=crypt.tenrec.pk, by=crypt.gm, sight_ft=10)
    party = SceneSight.objects.get(scene=crypt.scene, group="party")
    assert party.explored and party.view
    services.token_move(token_id=crypt.tenrec.pk, by=crypt.player, x=2, y=15)
    party.refresh_from_db()
    assert not same_area(party.explored, party.view)  # where Tenrec was is still explored
    fog_edit(scene_id=crypt.scene.pk, by=crypt.gm, action="reset")
    party.refresh_from_db()
    assert same_area(party.explored, party.view)
    fog_edit(scene_id=crypt.scene.pk, by=crypt.gm, action="reveal", rect=[12, 0, 4, 4])
    party.refresh_from_db()
    assert sight.from_path(party.explored).contains(sight.rect(12.5, 0.5, 3, 3))
    fog_edit(scene_id=crypt.scene.pk, by=crypt.gm, action="cover", rect=[12, 0, 4, 4])
    party.refresh_from_db()
    assert same_area(party.explored, party.view)
    with pytest.raises(NotAllowed):
        fog_edit(scene_id=crypt.scene.pk, by=crypt.player, action="reset")
    with pytest.raises(ServiceError):
        fog_edit(scene_id=crypt.scene.pk, by=crypt.gm, action="reveal", rect=[0, 0, 40, 1])


def test_coming_back_to_a_scene_sees_it_as_it_is_now_not_as_it_was_left(crypt):
    fog_on(crypt)
    assert crypt.goblin.pk not in seen_ids(crypt, crypt.player)
    elsewhere = services.scene_create(campaign_id=crypt.campaign.pk, by=crypt.gm, name="Road")
    services.scene_activate(scene_id=elsewhere.pk, by=crypt.gm)
    # Changed while the room is elsewhere: nothing is annotated then.
    scene_set_door(scene_id=crypt.scene.pk, by=crypt.gm, wall=DOOR, state="open")
    services.scene_activate(scene_id=crypt.scene.pk, by=crypt.gm)
    assert crypt.goblin.pk in seen_ids(crypt, crypt.player)
    rows = SeenToken.objects.filter(scene=crypt.scene).values_list("group", "token_id")
    assert sorted(rows) == sorted(("party", t) for t in seen_ids(crypt, crypt.player))
    view = policy.event_view(last_event(), viewer(crypt, crypt.player))
    assert crypt.goblin.pk in [row[0] for row in view["data"]["tokens"]["rows"]]


def test_a_scene_change_reads_sight_from_its_own_token_table(crypt):
    # The table the event carries gives sight what a read of the scene does.
    Token.objects.filter(pk=crypt.orc.pk).update(hidden=True, sight_ft=30, light_ft=10, size=2)
    table = token_table(crypt.scene.tokens.order_by("pk"), crypt.scene.pk)
    by_id = {t["id"]: t for t in vision.scene_tokens(crypt.scene.pk)}
    from_table = vision.table_sight_tokens(table)
    assert len(from_table) == len(by_id) == 4
    assert all(t == by_id[t["id"]] for t in from_table)


def test_turning_fog_off_gives_the_players_every_token_again(crypt):
    fog_on(crypt)
    services.scene_update(scene_id=crypt.scene.pk, by=crypt.gm, fog=False)
    view = policy.event_view(last_event(), viewer(crypt, crypt.player))
    assert [t["name"] for t in view["data"][SIGHT]["enter"]] == ["Goblin"]
    assert not SeenToken.objects.filter(scene=crypt.scene).exists()
    assert len(seen_ids(crypt, crypt.player)) == 4


def test_an_attack_sees_through_an_open_door_and_a_window_as_the_fog_does(crypt):
    """Attacks measure line of sight with the walls that block sight: a
    closed door does, an open one and a window do not."""
    from vtt.combat import geometry
    from vtt.fog.vision import sight_walls

    spell = {"kind": "spell", "range_ft": "line_of_sight"}

    def clear(walls):
        measured = geometry.measure((2, 8, 1), (15, 8, 1), spell, sight_walls(walls), "uniform")
        return measured["line_of_sight"]

    assert not clear(WALLS)
    assert clear([WALLS[0], [10, 8, 10, 10, "door", "open"], WALLS[2]])
    assert clear([[10, 0, 10, 20, "window"]])
