"""A GM-only area template, and one on a scene the room is not on, never
reach a player or an observer: not in the live room's frames, a snapshot,
a resync's pages, the REST list, the session's replay or journal, the room
page or a campaign export (the GM's alone). The GM's own reads carry them,
so the scan is known to find them."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from tests import factories
from tests.live.conftest import make_room
from tests.security.test_marker_secrecy import reads
from vtt import dice
from vtt.areas import services as areas
from vtt.tabletop.models import Campaign
from vtt.tabletop.services.errors import ServiceError

pytestmark = pytest.mark.django_db(transaction=True)

GM_ONLY = "Rune of the hidden pit"  # a GM-only template on the room's map
ELSEWHERE = "Trap in the next room"  # a template on a scene the room is not on
SECRETS = (GM_ONLY, ELSEWHERE)
NOT_GM = ("player", "other", "observer")


def leaks(text: str) -> list[str]:
    return [s for s in SECRETS if s in text]


@pytest.fixture
def room(transactional_db):
    return make_room(prefix="tsec-")


def _gm(room):
    return get_user_model().objects.get(pk=room.users["gm"])


@database_sync_to_async
def place_in_secret(room) -> list[int]:
    gm = _gm(room)
    spare = factories.scene(Campaign.objects.get(pk=room.campaign_id), gm, "Next room")
    shape = {"shape": "square", "x": 2, "y": 2, "size": 2}
    secret = areas.template_place(
        scene_id=room.scene_id, by=gm, label=GM_ONLY, gm_only=True, **shape
    )
    elsewhere = areas.template_place(scene_id=spare.pk, by=gm, label=ELSEWHERE, **shape)
    areas.template_place(scene_id=room.scene_id, by=gm, label="Open pit", **shape)
    again = areas.template_place(
        scene_id=room.scene_id, by=gm, label=GM_ONLY + "!", gm_only=True, **shape
    )
    areas.template_remove(template_id=again.pk, by=gm)
    return [secret.pk, elsewhere.pk]


@database_sync_to_async
def template_reads(room, who: str) -> dict[str, str]:
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(pk=room.users[who]))
    api = f"/api/campaigns/{room.campaign_id}/templates/"
    return {
        "templates": client.get(api).content.decode(),
        "scene templates": client.get(f"{api}?scene={room.scene_id}").content.decode(),
    }


@database_sync_to_async
def refused(room, who: str, template_id: int) -> str:
    try:
        areas.template_remove(
            template_id=template_id, by=get_user_model().objects.get(pk=room.users[who])
        )
    except ServiceError as error:
        return error.code
    return "removed"


async def test_secret_templates_reach_no_player_over_any_channel(room, clients):
    gm = await clients(room, "gm")
    watchers = {who: await clients(room, who) for who in NOT_GM}
    start = gm.first["seq"]
    secret_ids = await place_in_secret(room)
    last = (await gm.event("template.removed"))["seq"]
    assert set(leaks(str(gm.seen))) == set(SECRETS)
    for who, member in watchers.items():
        await member.until(lambda f, last=last: f.get("event", {}).get("seq") == last)
        assert leaks(str(member.seen)) == [], who
        kinds = [f["event"]["type"] for f in member.seen if f["type"] == "event"]
        assert kinds.count("template.placed") == 1 and "template.removed" not in kinds, kinds
    for who in NOT_GM:
        fresh = await clients(room, who)
        assert leaks(str(fresh.first)) == [], who
        assert [t["label"] for t in fresh.first["templates"]] == ["Open pit"], who
        resynced = await clients(room, who, query=f"since={start}")
        pages = [resynced.first]
        while True:
            page = await resynced.until(lambda f: f["type"] == "resync")
            pages.append(page)
            if not page["more"]:
                break
        assert leaks(str(pages)) == [], who
        got = {**await reads(room, who), **await template_reads(room, who)}
        for name, text in got.items():
            assert leaks(text) == [], (who, name)
        for template_id in secret_ids:
            assert await refused(room, who, template_id) == "not_found", who
    await database_sync_to_async(dice.session_end)(
        campaign_id=room.campaign_id, by=await database_sync_to_async(_gm)(room)
    )
    mine = {**await reads(room, "gm"), **await template_reads(room, "gm")}
    for name in ("templates", "replay", "journal", "export"):
        assert set(leaks(mine[name])) == set(SECRETS), name
    assert leaks(mine["scene templates"]) == [GM_ONLY]
