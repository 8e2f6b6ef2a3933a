"""`manage.py demo`: a campaign for each game once, passwords once, and a
second run that changes nothing."""

import io

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from PIL import Image

from vtt import games
from vtt.demo import DEMOS
from vtt.games.drawing import PX
from vtt.games.game_settings import defaults
from vtt.games.sheets import clean_sheet, clean_weapons
from vtt.tabletop import services
from vtt.tabletop.models import Campaign, Character, Membership, RoomEvent, Scene, Token

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def run(passwords_file) -> str:
    out = io.StringIO()
    call_command("demo", passwords_file=str(passwords_file), stdout=out)
    return out.getvalue()


def everything():
    return [
        list(model.objects.order_by("pk").values())
        for model in (Campaign, Membership, Character, Scene, Token, RoomEvent)
    ]


def test_the_tomb_is_laid_out(tmp_path):
    run(tmp_path / "pw")
    campaign = Campaign.objects.get(name="The Tomb")
    assert campaign.game == "artifice"
    roles = dict(Membership.objects.filter(campaign=campaign).values_list("user__username", "role"))
    assert roles == {"gm": "gm", "player": "player"}
    characters = {c.name: c for c in Character.objects.filter(campaign=campaign)}
    assert characters["Tenrec"].owner.username == "player"
    assert characters["Tenrec"].sheet["class"] == "Warrior"
    assert characters["Tenrec"].sheet["abilities"]["Finesse"]["dice"] == 4
    assert characters["Kobor"].sheet["class"] == "Sorcerer" and characters["Kobor"].kind == "pc"
    assert characters["Zombie"].kind == "npc"
    scene = campaign.active_scene
    assert scene.name == "Tomb entrance" and scene.walls
    tokens = {t.name: t for t in Token.objects.filter(scene=scene)}
    assert set(tokens) == {"Tenrec", "Kobor", "Zombie", "Skeleton archer"}
    assert [u.username for u in tokens["Tenrec"].controllers.all()] == ["player"]
    assert {t.character.name for t in tokens.values()} == set(tokens)


def test_passwords_are_printed_once_and_kept_in_the_file(tmp_path):
    passwords = tmp_path / "pw"
    first = run(passwords)
    lines = dict(line.split(": ") for line in passwords.read_text().splitlines())
    assert set(lines) == {"gm", "player"}
    for username, password in lines.items():
        assert f"{username}: {password}" in first
        assert authenticate(username=username, password=password) is not None
    assert oct(passwords.stat().st_mode & 0o777) == "0o600"
    before = everything()
    second = run(passwords)
    assert "nothing changed" in second
    for password in lines.values():
        assert password not in second
    assert everything() == before
    assert dict(line.split(": ") for line in passwords.read_text().splitlines()) == lines


def test_the_file_keeps_only_passwords_that_log_in(tmp_path, django_user_model):
    """A file left by runs against other databases: its lines are replaced
    by the pair this run made, and a user this run did not make keeps the
    line that still logs it in."""
    passwords = tmp_path / "pw"
    passwords.write_text("gm: from-last-week\nplayer: from-last-week-too\n")
    run(passwords)
    lines = passwords.read_text().splitlines()
    assert [line.split(": ")[0] for line in lines] == ["gm", "player"]
    for username, password in (line.split(": ") for line in lines):
        assert authenticate(username=username, password=password) is not None
    assert "from-last-week" not in passwords.read_text()

    # The player's account is gone (a reset database keeps the GM's): the
    # next run makes the player anew; the GM's working line stays.
    gm_line = lines[0]
    django_user_model.objects.filter(username="player").delete()
    passwords.write_text(passwords.read_text() + "player: older-still\n")
    out = run(passwords)
    lines = passwords.read_text().splitlines()
    assert lines[0] == gm_line and len(lines) == 2
    username, password = lines[1].split(": ")
    assert username == "player" and f"player: {password}" in out
    assert authenticate(username="player", password=password) is not None
    assert oct(passwords.stat().st_mode & 0o777) == "0o600"


def test_a_missing_piece_is_put_back_and_nothing_else_changes(tmp_path):
    run(tmp_path / "pw")
    Token.objects.filter(name="Kobor").delete()
    users = list(Membership.objects.values_list("user_id", flat=True))
    out = run(tmp_path / "pw")
    assert "ready" in out and "gm:" not in out
    assert Token.objects.filter(name="Kobor").count() == 1
    assert list(Membership.objects.values_list("user_id", flat=True)) == users


