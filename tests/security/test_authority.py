"""Who may change what: a curious player tries everything that is not theirs
(another's token and character, the GM's results and powers, a higher role,
a spent invite), and each attempt is refused with its status and code and
leaves the table exactly as it was."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.combat.battle import make_battle
from vtt.combat.models import Attack, Combatant
from vtt.combat.services.attacks import attack_make
from vtt.combat.services.encounters import encounter_start
from vtt.tabletop import services
from vtt.tabletop.models import Character, Invite, Membership, RoomEvent, Token

from .conftest import CHECK, leaks


def state(s) -> tuple:
    """Everything these attempts could change."""
    return (
        list(
            Token.objects.filter(scene__campaign=s.campaign).values_list("pk", "x", "y", "version")
        ),
        list(Character.objects.filter(campaign=s.campaign).values_list("pk", "name", "resources")),
        list(Membership.objects.filter(campaign=s.campaign).values_list("user_id", "role")),
        list(Invite.objects.values_list("pk", "uses")),
        RoomEvent.objects.count(),
    )


def attempts(s) -> list[tuple]:
    """(who, method, url, body, status, code) for each thing to try."""
    c = s.campaign.pk
    t, ch = s.tokens, s.characters
    player = s.users["player"].pk
    check = {"request": CHECK}
    return [
        ("player", "post", f"/api/tokens/{t.kobor.pk}/move/", {"x": 5, "y": 5}, 403, "forbidden"),
        ("player", "post", f"/api/tokens/{t.zombie.pk}/move/", {"x": 5, "y": 5}, 403, "forbidden"),
        ("player", "post", f"/api/tokens/{t.lurker.pk}/move/", {"x": 5, "y": 5}, 404, "not_found"),
        ("player", "post", f"/api/tokens/{t.waiting.pk}/move/", {"x": 5, "y": 5}, 404, "not_found"),
        ("observer", "post", f"/api/tokens/{t.tenrec.pk}/move/", {"x": 5, "y": 5}, 403, "forbidden"),
        ("player", "post", f"/api/tokens/{t.tenrec.pk}/hidden/", {"hidden": True}, 403, "forbidden"),
        ("player", "patch", f"/api/tokens/{t.tenrec.pk}/", {"controllers": [player]}, 403, "forbidden"),
        ("player", "post", f"/api/scenes/{s.crypt.pk}/tokens/", {"name": "Mine"}, 403, "forbidden"),
        ("player", "post", f"/api/combat/tokens/{t.kobor.pk}/reset/", None, 403, "forbidden"),
        ("player", "post", f"/api/characters/{ch.kobor.pk}/spend/",
         {"resource": "experience", "amount": 1}, 403, "forbidden"),
        ("player", "post", f"/api/characters/{ch.tenrec.pk}/award/",
         {"resource": "experience", "amount": 100}, 403, "forbidden"),
        ("player", "patch", f"/api/characters/{ch.tenrec.pk}/",
         {"resources": {"experience": 100}}, 403, "forbidden"),
        ("player", "patch", f"/api/characters/{ch.tenrec.pk}/", {"kind": "npc"}, 403, "forbidden"),
        ("player", "patch", f"/api/characters/{ch.tenrec.pk}/", {"gm_notes": "x"}, 403, "forbidden"),
        ("player", "patch", f"/api/characters/{ch.kobor.pk}/", {"name": "Mine"}, 403, "forbidden"),
        ("player", "delete", f"/api/characters/{ch.kobor.pk}/", None, 403, "forbidden"),
        ("player", "patch", f"/api/characters/{ch.zombie.pk}/", {"name": "Mine"}, 404, "not_found"),
        ("player", "post", f"/api/campaigns/{c}/characters/", {"name": "Imp", "kind": "npc"},
         403, "forbidden"),
        ("player", "post", f"/api/campaigns/{c}/characters/",
         {"name": "Imp", "owner_id": s.users["other"].pk}, 403, "forbidden"),
        ("observer", "post", f"/api/campaigns/{c}/characters/", {"name": "Imp"}, 403, "forbidden"),
        ("player", "post", f"/api/campaigns/{c}/rolls/", {**check, "character_id": ch.kobor.pk},
         403, "forbidden"),
        ("player", "post", f"/api/campaigns/{c}/rolls/", {**check, "character_id": ch.zombie.pk},
         404, "not_found"),
        ("observer", "post", f"/api/campaigns/{c}/rolls/", check, 403, "forbidden"),
        ("player", "post", f"/api/campaigns/{c}/rolls/",
         {"request": {**CHECK, "system": "rd6"}}, 400, "invalid"),
        ("player", "patch", f"/api/campaigns/{c}/members/{player}/", {"role": "gm"}, 403, "forbidden"),
        ("observer", "patch", f"/api/campaigns/{c}/members/{s.users['observer'].pk}/",
         {"role": "player"}, 403, "forbidden"),
        ("player", "delete", f"/api/campaigns/{c}/members/{s.users['gm'].pk}/", None, 403, "forbidden"),
        ("player", "post", f"/api/campaigns/{c}/invites/", {"role": "player"}, 403, "forbidden"),
        ("player", "get", f"/api/campaigns/{c}/invites/", None, 403, "forbidden"),
        ("player", "patch", f"/api/campaigns/{c}/", {"name": "Mine"}, 403, "forbidden"),
        ("player", "delete", f"/api/campaigns/{c}/", None, 403, "forbidden"),
        ("player", "post", f"/api/scenes/{s.crypt.pk}/activate/", None, 403, "forbidden"),
        ("player", "post", f"/api/scenes/{s.lair.pk}/activate/", None, 404, "not_found"),
        ("gm", "post", f"/api/campaigns/{c}/invites/", {"role": "gm"}, 400, "invalid"),
        ("player", "post", "/api/combat/attacks/",
         {"attacker_token": t.kobor.pk, "target_token": t.zombie.pk}, 403, "forbidden"),
        ("player", "post", "/api/combat/attacks/",
         {"attacker_token": t.tenrec.pk, "target_token": t.zombie.pk, "visibility": "gm"},
         403, "forbidden"),
        ("player", "post", "/api/combat/attacks/",
         {"attacker_token": t.tenrec.pk, "target_token": t.zombie.pk,
          "overrides": {"attack": {"attacker": {"finesse": 6}}}}, 403, "forbidden"),
        ("player", "post", "/api/combat/attacks/",
         {"attacker_token": t.tenrec.pk, "target_token": t.zombie.pk,
          "options": {"defense_skill": "Agility"}}, 403, "forbidden"),
        ("observer", "post", "/api/combat/attacks/",
         {"attacker_token": t.tenrec.pk, "target_token": t.zombie.pk}, 403, "forbidden"),
        ("player", "post", f"/api/combat/characters/{ch.tenrec.pk}/repair/", {"weapon": "Long sword"},
         403, "forbidden"),
        ("player", "post", f"/api/combat/scenes/{s.crypt.pk}/encounter/", {}, 403, "forbidden"),
        ("player", "delete", f"/api/combat/scenes/{s.crypt.pk}/trails/", None, 403, "forbidden"),
        ("player", "post", f"/api/combat/campaigns/{c}/undo/", {}, 403, "forbidden"),
        ("stranger", "post", f"/api/combat/campaigns/{c}/undo/", {}, 404, "not_found"),
        ("stranger", "post", f"/api/tokens/{t.tenrec.pk}/move/", {"x": 5, "y": 5}, 404, "not_found"),
        ("stranger", "post", f"/api/campaigns/{c}/rolls/", check, 404, "not_found"),
    ]  # fmt: skip


def test_every_attempt_is_refused_and_changes_nothing(web, secrets):
    before = state(secrets)
    for who, method, url, body, status, code in attempts(secrets):
        client = web(who)
        kwargs = {"content_type": "application/json"} if body is not None else {}
        response = (
            getattr(client, method)(url, body, **kwargs)
            if body is not None
            else (getattr(client, method)(url))
        )
        assert response.status_code == status, (who, method, url, response.content[:300])
        error = response.json()["error"]
        assert error["code"] == code, (who, url, error)
        assert leaks(response.json()) == [], (who, url)
        assert state(secrets) == before, (who, method, url)


def test_a_player_undoes_only_their_own_last_move(web, secrets):
    gm, player = secrets.users["gm"], secrets.users["player"]
    tenrec = secrets.tokens.tenrec
    services.token_move(token_id=tenrec.pk, by=player, x=2, y=3)
    services.token_move(token_id=secrets.tokens.zombie.pk, by=gm, x=4, y=4)
    url = f"/api/combat/campaigns/{secrets.campaign.pk}/undo/"
    refused = web("player").post(url, {}, content_type="application/json")
    assert refused.status_code == 403
    assert Token.objects.get(pk=secrets.tokens.zombie.pk).x == 4
    services.token_move(token_id=tenrec.pk, by=player, x=2, y=4)
    undone = web("player").post(url, {}, content_type="application/json")
    assert undone.status_code == 200
    assert (
        Token.objects.get(pk=tenrec.pk).y,
        Token.objects.get(pk=secrets.tokens.zombie.pk).x,
    ) == (
        3,
        4,
    )


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"max_uses": 1, "uses": 1}, "invite_used_up"),
        ({"expires_at": timezone.now() - timedelta(seconds=1)}, "invite_expired"),
    ],
)
def test_a_spent_invite_lets_nobody_in(web, secrets, change, code):
    invite = secrets.elsewhere.invite
    Invite.objects.filter(pk=invite.pk).update(**change)
    response = web("player").post(
        "/api/invites/accept/", {"code": invite.code}, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": code,
        "message": response.json()["error"]["message"],
        "field": "code",
    }
    assert not Membership.objects.filter(
        campaign=secrets.elsewhere.campaign, user=secrets.users["player"]
    ).exists()
    assert Invite.objects.get(pk=invite.pk).uses == change.get("uses", 0)


def test_an_invite_never_changes_a_members_role(web, secrets):
    """A player accepting an observer invite of their own campaign stays a
    player; a guessed code is not found."""
    invite = services.invite_create(
        campaign=secrets.campaign, by=secrets.users["gm"], role="observer"
    )
    response = web("player").post(
        "/api/invites/accept/", {"code": invite.code}, content_type="application/json"
    )
    assert response.status_code == 200 and response.json()["role"] == "player"
    # Another last character: the real code may end in any letter.
    wrong = invite.code[:-1] + ("x" if invite.code[-1] != "x" else "y")
    guessed = web("stranger").post(
        "/api/invites/accept/", {"code": wrong}, content_type="application/json"
    )
    assert guessed.status_code == 404


def test_a_player_demoted_to_observer_changes_nothing_with_what_they_still_own(db):
    """Demoting a player leaves them owning their character and controlling
    its token; as an observer they may still neither decide its damage, nor
    roll its initiative, nor put its token back, nor undo its last move."""
    fgr = make_battle(
        "fgr",
        sheets={"tenrec": {"skills": {"Melee": 3}}, "zombie": {"skills": {"Melee": 3}}},
        weapons={"zombie": [{"name": "Bite", "kind": "melee", "damage": 2}]},
    )
    gm, player = fgr.users["gm"], fgr.users["player"]
    fight = encounter_start(scene_id=fgr.scene.pk, by=gm)
    # The zombie's bite waits for Tenrec's player to spend Action Points.
    bite = attack_make(
        by=gm,
        attacker_token_id=fgr.tokens["zombie"].pk,
        target_token_id=fgr.tokens["tenrec"].pk,
        weapon="Bite",
        faces=[3, 4, 1, 3, 4],
    )
    assert bite.status == "awaiting_defender"
    tenrec = fgr.tokens["tenrec"]
    services.token_move(token_id=tenrec.pk, by=player, x=6, y=4)
    services.membership_set_role(
        campaign_id=fgr.campaign.pk, by=gm, user_id=player.pk, role="observer"
    )

    def table():
        return (
            list(Attack.objects.filter(pk=bite.pk).values_list("status", "changes")),
            list(Character.objects.filter(campaign=fgr.campaign).values_list("pk", "resources")),
            list(Token.objects.filter(scene=fgr.scene).values_list("pk", "x", "y", "version")),
            list(Combatant.objects.filter(encounter=fight).values_list("pk", "initiative")),
            RoomEvent.objects.filter(campaign=fgr.campaign).count(),
        )

    before = table()
    client = Client()
    client.force_login(player)
    for url, body in (
        (f"/api/combat/attacks/{bite.pk}/reduce/", {"action_points": 2}),
        (
            "/api/combat/reactions/",
            {"reaction": "reduce_damage", "attack": bite.pk, "values": {"action_points": 2}},
        ),
        (f"/api/combat/encounters/{fight.pk}/initiative/", {}),
        (f"/api/combat/tokens/{tenrec.pk}/reset/", {}),
        (f"/api/combat/campaigns/{fgr.campaign.pk}/undo/", {}),
    ):
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 403, (url, response.content[:300])
        assert response.json()["error"]["code"] == "forbidden", url
        assert table() == before, url
