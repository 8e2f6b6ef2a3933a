"""A handout shared with one player never reaches anyone else it was not
shared with, over any channel: the live frames, a fresh snapshot, a
reconnect's resync, REST (list, detail, share), a session's replay and
journal (JSON, Markdown and the page), and the campaign's archive (the
GM's alone). Every answer is scanned for the handout's marker strings:
its title, its text and its picture's file name."""

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from tests.live.conftest import make_room
from tests.tabletop.images import image_bytes, upload
from tests.tabletop.table import make_table
from vtt import dice
from vtt.handouts import services as handouts
from vtt.tabletop.models import Handout

TITLE = "Letter-from-the-Duke-7f3a"
TEXT = "The vault code is **SECRET-4471**."


def markers(handout: Handout) -> tuple:
    return (TITLE, "SECRET-4471", handout.image.name.split("/")[-1])


def leaked(payload, found: tuple) -> list[str]:
    text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    return [marker for marker in found if marker in text]


def as_(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def hand_to(campaign_id, gm, user_ids) -> Handout:
    handout = handouts.handout_create(
        campaign_id=campaign_id, by=gm, title=TITLE, text=TEXT, image=upload(image_bytes(30, 20))
    )
    handouts.handout_share(handout_id=handout.pk, by=gm, members=user_ids)
    return handout


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


# ------------------------------------------------------------------ REST, replay, journal, archive


@pytest.fixture
def played(db, media):
    """Session 1: the GM hands the player a letter, then the session ends."""
    table = make_table()
    dice.session_start(campaign_id=table.campaign.pk, by=table.gm)
    table.handout = hand_to(table.campaign.pk, table.gm, [table.player.pk])
    dice.session_end(campaign_id=table.campaign.pk, by=table.gm)
    table.secret = markers(table.handout)
    return table


def rest_answers(table, user) -> list:
    client, cid, hid = as_(user), table.campaign.pk, table.handout.pk
    answers = [
        client.get(f"/api/campaigns/{cid}/handouts/"),
        client.get(f"/api/handouts/{hid}/"),
        client.post(f"/api/handouts/{hid}/share/", {"everyone": True}, format="json"),
        client.get(f"/api/campaigns/{cid}/sessions/1/replay/"),
        client.get(f"/api/campaigns/{cid}/sessions/1/journal/"),
        client.get(f"/api/campaigns/{cid}/sessions/1/journal/", HTTP_ACCEPT="text/markdown"),
    ]
    page = Client()
    page.force_login(user)
    answers.append(page.get(f"/campaigns/{cid}/sessions/1/journal/"))
    answers.append(page.get(f"/campaigns/{cid}/sessions/1/replay/"))
    answers.append(page.get(f"/campaigns/{cid}/"))
    return answers


@pytest.mark.parametrize("who", ("other", "observer", "outsider"))
def test_no_rest_answer_page_replay_or_journal_carries_it_to_others(played, who):
    answers = rest_answers(played, getattr(played, who))
    for answer in answers:
        assert leaked(answer.content.decode(), played.secret) == [], answer.request["PATH_INFO"]
    # The detail and the share of a handout they were not given: no such handout.
    assert answers[1].status_code == 404 and answers[2].status_code == 404
    assert not Handout.objects.get(pk=played.handout.pk).everyone


def test_the_player_it_was_handed_to_reads_it_everywhere(played):
    client, cid = as_(played.player), played.campaign.pk
    listed = client.get(f"/api/campaigns/{cid}/handouts/").json()["results"]
    assert [h["title"] for h in listed] == [TITLE]
    assert "text" not in listed[0] and "shared_with" not in listed[0]  # the GM's
    replay = client.get(f"/api/campaigns/{cid}/sessions/1/replay/").json()
    assert leaked(replay, played.secret[:1])
    journal = client.get(
        f"/api/campaigns/{cid}/sessions/1/journal/", HTTP_ACCEPT="text/markdown"
    ).content.decode()
    assert f"gm handed player a handout: {TITLE}" in journal


def test_the_archive_is_the_gms_alone_and_carries_the_handout(played):
    url = f"/campaigns/{played.campaign.pk}/gm/backup/"
    for who in ("player", "other", "observer"):
        page = Client()
        page.force_login(getattr(played, who))
        assert page.get(url).status_code == 404
    gm = Client()
    gm.force_login(played.gm)
    archive = gm.get(url)
    assert archive.status_code == 200 and archive["Content-Type"] == "application/zip"


# ------------------------------------------------------------------ the live room


@pytest.fixture
def room(transactional_db, media):
    return make_room(prefix="ho-")


@pytest.mark.django_db(transaction=True)
async def test_frames_snapshot_and_resync_carry_it_only_to_its_reader(room, clients):
    player = await clients(room, "player")
    other = await clients(room, "other")
    observer = await clients(room, "observer")
    start = player.first["seq"]

    gm = await database_sync_to_async(_user)(room.users["gm"])
    handout = await database_sync_to_async(hand_to)(room.campaign_id, gm, [room.users["player"]])
    secret = markers(handout)
    got = await player.event("handout.shared")
    assert got["data"]["handout"]["title"] == TITLE
    for member in (other, observer):
        frame = await member.until(
            lambda f: f["type"] == "event" and f["event"]["seq"] == got["seq"]
        )
        assert frame["event"] == {"seq": got["seq"], "type": "redacted"}
        assert leaked(member.seen + await member.drain(), secret) == []

    # A fresh snapshot, and a reconnect from before the handout: nothing of it.
    fresh = await clients(room, "other")
    assert leaked(fresh.first, secret) == []
    again = await clients(room, "other", query=f"since={start}")
    frames = [again.first]
    while True:
        frame = await again.until(lambda f: f["type"] == "resync")
        frames.append(frame)
        if not frame["more"]:
            break
    assert leaked(frames, secret) == []
    # The player's own reconnect does carry it: the scan sees what it looks for.
    mine = await clients(room, "player", query=f"since={start}")
    page = await mine.until(lambda f: f["type"] == "resync")
    assert leaked(page, secret)


def _user(pk):
    return get_user_model().objects.get(pk=pk)