def test_a_campaign_for_every_game(tmp_path, media):
    run(tmp_path / "pw")
    campaigns = Campaign.objects.order_by("pk")
    assert sorted(c.game for c in campaigns) == games.ids()
    assert [c.name for c in campaigns] == [demo.campaign for demo in DEMOS]
    for demo in DEMOS:
        campaign = Campaign.objects.get(name=demo.campaign)
        assert campaign.game == demo.game
        roles = dict(campaign.memberships.values_list("user__username", "role"))
        assert roles == {"gm": "gm", "player": "player"}
        scene = campaign.active_scene
        assert scene is not None and scene.name == demo.scene.name
        assert scene.walls == demo.scene.walls and len(scene.walls) >= 4
        # The background went through the scene service into the storage,
        # and is a picture of the scene's size at PX pixels a square.
        assert scene.background.name.startswith("scenes/")
        with Image.open(media / scene.background.name) as picture:
            picture.verify()
        with Image.open(media / scene.background.name) as picture:
            assert picture.size == (scene.width * PX, scene.height * PX)
        characters = Character.objects.filter(campaign=campaign)
        pcs = [c for c in characters if c.kind == "pc"]
        npcs = [c for c in characters if c.kind == "npc"]
        assert len(pcs) >= 2 and len(npcs) >= 2
        assert [c.owner.username for c in pcs if c.owner] == ["player"]
        assert any(c.owner is None for c in pcs)
        tokens = {t.character_id: t for t in Token.objects.filter(scene=scene)}
        for character in characters:
            # Stored as the kit cleans it, and clean again when cleaned again.
            assert clean_sheet(campaign.game, character.sheet, campaign.settings) == character.sheet
            assert character.sheet and character.weapons
            assert clean_weapons(campaign.game, character.weapons) == character.weapons
            token = tokens[character.pk]
            assert not token.hidden
            owner = [character.owner_id] if character.owner_id else []
            assert [u.pk for u in token.controllers.all()] == owner


def test_every_sheet_gives_the_tray_something_to_roll():
    for demo in DEMOS:
        kit = games.kit(demo.game)
        for figure in demo.figures:
            clean = clean_sheet(demo.game, figure.sheet, defaults(demo.game))
            assert kit.entries(clean), f"{figure.name} has nothing to roll"


def test_the_tokens_stand_on_their_scene_and_apart():
    for demo in DEMOS:
        squares = [figure.at for figure in demo.figures]
        assert len(set(squares)) == len(squares), demo.campaign
        for x, y in squares:
            assert 0 <= x < demo.scene.width and 0 <= y < demo.scene.height


def test_the_player_opens_every_demo_room(tmp_path, client):
    run(tmp_path / "pw")
    client.force_login(Membership.objects.filter(user__username="player").first().user)
    for campaign in Campaign.objects.all():
        page = client.get(f"/campaigns/{campaign.pk}/room/")
        assert page.status_code == 200, campaign.name
        assert campaign.name in page.content.decode()


def test_a_second_run_draws_nothing_new(tmp_path, media):
    run(tmp_path / "pw")
    files = sorted(p.name for p in (media / "scenes").iterdir())
    assert len(files) == len(DEMOS)
    run(tmp_path / "pw")
    assert sorted(p.name for p in (media / "scenes").iterdir()) == files


def test_a_lost_background_is_drawn_again(tmp_path, media):
    run(tmp_path / "pw")
    scene = Scene.objects.get(name="Cargo deck")
    gm = scene.campaign.memberships.get(role="gm").user
    services.scene_clear_background(scene_id=scene.pk, by=gm)
    others = [s.background.name for s in Scene.objects.exclude(pk=scene.pk).order_by("pk")]
    assert "ready" in run(tmp_path / "pw")
    scene.refresh_from_db()
    assert scene.background
    assert [s.background.name for s in Scene.objects.exclude(pk=scene.pk).order_by("pk")] == others


def test_every_demo_character_gets_its_portrait(tmp_path, media):
    run(tmp_path / "pw")
    for character in Character.objects.all():
        assert character.portrait, character.name
        # Stored as every portrait is: re-encoded to WebP, with its thumbnails.
        with Image.open(character.portrait.path) as picture:
            assert picture.format == "WEBP"
        assert character.portrait_128 and character.portrait_256
