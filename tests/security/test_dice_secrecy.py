"""Hidden rolls stay hidden after the seed is revealed (docs/dice.md): once
a session has ended anyone may recompute the dice of a roll from the seed,
its number and its nonce, so the nonce and the dice of a roll a member did
not see never reach them: not over REST, not on the check page, not over
the websocket. Each hidden throw's nonce is the marker the scans look for."""

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from tests.api_paths import campaign_paths
from tests.live.conftest import session_cookie
from vtt import dice
from vtt.combat.models import Attack
from vtt.tabletop import policy
from vtt.tabletop.models import Roll
from vtt.tabletop.visibility import Viewer

from .conftest import CHECK, NOT_GM, make_secrets

GM_NONCE = "9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a"
PLAYER_NONCE = "7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b"


def play(prefix: str):
    """The secrets' table (its rolls opened session 1) rolls some more in
    secret, each with a nonce of its own, and the GM ends the session."""
    s = make_secrets(prefix)
    gm, player = s.users["gm"], s.users["player"]
    campaign_id = s.campaign.pk
    dice.roll_adjudicate(
        campaign_id=campaign_id, by=gm, request=CHECK, visibility="gm", nonce=GM_NONCE
    )
    for visibility in ("blind", "gm"):
        dice.roll_adjudicate(
            campaign_id=campaign_id,
            by=player,
            request=CHECK,
            visibility=visibility,
            nonce=PLAYER_NONCE,
        )
    s.seen = dice.roll_adjudicate(
        campaign_id=campaign_id, by=player, request=CHECK, nonce=PLAYER_NONCE
    )
    dice.session_end(campaign_id=campaign_id, by=gm)
    return s


def hidden_from(s, who: str) -> dict[str, int]:
    """The nonces of the throws `who` did not see, and their roll numbers."""
    user = s.users[who]
    role = s.campaign.memberships.get(user=user).role
    viewer = Viewer(user.pk, role)
    hidden = {
        r.draw["nonce"]: r.draw["roll"]
        for r in Roll.objects.filter(campaign=s.campaign)
        if not policy.sees_in_full(viewer, r.visibility, r.roller_id)
    }
    for attack in Attack.objects.filter(campaign=s.campaign, visibility="gm"):
        hidden[attack.draw["nonce"]] = attack.draw["roll"]
    return hidden


def scan(texts, hidden: dict) -> list[str]:
    joined = "\n".join(texts)
    return [nonce for nonce in hidden if nonce in joined]


@pytest.fixture
def table(db):
    return play("dice-")


def web_client(s, who: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(pk=s.users[who].pk))
    return client


def test_the_scan_would_see_a_nonce(table):
    # The GM's check page carries every nonce the players' must not.
    page = web_client(table, "gm").get(f"/campaigns/{table.campaign.pk}/sessions/1/")
    assert set(scan([page.content.decode()], hidden_from(table, "player"))) == set(
        hidden_from(table, "player")
    )
    # A player's hidden roll was made with the server's nonce, not theirs:
    # knowing their own would let them work out what it gave.
    assert PLAYER_NONCE not in hidden_from(table, "player")


@pytest.mark.parametrize("who", NOT_GM)
def test_rest_gives_no_hidden_nonce(table, who):
    client = web_client(table, who)
    hidden = hidden_from(table, who)
    urls = [
        *campaign_paths(table.campaign.pk),
        f"/api/campaigns/{table.campaign.pk}/sessions/1/",
        *(f"/api/rolls/{pk}/" for pk in Roll.objects.values_list("pk", flat=True)),
    ]
    answers = [client.get(url).content.decode() for url in urls]
    assert scan(answers, hidden) == []
    check = client.get(f"/api/campaigns/{table.campaign.pk}/sessions/1/").json()
    shown = {r["roll"] for r in check["rolls"]}
    assert shown and not shown & set(hidden.values())
    assert table.seen.draw["roll"] in shown


@pytest.mark.parametrize("who", NOT_GM)
def test_the_pages_give_no_hidden_nonce(table, who):
    client = web_client(table, who)
    pages = [
        client.get(f"/campaigns/{table.campaign.pk}/{path}").content.decode()
        for path in ("sessions/", "sessions/1/", "room/")
    ]
    assert scan(pages, hidden_from(table, who)) == []
    assert table.seen.draw["nonce"] in pages[1]  # what they saw is there to check


@pytest.fixture
def room(transactional_db):
    s = play("ws-dice-")
    s.campaign_id = s.campaign.pk
    s.cookies = {name: session_cookie(user) for name, user in s.users.items()}
    return s


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ("player", "observer"))
async def test_the_websocket_gives_no_hidden_nonce(room, clients, who):
    fresh = await clients(room, who)
    replayed = await clients(room, who, query="since=0")
    frames = [fresh.first, replayed.first]
    while True:
        frame = await replayed.until(lambda f: f["type"] == "resync")
        frames.append(frame)
        if not frame["more"]:
            break
    hidden = await database_sync_to_async(hidden_from)(room, who)
    assert scan([json.dumps(f) for f in frames], hidden) == []
    # The seed is out, and what they saw carries its nonce.
    text = json.dumps(frames)
    assert '"session.ended"' in text and room.seen.draw["nonce"] in text
