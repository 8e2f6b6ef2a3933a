"""The scene editor's token list in the GM console: each token edited in
place or removed (asked first), through the token services, so the room's
log gets the same events a change made in the room gives. GMs only."""

import re

import pytest

from tests import factories
from vtt.tabletop import selectors, services
from vtt.tabletop.models import Token
from vtt.tabletop.policy import event_view
from vtt.tabletop.visibility import Viewer

from ..tabletop.helpers import events_after, last_seq

pytestmark = pytest.mark.django_db


@pytest.fixture
def gm(client, table):
    client.force_login(table.gm)
    return client


def scene_url(table):
    return f"/campaigns/{table.campaign.pk}/gm/scenes/{table.scene.pk}/"


def edit_url(table, token):
    return f"{scene_url(table)}tokens/{token.pk}/"


def posted(token, **changes):
    """The token's card as the page draws it, with `changes` typed in."""
    fields = {
        "name": token.name,
        "color": token.color,
        "size": token.size,
        "x": token.x,
        "y": token.y,
        "character_id": token.character_id or "",
        "hidden": "on" if token.hidden else "",
        "version": token.version,
        **changes,
    }
    return {f"token-{token.pk}-{k}": v for k, v in fields.items() if v is not False and v != ""}


def player_view(table, event):
    return event_view(event, Viewer(table.player.pk, "player"))


def test_every_token_has_its_card_with_an_edit_form_and_a_remove_button(gm, table):
    page = gm.get(scene_url(table))
    html = page.content.decode()
    for token in (table.tenrec_token, table.zombie_token, table.lurker):
        assert f'id="token-{token.pk}"' in html
        assert f'action="{edit_url(table, token)}"' in html
        assert f'action="{edit_url(table, token)}remove/"' in html
        assert f'name="token-{token.pk}-x" value="{token.x}"' in html
    # The lurker's card says it is hidden, and its box is ticked.
    assert (
        f'name="token-{table.lurker.pk}-hidden" id="id_token-{table.lurker.pk}-hidden" checked'
        in html
    )
    # The form to place a new token is still there.
    assert f'action="{scene_url(table)}tokens/"' in html


@pytest.mark.parametrize(
    ("changes", "saved", "kind"),
    [
        ({"name": "Ghoul"}, {"name": "Ghoul"}, "token.updated"),
        ({"color": "#aa0000"}, {"color": "#aa0000"}, "token.updated"),
        ({"size": 2}, {"size": 2}, "token.updated"),
        ({"x": 11}, {"x": 11}, "token.moved"),
        ({"y": 3}, {"y": 3}, "token.moved"),
        ({"character_id": "tenrec"}, {"character_id": "tenrec"}, "token.updated"),
        ({"hidden": "on"}, {"hidden": True}, "token.hidden"),
        ({"sight_ft": 60}, {"sight_ft": 60}, "token.updated"),
        ({"light_ft": 20}, {"light_ft": 20}, "token.updated"),
    ],
)
def test_edit_each_field_and_the_room_hears_it(gm, table, changes, saved, kind):
    token = table.zombie_token
    ids = {"tenrec": table.tenrec.pk}
    changes = {k: ids.get(v, v) for k, v in changes.items()}
    saved = {k: ids.get(v, v) for k, v in saved.items()}
    seq = last_seq(table.campaign)
    page = gm.post(edit_url(table, token), posted(token, **changes))
    assert page.status_code == 302
    assert page.url == f"{scene_url(table)}#token-{token.pk}"
    token.refresh_from_db()
    assert {field: getattr(token, field) for field in saved} == saved
    [event] = events_after(table.campaign, seq)
    assert event.kind == kind and event.actor == table.gm
    for field, value in saved.items():
        assert event.data["token"][field] == value
    if kind == "token.moved":
        assert event.data["from"] == [8, 8]


def test_unticking_hidden_reveals_the_token(gm, table):
    seq = last_seq(table.campaign)
    changes = posted(table.lurker)
    del changes[f"token-{table.lurker.pk}-hidden"]
    assert gm.post(edit_url(table, table.lurker), changes).status_code == 302
    assert not Token.objects.get(pk=table.lurker.pk).hidden
    [event] = events_after(table.campaign, seq)
    assert event.kind == "token.revealed"
    assert player_view(table, event)["data"]["token"]["name"] == "Lurker"


