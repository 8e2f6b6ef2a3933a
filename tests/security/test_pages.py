"""The HTML pages and the JSON embedded in them, and the admin site: members
see only what the API would show them, the GM's pages do not exist for
others, and names typed by anyone are shown as text, never as markup."""

import pytest

from vtt.tabletop import services

from .conftest import NOT_GM, NOTE, VAMPIRE, leaks

SCRIPT = '<script>alert("pwned")</script>'


def character_pages(s, *characters) -> list[str]:
    return [f"/campaigns/{s.campaign.pk}/characters/{c.pk}/" for c in characters]


def member_pages(s) -> list[str]:
    c = s.campaign.pk
    return [
        "/",
        f"/campaigns/{c}/room/",
        f"/campaigns/{c}/characters/",
        *character_pages(s, s.characters.tenrec, s.characters.kobor),
    ]


def gm_pages(s) -> list[str]:
    c = s.campaign.pk
    return [
        f"/campaigns/{c}/gm/",
        *(f"/campaigns/{c}/gm/scenes/{scene.pk}/" for scene in (s.crypt, s.lair)),
        # The page that asks before a token is removed names a hidden one.
        f"/campaigns/{c}/gm/scenes/{s.crypt.pk}/tokens/{s.tokens.lurker.pk}/remove/",
        *character_pages(s, s.characters.zombie, s.characters.vampire),
    ]


@pytest.mark.parametrize("who", NOT_GM)
def test_no_page_a_member_opens_carries_a_secret(web, secrets, who):
    client = web(who)
    for url in member_pages(secrets):
        response = client.get(url)
        assert response.status_code == 200, url
        assert leaks(response.content.decode()) == [], (who, url)


def test_the_gms_pages_do_carry_them(web, secrets):
    client = web("gm")
    found = set()
    for url in member_pages(secrets) + gm_pages(secrets):
        response = client.get(url)
        assert response.status_code == 200, url
        found.update(leaks(response.content.decode()))
    assert {NOTE, VAMPIRE} <= found


@pytest.mark.parametrize("who", NOT_GM + ("stranger",))
def test_the_gms_pages_do_not_exist_for_anyone_else(web, secrets, who):
    client = web(who)
    for url in gm_pages(secrets):
        response = client.get(url)
        assert response.status_code == 404, (who, url)
        assert leaks(response.content.decode()) == []
    undo = client.post(f"/campaigns/{secrets.campaign.pk}/gm/undo/")
    assert undo.status_code == 404


def test_a_stranger_sees_no_page_of_the_campaign(web, secrets):
    client = web("stranger")
    for url in member_pages(secrets)[1:]:
        assert client.get(url).status_code == 404, url
    assert "The Tomb" not in client.get("/").content.decode()


def test_an_npc_handed_to_a_player_stays_off_their_room_page(web, secrets):
    """The GM may name a player as an NPC's owner (a PC the GM took over, a
    hireling): the NPC is still the GM's, as the API and the room say."""
    services.character_update(
        character_id=secrets.characters.vampire.pk,
        by=secrets.users["gm"],
        owner_id=secrets.users["player"].pk,
    )
    page = web("player").get(f"/campaigns/{secrets.campaign.pk}/room/").content.decode()
    assert leaks(page) == []
    assert web("player").get(f"/api/characters/{secrets.characters.vampire.pk}/").status_code == 404


def test_typed_markup_is_shown_as_text_on_every_page(web, secrets):
    """A player names their character, the GM a token and the campaign, all
    with a script in it: no page ever carries the markup itself."""
    gm, player = secrets.users["gm"], secrets.users["player"]
    services.character_update(
        character_id=secrets.characters.tenrec.pk, by=player, name="Tenrec " + SCRIPT
    )
    services.token_update(token_id=secrets.tokens.kobor.pk, by=gm, name="Kobor " + SCRIPT)
    services.campaign_update(campaign_id=secrets.campaign.pk, by=gm, name="Tomb " + SCRIPT)
    for who in ("gm", "player"):
        client = web(who)
        urls = member_pages(secrets) + (gm_pages(secrets) if who == "gm" else [])
        for url in urls:
            page = client.get(url).content.decode()
            assert "<script>alert" not in page, (who, url)
    room = web("player").get(f"/campaigns/{secrets.campaign.pk}/room/").content.decode()
    # The room's JSON keeps the name, with "<" escaped for the HTML around it.
    assert "Tenrec \\u003Cscript\\u003Ealert" in room


@pytest.mark.parametrize("who", ("gm", "player"))
def test_the_admin_site_is_for_staff_only(web, secrets, who):
    """A campaign's GM is not the site's administrator."""
    client = web(who)
    for url in (
        "/admin/",
        "/admin/tabletop/character/",
        f"/admin/tabletop/character/{secrets.characters.zombie.pk}/change/",
        "/admin/tabletop/roll/",
    ):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], url
        assert NOTE not in response.content.decode()


def test_joining_with_an_invite_that_has_run_out_is_refused_on_the_page(web, secrets):
    from django.utils import timezone

    invite = secrets.elsewhere.invite
    invite.max_uses, invite.uses = 1, 1
    invite.save()
    client = web("player")
    response = client.post("/join/", {"code": invite.code})
    assert response.status_code == 400
    assert "used up" in response.content.decode()
    invite.max_uses, invite.expires_at = None, timezone.now()
    invite.save()
    response = client.post("/join/", {"code": invite.code})
    assert response.status_code == 400
    assert "expired" in response.content.decode()
    assert not secrets.elsewhere.campaign.memberships.filter(user=secrets.users["player"]).exists()
