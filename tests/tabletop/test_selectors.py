"""Every read filtered by who asks: the same rules the live rooms apply."""

import pytest

from vtt import dice
from vtt.tabletop import selectors
from vtt.tabletop.visibility import Viewer

pytestmark = pytest.mark.django_db


def viewer(table, user):
    return selectors.viewer_of(selectors.membership_of(user, table.campaign.pk))


def test_campaigns_of_members_only(table):
    assert list(selectors.campaigns_of(table.player)) == [table.campaign]
    assert list(selectors.campaigns_of(table.outsider)) == []
    assert selectors.membership_of(table.outsider, table.campaign.pk) is None


def test_players_see_neither_npcs_nor_hidden_tokens_nor_other_maps(table):
    gm, player = viewer(table, table.gm), viewer(table, table.player)
    names = lambda qs: [x.name for x in qs]  # noqa: E731
    assert names(selectors.characters_for(gm, table.campaign.pk)) == ["Kobor", "Tenrec", "Zombie"]
    assert names(selectors.characters_for(player, table.campaign.pk)) == ["Kobor", "Tenrec"]
    assert "Lurker" in names(selectors.tokens_for(gm, table.scene.pk))
    assert "Lurker" not in names(selectors.tokens_for(player, table.scene.pk))
    assert names(selectors.scenes_for(gm, table.campaign.pk)) == ["Tomb entrance", "Burial chamber"]
    assert names(selectors.scenes_for(player, table.campaign.pk)) == ["Tomb entrance"]


def make_rolls(table):
    rolls = {}
    for visibility, by in (
        ("public", table.other),
        ("gm", table.player),
        ("self", table.player),
        ("blind", table.player),
        ("self", table.other),
    ):
        rolls[(visibility, by.username)] = dice.roll_adjudicate(
            campaign_id=table.campaign.pk,
            by=by,
            request={"system": "artifice", "action": "check", "pool": 2, "difficulty": 1},
            visibility=visibility,
        )
    return rolls


def test_roll_history_per_viewer(table):
    rolls = make_rolls(table)
    gm, player, observer = (viewer(table, u) for u in (table.gm, table.player, table.observer))
    assert selectors.rolls_for(gm, table.campaign.pk).count() == 5
    seen = {
        (r.visibility, r.roller.username) for r in selectors.rolls_for(player, table.campaign.pk)
    }
    assert seen == {("public", "other"), ("self", "player"), ("blind", "player")}
    seen = {
        (r.visibility, r.roller.username) for r in selectors.rolls_for(observer, table.campaign.pk)
    }
    assert seen == {("public", "other")}
    blind = selectors.roll_view(rolls[("blind", "player")], player)
    assert blind["blind"] is True
    assert blind["result"] is None and blind["request"] is None
    assert (blind["system"], blind["action"]) == ("artifice", "check")
    full = selectors.roll_view(rolls[("blind", "player")], gm)
    assert full["blind"] is False and full["result"]["dice"]
    assert selectors.roll_view(rolls[("gm", "player")], player) is None
    assert selectors.roll_view(rolls[("self", "other")], Viewer(table.player.pk, "player")) is None
