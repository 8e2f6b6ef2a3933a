"""Combat's reads and refusals (/api/combat/) keep the GM's secrets: hidden
attacks, the hidden lurker's turn in the order, the way it crept while
hidden, and the names of hidden combatants in error messages."""

import pytest

from vtt.combat.models import Combatant
from vtt.combat.services import encounters
from vtt.combat.services.attacks import attack_make
from vtt.combat.services.undo import undo_last
from vtt.tabletop import services
from vtt.tabletop.models import Campaign, Membership, RoomEvent
from vtt.tabletop.policy import event_view
from vtt.tabletop.visibility import Viewer

from .conftest import LURKER, NOT_GM, leaks


@pytest.fixture
def fight(secrets):
    """An encounter on the crypt with everyone on it, the lurker included."""
    return encounters.encounter_start(scene_id=secrets.crypt.pk, by=secrets.users["gm"])


def post(client, url, body=None):
    return client.post(url, body or {}, content_type="application/json")


@pytest.mark.parametrize("who", ("player", "other"))
def test_rolling_initiative_for_a_hidden_combatant_does_not_name_it(web, secrets, fight, who):
    lurker = Combatant.objects.get(encounter=fight, token=secrets.tokens.lurker)
    response = post(
        web(who), f"/api/combat/encounters/{fight.pk}/initiative/", {"combatants": [lurker.pk]}
    )
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert leaks(response.json()) == []
    lurker.refresh_from_db()
    assert lurker.initiative is None


def test_a_player_controlling_a_hidden_token_does_not_roll_for_it_unasked(web, secrets, fight):
    """Even a token the player controls is the GM's while it is hidden."""
    services.token_update(
        token_id=secrets.tokens.lurker.pk,
        by=secrets.users["gm"],
        controllers=[secrets.users["player"].pk],
    )
    response = post(web("player"), f"/api/combat/encounters/{fight.pk}/initiative/")
    assert response.status_code == 200
    assert leaks(response.json()) == []
    rolled = dict(Combatant.objects.filter(encounter=fight).values_list("token_id", "initiative"))
    assert rolled[secrets.tokens.tenrec.pk] is not None
    assert rolled[secrets.tokens.lurker.pk] is None


@pytest.mark.parametrize("who", NOT_GM)
def test_the_turn_order_leaves_the_lurker_out_even_on_its_turn(web, secrets, fight, who):
    lurker = Combatant.objects.get(encounter=fight, token=secrets.tokens.lurker)
    gm = secrets.users["gm"]
    encounters.encounter_set_initiative(
        encounter_id=fight.pk, by=gm, combatant_id=lurker.pk, initiative=99
    )
    encounters.encounter_next(encounter_id=fight.pk, by=gm)  # the lurker's turn
    body = web(who).get(f"/api/combat/scenes/{secrets.crypt.pk}/encounter/").json()
    assert leaks(body) == []
    assert body["current"] is None and body["turn"] is None
    assert lurker.pk not in {c["id"] for c in body["order"]}
    assert web("gm").get(f"/api/combat/scenes/{secrets.crypt.pk}/encounter/").json()["current"] == (
        lurker.pk
    )


def trail_of(client, secrets, token) -> dict | None:
    body = client.get(f"/api/combat/scenes/{secrets.crypt.pk}/trails/").json()
    return next((t for t in body["trails"] if t["token_id"] == token.pk), None)


@pytest.mark.parametrize("who", NOT_GM)
def test_revealing_a_token_does_not_show_the_way_it_crept_while_hidden(web, secrets, who):
    gm, lurker = secrets.users["gm"], secrets.tokens.lurker
    # Hidden, it crept from (10, 10) to (1, 3): the fixture's move; now two more.
    services.token_move(token_id=lurker.pk, by=gm, x=1, y=4)
    services.token_set_hidden(token_id=lurker.pk, by=gm, hidden=False)
    assert trail_of(web(who), secrets, lurker) is None
    # From here on everyone watches it move.
    services.token_move(token_id=lurker.pk, by=gm, x=1, y=5)
    assert trail_of(web(who), secrets, lurker) == {
        "token_id": lurker.pk,
        "start": [1, 4],
        "path": [[1, 5]],
    }
    assert trail_of(web("gm"), secrets, lurker) == {
        "token_id": lurker.pk,
        "start": [10, 10],
        "path": [[1, 3], [1, 4], [1, 5]],
    }


