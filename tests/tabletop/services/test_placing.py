"""Who may put a token on the map: the GM any; a player, only when the
campaign's `players_place_tokens` is on, only their own character, only on
the scene the room is on, never hidden, controlled by them alone."""

import pytest

from vtt.tabletop import services
from vtt.tabletop.models import Token, Visibility

from ..helpers import events_after, last_seq

pytestmark = pytest.mark.django_db


def allow_players(table, on=True):
    services.campaign_update_settings(
        campaign_id=table.campaign.pk, by=table.gm, settings={"players_place_tokens": on}
    )


@pytest.fixture
def wren(table):
    """A second character of the player's, not yet on any map."""
    return services.character_create(campaign_id=table.campaign.pk, by=table.player, name="Wren")


def place(table, by, character, **extra):
    fields = {"scene_id": table.scene.pk, "name": character.name if character else "Rat", "x": 5}
    fields["y"] = 6
    if character is not None:
        fields["character_id"] = character.pk
    return services.token_create(by=by, **(fields | extra))


def test_the_setting_is_off_in_every_new_campaign(table):
    assert table.campaign.settings["players_place_tokens"] is False


def test_with_the_setting_off_a_player_may_not_place_even_their_own(table, wren):
    seq = last_seq(table.campaign)
    with pytest.raises(services.NotAllowed) as caught:
        place(table, table.player, wren)
    assert "only a GM may place tokens" in caught.value.message
    assert last_seq(table.campaign) == seq
    assert not Token.objects.filter(character=wren).exists()


def test_with_the_setting_on_a_player_places_their_own_character(table, wren):
    allow_players(table)
    seq = last_seq(table.campaign)
    token = place(table, table.player, wren, color="#2266AA", size=2)
    assert (token.scene_id, token.x, token.y, token.size) == (table.scene.pk, 5, 6, 2)
    assert token.controller_ids == [table.player.pk] and token.hidden is False
    assert token.color == "#2266aa"
    [event] = events_after(table.campaign, seq)
    assert event.kind == "token.created" and event.visibility == Visibility.PUBLIC
    assert event.actor == table.player
    # It is theirs to move, and still the GM's to change or remove.
    assert services.token_move(token_id=token.pk, by=table.player, x=6, y=6).x == 6
    with pytest.raises(services.NotAllowed):
        services.token_update(token_id=token.pk, by=table.player, name="Wren the Bold")
    with pytest.raises(services.NotAllowed):
        services.token_delete(token_id=token.pk, by=table.player)


def test_turning_the_setting_off_again_refuses_again(table, wren):
    allow_players(table)
    allow_players(table, on=False)
    with pytest.raises(services.NotAllowed):
        place(table, table.player, wren)


@pytest.mark.parametrize(
    ("character", "extra", "code", "field"),
    [
        ("kobor", {}, "forbidden", "character_id"),  # another player's character
        ("zombie", {}, "invalid", "character_id"),  # an NPC: not there for a player
        (None, {}, "forbidden", "character_id"),  # a token of no character
        ("wren", {"hidden": True}, "forbidden", "hidden"),
        ("wren", {"controllers": "other"}, "forbidden", "controllers"),
        ("wren", {"controllers": "both"}, "forbidden", "controllers"),
        ("wren", {"scene_id": "spare"}, "not_found", "scene"),  # a map the room is not on
        ("tenrec", {}, "already_placed", "character_id"),  # already on this map
        ("wren", {"x": 19, "size": 2}, "out_of_bounds", "x"),
    ],
)
def test_a_player_places_nothing_else(table, wren, character, extra, code, field):
    allow_players(table)
    extra = dict(extra)
    if extra.get("controllers") == "other":
        extra["controllers"] = [table.other.pk]
    elif extra.get("controllers") == "both":
        extra["controllers"] = [table.player.pk, table.other.pk]
    if extra.get("scene_id") == "spare":
        extra["scene_id"] = table.spare_scene.pk
    chosen = {"kobor": table.kobor, "zombie": table.zombie, "tenrec": table.tenrec, "wren": wren}
    seq, count = last_seq(table.campaign), Token.objects.count()
    with pytest.raises(services.ServiceError) as caught:
        place(table, table.player, chosen.get(character), **extra)
    assert (caught.value.code, caught.value.field) == (code, field)
    assert (last_seq(table.campaign), Token.objects.count()) == (seq, count)


def test_a_player_may_name_themselves_as_controller(table, wren):
    allow_players(table)
    token = place(table, table.player, wren, controllers=[table.player.pk])
    assert token.controller_ids == [table.player.pk]


def test_an_npc_is_refused_as_a_missing_character_is(table):
    """A player learns nothing of an NPC from the refusal."""
    allow_players(table)
    answers = []
    for character_id in (table.zombie.pk, 999_999):
        with pytest.raises(services.ServiceError) as caught:
            services.token_create(
                scene_id=table.scene.pk, by=table.player, name="X", character_id=character_id
            )
        answers.append(caught.value.as_dict())
    assert answers[0] == answers[1]


def test_observers_and_strangers_never_place(table, wren):
    allow_players(table)
    with pytest.raises(services.NotAllowed) as caught:
        place(table, table.observer, wren)
    assert caught.value.message == "an observer may not place tokens"
    with pytest.raises(services.NotFound):
        place(table, table.outsider, wren)


def test_the_gm_still_places_anything_anywhere(table, wren):
    hidden = place(table, table.gm, table.zombie, hidden=True, scene_id=table.spare_scene.pk)
    assert hidden.hidden and hidden.scene_id == table.spare_scene.pk
    # A second token of one character, and controllers of the GM's choosing.
    twice = place(table, table.gm, table.tenrec, controllers=[table.other.pk])
    assert twice.controller_ids == [table.other.pk]
    assert Token.objects.filter(character=table.tenrec, scene=table.scene).count() == 2