def test_a_hidden_token_stays_hidden_from_players_after_an_edit(gm, table):
    lurker = table.lurker
    seq = last_seq(table.campaign)
    page = gm.post(edit_url(table, lurker), posted(lurker, name="Shade", x=12, size=3))
    assert page.status_code == 302
    lurker.refresh_from_db()
    assert (lurker.name, lurker.x, lurker.size, lurker.hidden) == ("Shade", 12, 3, True)
    events = events_after(table.campaign, seq)
    assert sorted(e.kind for e in events) == ["token.moved", "token.updated"]
    for event in events:
        assert player_view(table, event) == {"seq": event.seq, "type": "redacted"}
        assert event_view(event, Viewer(table.gm.pk, "gm"))["data"]["token"]["hidden"]
    # Nor is it among the tokens the player's room is drawn from.
    player = Viewer(table.player.pk, "player")
    assert lurker.pk not in [t.pk for t in selectors.tokens_for(player, table.scene.pk)]


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"size": 0}, "size", "greater than or equal to 1"),
        ({"size": 11}, "size", "between 1 and 10"),
        ({"x": 25}, "x", "must stay on the 20x15 map"),
        ({"y": 14, "size": 2}, "y", "must stay on the 20x15 map"),
        ({"name": ""}, "name", "required"),
        ({"color": "red"}, "color", "colour like #1a2b3c"),
        ({"x": "three"}, "x", "whole number"),
    ],
)
def test_bad_input_is_refused_on_its_field_and_nothing_is_saved(gm, table, changes, field, message):
    token = table.zombie_token
    seq = last_seq(table.campaign)
    # A good change beside the bad one is not saved either.
    page = gm.post(edit_url(table, token), posted(token, **{"hidden": "on", **changes}))
    assert page.status_code == 400
    form = next(row["form"] for row in page.context["token_rows"] if row["token"].pk == token.pk)
    assert message in " ".join(form.errors[field])
    html = page.content.decode()
    assert message.split()[0] in html
    # Its card is drawn open, so the message is in sight.
    assert re.search(rf'id="token-{token.pk}">\s*<details open>', html)
    token.refresh_from_db()
    assert (token.name, token.x, token.y, token.size, token.hidden, token.version) == (
        "Zombie",
        8,
        8,
        1,
        False,
        1,
    )
    assert last_seq(table.campaign) == seq


def test_a_character_of_another_campaign_is_refused(gm, table):
    elsewhere = factories.campaign(table.gm, name="Elsewhere", game="artifice")
    stranger = services.character_create(campaign_id=elsewhere.pk, by=table.gm, name="Stranger")
    seq = last_seq(table.campaign)
    token = table.zombie_token
    page = gm.post(edit_url(table, token), posted(token, character_id=stranger.pk))
    assert page.status_code == 400
    assert page.context["token_rows"]
    form = next(row["form"] for row in page.context["token_rows"] if row["token"].pk == token.pk)
    assert form.errors["character_id"]
    assert Token.objects.get(pk=token.pk).character_id == table.zombie.pk
    assert last_seq(table.campaign) == seq


def test_a_token_moved_in_the_room_since_is_not_put_back(gm, table):
    token = table.tenrec_token
    stale = posted(token, name="Tenrec the Bold")
    services.token_move(token_id=token.pk, by=table.player, x=4, y=4)
    seq = last_seq(table.campaign)
    page = gm.post(edit_url(table, token), stale)
    assert page.status_code == 409
    assert "it is now at (4, 4)" in page.content.decode()
    token.refresh_from_db()
    assert (token.name, token.x, token.y) == ("Tenrec", 4, 4)
    assert last_seq(table.campaign) == seq
    # The card is drawn again from the token as it is now: saving it works.
    row = next(row for row in page.context["token_rows"] if row["token"].pk == token.pk)
    assert row["form"].initial["version"] == token.version
    assert gm.post(edit_url(table, token), posted(token, name="Tenrec the Bold")).status_code == 302


def test_remove_asks_first_then_removes(gm, table):
    token = table.zombie_token
    url = f"{edit_url(table, token)}remove/"
    seq = last_seq(table.campaign)
    for ask in (gm.get(url), gm.post(url)):
        assert ask.status_code == 200
        assert b"Yes, remove Zombie" in ask.content
        assert b'name="confirm" value="yes"' in ask.content
    assert Token.objects.filter(pk=token.pk).exists()
    assert last_seq(table.campaign) == seq
    page = gm.post(url, {"confirm": "yes"})
    assert page.status_code == 302
    assert not Token.objects.filter(pk=token.pk).exists()
    [event] = events_after(table.campaign, seq)
    assert event.kind == "token.deleted" and event.data["token"]["id"] == token.pk
    assert f'id="token-{token.pk}"' not in gm.get(scene_url(table)).content.decode()


@pytest.mark.parametrize("who", ["player", "observer", "outsider"])
def test_only_the_gm_edits_or_removes(client, table, who):
    client.force_login(getattr(table, who))
    token = table.tenrec_token  # the player's own token, even
    seq = last_seq(table.campaign)
    assert client.post(edit_url(table, token), posted(token, name="Mine", x=0)).status_code == 404
    remove = f"{edit_url(table, token)}remove/"
    assert client.get(remove).status_code == 404
    assert client.post(remove, {"confirm": "yes"}).status_code == 404
    token.refresh_from_db()
    assert (token.name, token.x) == ("Tenrec", 2)
    assert last_seq(table.campaign) == seq


def test_a_token_of_another_scene_is_not_found_here(gm, table):
    other = services.token_create(scene_id=table.spare_scene.pk, by=table.gm, name="Bones")
    assert gm.post(edit_url(table, other), posted(other, name="Dust")).status_code == 404
    assert gm.post(f"{edit_url(table, other)}remove/", {"confirm": "yes"}).status_code == 404
    assert Token.objects.get(pk=other.pk).name == "Bones"


def test_the_forms_need_the_csrf_token(table):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(table.gm)
    token = table.zombie_token
    assert client.post(edit_url(table, token), posted(token, name="Ghoul")).status_code == 403
    assert client.post(f"{edit_url(table, token)}remove/", {"confirm": "yes"}).status_code == 403
    assert Token.objects.get(pk=token.pk).name == "Zombie"