@pytest.mark.parametrize("who", NOT_GM)
def test_a_hidden_attack_is_in_no_list_and_a_preview_cannot_find_the_lurker(web, secrets, who):
    client = web(who)
    attacks = client.get(f"/api/combat/attacks/?campaign={secrets.campaign.pk}").json()
    assert secrets.hidden_attack.pk not in {a["id"] for a in attacks}
    response = post(
        client,
        "/api/combat/attacks/preview/",
        {"attacker_token": secrets.tokens.tenrec.pk, "target_token": secrets.tokens.lurker.pk},
    )
    assert response.status_code == 404
    assert leaks(response.json()) == []
    # The GM's own view names the lurker (by its token: see below).
    assert LURKER in leaks(web("gm").get(f"/api/combat/attacks/{secrets.hidden_attack.pk}/").json())


# Tenrec's long sword wounds the zombie (one die a side, then the wound test).
SWORD_HIT = [2, 3, 4, 4, 1]
# The bite wounds Tenrec.
BITE_HIT = [2, 3, 4, 4, 2, 1]


def test_an_npc_in_disguise_is_named_by_its_token_in_public_attacks(web, secrets):
    """The "Zombie" on the map is the vampire lord's sheet: every public
    attack on it or by it, its changes and their undo, name it "Zombie"."""
    gm, tokens = secrets.users["gm"], secrets.tokens
    services.token_update(
        token_id=tokens.zombie.pk, by=gm, character_id=secrets.characters.vampire.pk
    )
    # The hidden bite laid with the campaign rolls its own dice, and now and
    # then leaves Tenrec too hurt to act: the GM sets him on his feet first.
    tenrec = secrets.characters.tenrec
    tenrec.refresh_from_db()
    track = Campaign.objects.get(pk=secrets.campaign.pk).settings["condition_track"]
    services.character_update(
        character_id=tenrec.pk, by=gm, resources={**tenrec.resources, "condition": track[0]}
    )
    since = Campaign.objects.get(pk=secrets.campaign.pk).event_seq
    client = web("player")
    made = post(
        client,
        "/api/combat/attacks/",
        {
            "attacker_token": tokens.tenrec.pk,
            "target_token": tokens.zombie.pk,
            "weapon": "Long sword",
            "faces": SWORD_HIT,
        },
    )
    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["target"]["name"] == "Zombie"
    assert [c["character"] for c in body["changes"]] == ["Zombie"]
    # The vampire strikes back in the open, and the GM takes that back.
    bite = attack_make(
        by=gm,
        attacker_token_id=tokens.zombie.pk,
        target_token_id=tokens.tenrec.pk,
        weapon="Bite",
        faces=BITE_HIT,
    )
    assert bite.visibility == "public" and bite.attacker_name == "Zombie" and bite.changes
    undo_last(campaign_id=secrets.campaign.pk, by=gm)
    undo_last(campaign_id=secrets.campaign.pk, by=gm)

    for who in NOT_GM:
        reader = web(who)
        listed = reader.get(f"/api/combat/attacks/?campaign={secrets.campaign.pk}").json()
        assert {body["id"], bite.pk} <= {a["id"] for a in listed}
        assert leaks(listed) == []
        assert leaks(reader.get(f"/api/combat/attacks/{body['id']}/").json()) == []
        # The log as the live room hands it over, live and on a reconnect.
        member = Membership.objects.get(campaign=secrets.campaign, user=secrets.users[who])
        viewer = Viewer(member.user_id, member.role)
        events = RoomEvent.objects.filter(campaign=secrets.campaign, seq__gt=since)
        views = [event_view(event, viewer) for event in events.order_by("seq")]
        assert {"combat.attack", "undo"} <= {v["type"] for v in views}
        assert leaks(views) == []


def test_a_player_cannot_undo_or_reveal_the_gms_secret(web, secrets):
    client = web("player")
    undo = post(client, f"/api/combat/campaigns/{secrets.campaign.pk}/undo/")
    assert undo.status_code == 403
    assert leaks(undo.json()) == []
    seq = secrets.hidden_attack.event.seq
    reveal = post(client, f"/api/combat/campaigns/{secrets.campaign.pk}/reveal/", {"seq": seq})
    assert reveal.status_code == 403
    secrets.hidden_attack.refresh_from_db()
    assert secrets.hidden_attack.visibility == "gm"
    assert secrets.hidden_attack.status != "undone"
