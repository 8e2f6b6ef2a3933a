"""`manage.py demo`: the campaign once, passwords once, and a second run
that changes nothing."""

import io

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from vtt.tabletop.models import Campaign, Character, Membership, RoomEvent, Scene, Token

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
    assert set(tokens) == {"Tenrec", "Kobor", "Zombie"}
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


def test_a_missing_piece_is_put_back_and_nothing_else_changes(tmp_path):
    run(tmp_path / "pw")
    Token.objects.filter(name="Kobor").delete()
    users = list(Membership.objects.values_list("user_id", flat=True))
    out = run(tmp_path / "pw")
    assert "ready" in out and "gm:" not in out
    assert Token.objects.filter(name="Kobor").count() == 1
    assert list(Membership.objects.values_list("user_id", flat=True)) == users
