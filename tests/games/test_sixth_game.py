"""A game is one module: Sixes (tests/games/sixes.py), registered by a
fixture, is offered everywhere the five games are, with nothing else
changed: campaign creation, the dice tray with exact odds, the sheet
editor, rolls for a character and an attack with its wound chain."""

import itertools
import json

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from vtt import games
from vtt.live import chat_commands
from vtt.live.intents import Asker
from vtt.rules import odds
from vtt.tabletop import services
from vtt.tabletop.models import Campaign, Character, Membership, Role, Roll

from . import sixes

pytestmark = pytest.mark.django_db


@pytest.fixture
def sixes_game():
    unregister = games.register(sixes.KIT)
    yield sixes.KIT
    unregister()


@pytest.fixture
def people(db):
    make = get_user_model().objects.create_user
    return {name: make(name) for name in ("gm", "player")}


def client_for(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def table(sixes_game, people):
    """A Sixes campaign made through the API, with the player in it."""
    made = client_for(people["gm"]).post(
        "/api/campaigns/", {"name": "Dice pit", "game": "sixes"}, format="json"
    )
    assert made.status_code == 201, made.content
    campaign = Campaign.objects.get(pk=made.json()["id"])
    Membership.objects.create(campaign=campaign, user=people["player"], role=Role.PLAYER)
    return campaign


def test_the_game_is_offered_only_while_registered(people, client):
    client.force_login(people["gm"])
    assert "Sixes" not in client.get("/").content.decode()
    unregister = games.register(sixes.KIT)
    try:
        assert '<option value="sixes">Sixes</option>' in client.get("/").content.decode()
        made = client.post("/campaigns/new/", {"name": "Dice pit", "game": "sixes"})
        assert made.status_code == 302
        campaign = Campaign.objects.get(name="Dice pit")
        assert campaign.game == "sixes"
        assert campaign.settings == {
            "diagonal": "uniform",
            "starting_grit": 3,
            "wound_states": ["Fine", "Bloodied", "Down", "Gone"],
            "wounds_per_state": 2,
            "skip_fallen": True,
            # The table's own, which no game lists (vtt.games.kit.TABLE_SETTINGS).
            "players_place_tokens": False,
            "own_vision": False,
            "players_open_doors": False,
            "attacks_on_turn": False,
            "drawing": "everyone",
        }
    finally:
        unregister()
    refused = client_for(people["gm"]).post(
        "/api/campaigns/", {"name": "Later", "game": "sixes"}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "game"


def test_the_settings_form_draws_the_games_settings(table, people, client):
    client.force_login(people["gm"])
    page = client.get(f"/campaigns/{table.pk}/gm/").content.decode()
    assert "Wounds for each state down the track" in page
    saved = client_for(people["gm"]).patch(
        f"/api/campaigns/{table.pk}/", {"settings": {"wounds_per_state": 0}}, format="json"
    )
    assert saved.status_code == 400
    assert saved.json()["error"]["field"] == "settings.wounds_per_state"


def exact_success(pool: int, target: int) -> float:
    """Every throw of the pool counted out, independently of the kit."""
    throws = list(itertools.product(range(1, 7), repeat=pool))
    return sum(any(face >= target for face in throw) for throw in throws) / len(throws)


def test_the_dice_tray_offers_the_game_with_exact_odds(table, people, client):
    client.force_login(people["player"])
    page = client.get(f"/campaigns/{table.pk}/room/")
    spec = page.context["tray"]
    assert spec["name"] == "Sixes" and [a["id"] for a in spec["actions"]] == ["roll"]
    fields = {f["name"]: f for f in spec["actions"][0]["fields"]}
    assert fields["pool"]["label"] == "Dice"
    assert (fields["pool"]["min"], fields["pool"]["max"]) == (1, 12)
    assert fields["grit"]["type"] == "bool" and spec["fillable"] == ["pool"]
    # The page hands the same spec to the tray's script.
    script = page.content.decode().split('id="tray-spec"')[1].split(">", 1)[1]
    assert json.loads(script.split("</script>")[0]) == spec
    answer = client_for(people["player"]).post(
        "/api/odds/", {"system": "sixes", "action": "roll", "pool": 3, "target": 4}, format="json"
    )
    assert answer.status_code == 200
    assert answer.json()["outcomes"]["success"] == pytest.approx(exact_success(3, 4), abs=1e-12)
    assert odds({"system": "sixes", "action": "roll", "pool": 2, "grit": True})["outcomes"][
        "success"
    ] == pytest.approx(exact_success(3, 5), abs=1e-12)


def test_the_sheet_editor_draws_and_saves_the_games_sheet(table, people, client):
    hero = services.character_create(
        campaign_id=table.pk, by=people["gm"], name="Vex", owner_id=people["player"].pk
    )
    assert hero.resources == {"grit": 3, "wounds": 0}
    client.force_login(people["player"])
    url = f"/campaigns/{table.pk}/characters/{hero.pk}/"
    page = client.get(url).content.decode()
    assert 'name="sheet.skills.Fight"' in page and 'name="sheet.skills.Sneak"' in page
    saved = client.post(url, {"name": "Vex", "sheet.skills.Fight": "4", "sheet.skills.Sneak": "13"})
    assert saved.status_code == 400 and "between 1 and 12" in saved.content.decode()
    hero.refresh_from_db()
    assert hero.sheet == {"skills": {"Fight": 1, "Sneak": 1}}
    client.post(url, {"name": "Vex", "sheet.skills.Fight": "4", "sheet.skills.Sneak": "2"})
    hero.refresh_from_db()
    assert hero.sheet == {"skills": {"Fight": 4, "Sneak": 2}}


def test_a_roll_for_a_character_reads_the_sheet_and_spends_grit(table, people):
    hero = services.character_create(
        campaign_id=table.pk,
        by=people["gm"],
        name="Vex",
        owner_id=people["player"].pk,
        sheet={"skills": {"Fight": 2}},
    )
    rolled = client_for(people["player"]).post(
        f"/api/campaigns/{table.pk}/rolls/",
        {
            "request": {"system": "sixes", "action": "roll", "grit": True, "faces": [1, 2, 6]},
            "character_id": hero.pk,
            "fill": {"pool": "Fight"},
        },
        format="json",
    )
    assert rolled.status_code == 201, rolled.content
    assert rolled.json()["result"]["hits"] == 1
    assert rolled.json()["request"]["pool"] == 2
    hero.refresh_from_db()
    assert hero.resources["grit"] == 2
    listed = client_for(people["player"]).get(f"/api/campaigns/{table.pk}/characters/")
    assert listed.json()["results"][0]["entries"] == [
        {"label": "Fight 2D", "value": 2},
        {"label": "Sneak 1D", "value": 1},
    ]


def test_a_roll_from_the_chat_takes_the_games_fields_by_name(table, people):
    hero = services.character_create(
        campaign_id=table.pk, by=people["gm"], name="Vex", owner_id=people["player"].pk
    )
    asker = Asker(user=people["player"], room=table.pk)
    answer = chat_commands.run(asker, "/r pool=2 grit as vex")
    roll = Roll.objects.get(pk=answer["roll_id"])
    assert (roll.request["pool"], roll.request["grit"], roll.character_id) == (2, True, hero.pk)
    hero.refresh_from_db()
    assert hero.resources["grit"] == 2
    assert "roll: pool, target, grit" in chat_commands.run(asker, "/help")["help"]


def test_an_attack_runs_the_games_chain_and_wound_track(table, people):
    gm = people["gm"]
    scene = services.scene_create(campaign_id=table.pk, by=gm, name="Pit", width=10, height=10)
    services.scene_activate(scene_id=scene.pk, by=gm)
    fighters = {}
    for name, owner, x, sheet in (
        ("Vex", people["player"], 1, {"skills": {"Fight": 3}}),
        ("Brute", None, 2, {}),
    ):
        character = services.character_create(
            campaign_id=table.pk,
            by=gm,
            name=name,
            kind="pc" if owner else "npc",
            owner_id=owner.pk if owner else None,
            sheet=sheet,
            weapons=[{"name": "Knife", "damage": 1}] if owner else [],
        )
        fighters[name] = services.token_create(
            scene_id=scene.pk, by=gm, name=name, x=x, y=1, character_id=character.pk
        )
    made = client_for(people["player"]).post(
        "/api/combat/attacks/",
        {
            "attacker_token": fighters["Vex"].pk,
            "target_token": fighters["Brute"].pk,
            "weapon": "Knife",
            "faces": [5, 6, 2],
        },
        format="json",
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["outcome"] == "hit" and body["damage"] == 3
    brute = Character.objects.get(name="Brute")
    assert brute.resources["wounds"] == 3
    gm_view = client_for(gm).get(f"/api/characters/{brute.pk}/").json()
    assert gm_view["wounds"] == {"state": "Bloodied", "out": False, "dead": False, "hurt": True}
    again = client_for(people["player"]).post(
        "/api/combat/attacks/",
        {
            "attacker_token": fighters["Vex"].pk,
            "target_token": fighters["Brute"].pk,
            "faces": [1, 5, 1],
        },
        format="json",
    )
    assert again.status_code == 201, again.content
    brute.refresh_from_db()
    assert brute.resources == {"grit": 3, "wounds": 4}
    gm_view = client_for(gm).get(f"/api/characters/{brute.pk}/").json()
    assert gm_view["wounds"] == {"state": "Down", "out": True, "dead": False, "hurt": True}
