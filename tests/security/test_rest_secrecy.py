"""The REST API (/api/ and /api/combat/) as a curious player, an observer and
a stranger would use it: every read they may make is scanned for the GM's
secrets, and every object they may not know of answers 404 by its id."""

import pytest

from tests.api_paths import campaign_paths, scene_paths, token_paths

from .conftest import LAIR, LURKER, NOT_GM, NOTE, VAMPIRE, leaks


def everything(client, url) -> list:
    """Every page of a paged list, or the one answer of an unpaged read."""
    answers = []
    while url:
        response = client.get(url)
        assert response.status_code == 200, (url, response.content[:300])
        body = response.json()
        answers.append(body)
        url = body.get("next") if isinstance(body, dict) else None
    return answers


def readable(s) -> list[str]:
    """What a member may read about the campaign, one URL each."""
    return [
        "/api/campaigns/",
        *campaign_paths(s.campaign.pk),
        f"/api/characters/{s.characters.tenrec.pk}/",
        *scene_paths(s.crypt.pk),
        *token_paths(s.tokens.tenrec.pk, "?weapon=Long%20bow"),
        *token_paths(s.tokens.zombie.pk),
        f"/api/rolls/{s.rolls.public.pk}/",
    ]


@pytest.mark.parametrize("who", NOT_GM)
def test_nothing_a_member_reads_carries_a_secret(web, secrets, who):
    client = web(who)
    for url in readable(secrets):
        for body in everything(client, url):
            assert leaks(body) == [], (who, url)


def test_the_gm_reads_the_secrets_the_scan_looks_for(web, secrets):
    """The markers are real: the same reads give them to the GM."""
    client = web("gm")
    found = set()
    for url in readable(secrets):
        for body in everything(client, url):
            found.update(leaks(body))
    assert {NOTE, VAMPIRE, LURKER, LAIR} <= found


def probe(client, url):
    """A read, or for an encounter's initiative (a write) an empty POST."""
    if "/encounters/" in url:
        return client.post(url, {}, content_type="application/json")
    return client.get(url)


def unknowable(s) -> list[str]:
    """Objects of the campaign that exist for the GM alone."""
    t = s.tokens
    return [
        f"/api/characters/{s.characters.zombie.pk}/",
        f"/api/characters/{s.characters.vampire.pk}/",
        *(path for token in (t.lurker, t.dragon, t.waiting) for path in token_paths(token.pk)),
        *scene_paths(s.lair.pk),
        f"/api/combat/scenes/{s.lair.pk}/encounter/",
        f"/api/rolls/{s.rolls.gm.pk}/",
        f"/api/combat/attacks/{s.hidden_attack.pk}/",
        f"/api/combat/encounters/{s.lair_fight.pk}/initiative/",
    ]


@pytest.mark.parametrize("who", NOT_GM)
def test_what_the_gm_keeps_is_not_found_by_its_id(web, secrets, who):
    client = web(who)
    for url in unknowable(secrets):
        response = probe(client, url)
        assert response.status_code == 404, (who, url, response.content[:200])
        assert response.json()["error"]["code"] == "not_found"
        assert leaks(response.json()) == []


def test_the_gm_finds_them(web, secrets):
    client = web("gm")
    for url in unknowable(secrets):
        if "/encounters/" not in url:
            assert client.get(url).status_code == 200, url


@pytest.mark.parametrize(
    ("who", "roll", "seen"),
    [
        ("player", "players_gm", None),  # their own GM-only roll is the GM's
        ("player", "self_other", None),
        ("observer", "self_other", None),
        ("other", "self_other", "full"),
        ("player", "blind", "blind"),
        ("other", "blind", None),
        ("observer", "blind", None),
    ],
)
def test_each_roll_as_its_visibility_allows(web, secrets, who, roll, seen):
    client = web(who)
    made = getattr(secrets.rolls, roll)
    response = client.get(f"/api/rolls/{made.pk}/")
    listed = {
        r["id"]: r
        for page in everything(client, f"/api/campaigns/{secrets.campaign.pk}/rolls/")
        for r in page["results"]
    }
    if seen is None:
        assert response.status_code == 404
        assert made.pk not in listed
        return
    assert response.status_code == 200
    body = response.json()
    assert listed[made.pk] == body
    if seen == "blind":
        assert body["blind"] is True
        assert body["request"] is None and body["result"] is None and body["character"] is None
    else:
        assert body["result"] == made.result


@pytest.mark.parametrize("who", ("stranger", "player"))
def test_another_campaigns_objects_are_not_found(web, secrets, who):
    """A stranger knows nothing of The Tomb; a member of The Tomb nothing of
    the stranger's campaign, by any id."""
    if who == "stranger":
        s = secrets
        urls = readable(s) + unknowable(s)
        urls.remove("/api/campaigns/")
    else:
        far = secrets.elsewhere
        urls = [
            *campaign_paths(far.campaign.pk),
            f"/api/campaigns/{far.campaign.pk}/invites/",
            f"/api/characters/{far.character.pk}/",
            *scene_paths(far.scene.pk),
            *token_paths(far.token.pk),
            f"/api/rolls/{far.roll.pk}/",
        ]
    client = web(who)
    for url in urls:
        response = probe(client, url)
        assert response.status_code == 404, (who, url)
        assert leaks(response.json()) == []
    listed = {c["id"] for c in client.get("/api/campaigns/").json()["results"]}
    assert secrets.campaign.pk in listed if who == "player" else secrets.campaign.pk not in listed
    assert (secrets.elsewhere.campaign.pk in listed) == (who == "stranger")


def test_without_credentials_every_read_is_401(web, secrets):
    client = web(None)
    for url in readable(secrets) + unknowable(secrets):
        response = probe(client, url)
        assert response.status_code == 401, url
        assert leaks(response.content.decode()) == []


@pytest.mark.parametrize("who", NOT_GM)
def test_gm_notes_never_reach_a_member(web, secrets, who):
    client = web(who)
    for body in everything(client, f"/api/campaigns/{secrets.campaign.pk}/characters/"):
        for character in body["results"]:
            assert "gm_notes" not in character
            assert character["kind"] == "pc"
