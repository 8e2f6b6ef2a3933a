"""A play session's replay over REST (docs/replay.md): each member gets the
log from the map the session started on to its end as the visibility policy
let them receive it; a GM may ask for any member's view, nobody else may."""

import json

import pytest
from rest_framework.test import APIClient

from tests.tabletop.table import make_table
from vtt import dice
from vtt.records import replay
from vtt.tabletop import services
from vtt.tabletop.models import RoomEvent
from vtt.tabletop.services.chat import chat_whisper

pytestmark = pytest.mark.django_db

CHECK = {"system": "artifice", "action": "check", "pool": 3, "difficulty": 2}
# Fog: a wall down x = 10 with no opening; Tenrec west of it, a ghoul east.
FOG_WALLS = [[10, 0, 10, 15]]


def as_(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def url(table, query="", number=1) -> str:
    return f"/api/campaigns/{table.campaign.pk}/sessions/{number}/replay/{query}"


def seq_of(kind: str, **data) -> int:
    lookup = {f"data__{key}": value for key, value in data.items()}
    return (
        RoomEvent.objects.filter(kind=kind, **lookup)
        .order_by("-seq")
        .values_list("seq", flat=True)[0]
    )


@pytest.fixture
def played(db):
    """Session 1: a public roll, the GM's secret roll, a move, the hidden
    lurker moved, a token laid on the scene the room is not on, a whisper
    between the GM and the other player; then it ends."""
    table = make_table()
    gm = table.gm
    services.token_move(token_id=table.tenrec_token.pk, by=gm, x=1, y=1)  # before: folded
    dice.session_start(campaign_id=table.campaign.pk, by=gm)
    table.public = dice.roll_adjudicate(
        campaign_id=table.campaign.pk, by=table.player, request=CHECK
    )
    table.secret = dice.roll_adjudicate(
        campaign_id=table.campaign.pk, by=gm, request=CHECK, visibility="gm"
    )
    services.token_move(token_id=table.tenrec_token.pk, by=table.player, x=4, y=4)
    services.token_move(token_id=table.lurker.pk, by=gm, x=16, y=11)
    table.elsewhere = services.token_create(
        scene_id=table.spare_scene.pk, by=gm, name="Crypt Horror", x=1, y=1
    )
    chat_whisper(campaign_id=table.campaign.pk, by=gm, to="other", text="psst midnight")
    dice.session_end(campaign_id=table.campaign.pk, by=gm)
    return table


def replay_of(table, user, query="", number=1) -> dict:
    answer = as_(user).get(url(table, query, number))
    assert answer.status_code == 200, answer.json()
    return answer.json()


def test_the_replay_spans_the_map_the_session_started_on_to_its_end(played):
    body = replay_of(played, played.player)
    assert body["first"] == seq_of("scene.activated")
    assert body["start"] == seq_of("session.started", session=1)
    assert body["end"] == seq_of("session.ended", session=1)
    seqs = [e["seq"] for e in body["events"]]
    assert seqs == list(range(body["first"], body["end"] + 1))  # every number, once
    assert body["next"] is None
    assert body["viewer"] == {"id": played.player.pk, "name": "player", "role": "player"}
    assert body["session"]["seed"] is not None


def test_a_player_replays_without_what_was_hidden_from_them(played):
    gm = replay_of(played, played.gm)
    player = replay_of(played, played.player)
    by_seq = {e["seq"]: e for e in player["events"]}
    secret = seq_of("roll", roll_id=played.secret.pk)
    elsewhere = seq_of("token.created", token__id=played.elsewhere.pk)
    whisper = seq_of("whisper")
    for seq in (secret, elsewhere, whisper):
        assert by_seq[seq] == {"seq": seq, "type": "redacted"}
    text = json.dumps(player)
    for name in ("Lurker", "Crypt Horror", "psst midnight", "Rises again"):
        assert name not in text
    assert [r["roll"] for r in player["rolls"]] == [1]
    # The GM's view has all of it but the whisper between two others.
    gm_by_seq = {e["seq"]: e for e in gm["events"]}
    assert gm_by_seq[secret]["type"] == "roll" and gm_by_seq[elsewhere]["type"] == "token.created"
    assert "Lurker" in json.dumps(gm)
    assert [r["roll"] for r in gm["rolls"]] == [1, 2]
    assert [r["seq"] for r in gm["rolls"]] == [seq_of("roll", roll_id=played.public.pk), secret]


def test_the_gm_sees_as_a_player_exactly_what_the_player_gets(played):
    player = replay_of(played, played.player)
    seen_as = replay_of(played, played.gm, f"?as={played.player.pk}")
    assert seen_as == player
    other = replay_of(played, played.gm, f"?as={played.other.pk}")
    assert "psst midnight" in json.dumps(other)  # the whisper was theirs
    assert other["viewer"]["id"] == played.other.pk


def test_only_a_gm_replays_as_someone_else(played):
    own = as_(played.player).get(url(played, f"?as={played.player.pk}"))
    assert own.status_code == 200
    refused = as_(played.player).get(url(played, f"?as={played.gm.pk}"))
    assert refused.status_code == 403 and refused.json()["error"]["field"] == "as"
    refused = as_(played.observer).get(url(played, f"?as={played.player.pk}"))
    assert refused.status_code == 403
    for bad in ("abc", "-1", "0", str(played.outsider.pk), "99999999999999999999"):
        answer = as_(played.gm).get(url(played, f"?as={bad}"))
        assert answer.status_code == 400, bad
        assert answer.json()["fields"].keys() == {"as"}
    bad_page = as_(played.gm).get(url(played, "?after=x"))
    assert bad_page.status_code == 400 and bad_page.json()["error"]["field"] == "after"


def test_strangers_and_unknown_sessions_get_nothing(played):
    assert as_(played.outsider).get(url(played)).status_code == 404
    assert as_(played.outsider).get(url(played, f"?as={played.gm.pk}")).status_code == 404
    assert as_(played.gm).get(url(played, number=7)).status_code == 404
    assert APIClient().get(url(played)).status_code in (401, 403)


def test_a_long_replay_comes_in_pages(played, monkeypatch):
    whole = replay_of(played, played.player)
    monkeypatch.setattr(replay, "PAGE", 3)
    events, rolls, query = [], [], ""
    while True:
        page = replay_of(played, played.player, query)
        events += page["events"]
        rolls += page["rolls"]
        if page["next"] is None:
            break
        assert len(page["events"]) == 3
        query = f"?after={page['next']}"
    assert events == whole["events"] and rolls == whole["rolls"]


def test_an_open_session_replays_up_to_now(db):
    table = make_table()
    dice.session_start(campaign_id=table.campaign.pk, by=table.gm)
    services.token_move(token_id=table.tenrec_token.pk, by=table.gm, x=6, y=6)
    body = replay_of(table, table.player)
    assert body["end"] == seq_of("token.moved") and body["session"]["seed"] is None


@pytest.fixture
def fogged(db):
    """Fog on the table's scene, laid before the session; in it the GM
    walks the zombie about east of the wall, then into Tenrec's view."""
    table = make_table()
    gm = table.gm
    services.token_update(token_id=table.tenrec_token.pk, by=gm, controllers=[table.player.pk])
    services.token_move(token_id=table.zombie_token.pk, by=gm, x=15, y=3)
    services.scene_update(scene_id=table.scene.pk, by=gm, walls=FOG_WALLS, fog=True)
    dice.session_start(campaign_id=table.campaign.pk, by=gm)
    services.token_move(token_id=table.zombie_token.pk, by=gm, x=16, y=4)  # unseen
    services.token_move(token_id=table.zombie_token.pk, by=gm, x=5, y=4)  # into view
    dice.session_end(campaign_id=table.campaign.pk, by=gm)
    return table


def test_a_player_replays_a_fog_scene_through_their_group_alone(fogged):
    player = replay_of(fogged, fogged.player)
    gm = replay_of(fogged, fogged.gm)
    moves = list(
        RoomEvent.objects.filter(kind="token.moved", data__token__id=fogged.zombie_token.pk)
        .order_by("seq")
        .values_list("seq", flat=True)
    )
    unseen, into_view = moves[-2], moves[-1]
    by_seq = {e["seq"]: e for e in player["events"]}
    assert by_seq[unseen]["type"] == "redacted"
    # What brought it into view tells where it is now, not where it was.
    arrived = by_seq[into_view]
    assert arrived["type"] == "token.moved" and arrived["data"]["token"]["x"] == 5
    # Before the fog was laid the player saw the zombie; after, not until it came.
    fog_laid = seq_of("scene.updated")
    unseen_then = [e for e in player["events"] if fog_laid < e["seq"] < into_view]
    assert "Zombie" not in json.dumps(unseen_then)
    assert "Zombie" in json.dumps([e for e in player["events"] if e["seq"] < fog_laid])
    for event in player["events"]:
        assert "sight" not in (event.get("data") or {}) or set(event["data"]["sight"]) == {
            "enter",
            "leave",
        }
    gm_by_seq = {e["seq"]: e for e in gm["events"]}
    assert gm_by_seq[unseen]["data"]["token"]["x"] == 16
    assert "sight" not in gm_by_seq[unseen]["data"]  # the annotation reaches nobody
    assert replay_of(fogged, fogged.gm, f"?as={fogged.player.pk}") == player


def test_the_answer_names_the_settings_its_first_event_was_rendered_under(fogged):
    """What the browser needs to know whose eyes its fog is drawn from: the
    table's settings at the replay's first event (the map's activation),
    not now; a change in between comes in its own event, as it came live."""
    gm, campaign_id = fogged.gm, fogged.campaign.pk
    shared = {"own_vision": False}
    services.campaign_update_settings(campaign_id=campaign_id, by=gm, settings=shared)
    services.scene_activate(scene_id=fogged.scene.pk, by=gm)
    dice.session_start(campaign_id=campaign_id, by=gm)
    own = {"own_vision": True}
    services.campaign_update_settings(campaign_id=campaign_id, by=gm, settings=own)
    dice.session_end(campaign_id=campaign_id, by=gm)
    body = replay_of(fogged, fogged.player, number=2)
    assert body["events"][0]["type"] == "scene.activated"
    assert not body["settings"].get("own_vision")  # own_vision is on now
    changed = [e for e in body["events"] if e["type"] == "campaign.updated"]
    assert [e["data"]["campaign"]["settings"]["own_vision"] for e in changed] == [True]
    assert replay_of(fogged, fogged.gm, f"?as={fogged.player.pk}", number=2) == body
