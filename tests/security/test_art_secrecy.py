"""A hidden token's picture is as secret as the token. The GM gives the
hidden lurker art of its own and its NPC (the vampire) a portrait; the
players' and the observer's live frames, a reconnect's pages, a fresh
snapshot, the room page and every REST read are scanned for the pictures'
random file names, and none carries them. Revealing the token then hands
its art to the players, so the scan can see what it looks for."""

from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from tests.api_paths import campaign_paths, scene_paths, token_paths
from tests.tabletop.images import image_bytes, upload
from vtt.tabletop import services
from vtt.tabletop.models import Campaign

from .conftest import NOT_GM, make_secrets

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def room(transactional_db, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    from tests.live.conftest import session_cookie

    s = make_secrets("art-")
    return SimpleNamespace(
        campaign_id=s.campaign.pk,
        cookies={name: session_cookie(user) for name, user in s.users.items()},
        s=s,
    )


def stems(*pictures) -> list[str]:
    """The random part of each stored file name: what a leak would carry."""
    return [picture.name.rsplit("/", 1)[-1].split(".")[0] for picture in pictures]


def found(stems_, payload) -> list[str]:
    import json

    text = payload if isinstance(payload, str) else json.dumps(payload)
    return [stem for stem in stems_ if stem in text]


def rest_reads(s) -> list[str]:
    return [
        "/api/campaigns/",
        *campaign_paths(s.campaign.pk),
        *scene_paths(s.crypt.pk),
        *token_paths(s.tokens.tenrec.pk),
        f"/api/characters/{s.characters.tenrec.pk}/",
        f"/campaigns/{s.campaign.pk}/room/",
        f"/campaigns/{s.campaign.pk}/characters/",
    ]


async def test_a_hidden_tokens_art_reaches_no_player(room, clients):
    s = room.s
    gm = await clients(room, "gm")
    watchers = {who: await clients(room, who) for who in NOT_GM}
    start = gm.first["seq"]

    lurker = await database_sync_to_async(services.token_set_art)(
        token_id=s.tokens.lurker.pk, by=s.users["gm"], image=upload(image_bytes(64, 64))
    )
    vampire = await database_sync_to_async(services.character_set_portrait)(
        character_id=s.characters.vampire.pk, by=s.users["gm"], image=upload(image_bytes(80, 64))
    )
    await database_sync_to_async(services.token_clear_art)(
        token_id=s.tokens.lurker.pk, by=s.users["gm"]
    )  # now it shows the vampire's portrait: the GM's news alone again
    secret = stems(lurker.art, vampire.portrait)
    last = await database_sync_to_async(
        lambda: Campaign.objects.get(pk=room.campaign_id).event_seq
    )()
    await gm.until(lambda f: f.get("event", {}).get("seq") == last)
    assert set(found(secret, gm.seen)) == set(secret)  # the GM's frames carry both

    for who, member in watchers.items():
        await member.until(lambda f, last=last: f.get("event", {}).get("seq") == last)
        assert found(secret, member.seen) == [], who
        # A reconnect from before the pictures: its pages carry none.
        again = await clients(room, who, query=f"since={start}")
        page = await again.until(lambda f: f["type"] == "resync")
        assert found(secret, page) == [], who
        # Nor does a fresh snapshot.
        fresh = await clients(room, who)
        assert fresh.first["type"] == "snapshot"
        assert found(secret, fresh.first) == [], who

    def read_everything():
        for who in NOT_GM:
            client = Client()
            client.force_login(get_user_model().objects.get(pk=s.users[who].pk))
            for url in rest_reads(s):
                response = client.get(url)
                assert response.status_code == 200, (who, url)
                assert found(secret, response.content.decode()) == [], (who, url)
            assert client.get(f"/api/tokens/{s.tokens.lurker.pk}/").status_code == 404

    await database_sync_to_async(read_everything)()

    # Revealed, the token brings its picture (the vampire's portrait) along.
    player = watchers["player"]
    await database_sync_to_async(services.token_set_hidden)(
        token_id=s.tokens.lurker.pk, by=s.users["gm"], hidden=False
    )
    revealed = await player.event("token.revealed")
    token = revealed["data"]["token"]
    assert token["art_from"] == "character"
    assert found(secret, token) == stems(vampire.portrait)
