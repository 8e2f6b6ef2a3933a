"""No existence oracle: for someone who may not know of an object, an id that
names one answers byte for byte as an id that names nothing.

The walk covers every URL pattern of the site (REST and pages) that takes an
id, with every method its view answers. A pattern with a parameter the walk
does not know how to fill fails the walk, so a new endpoint cannot be left
out by accident."""

import json
import re

import pytest
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RoutePattern

from vtt.areas import services as areas
from vtt.areas.models import AreaTemplate
from vtt.combat.models import Combatant
from vtt.core.errors import ServiceError
from vtt.markers import services as markers
from vtt.spectators.models import SpectatorLink
from vtt.spectators.services import link_create
from vtt.tabletop import services
from vtt.tabletop.models import Light, Marker

from .conftest import CHECK

# Far past every id the test database hands out, and below 2**63.
MISSING = 987_654_321

# Patterns outside the walk, each with its reason.
OUTSIDE = {
    # Django's admin: staff only, and tested as such in test_pages.py.
    "admin/",
    # Uploaded files, served by Django only while developing (present when
    # the URLs were first read under DEBUG); in production the proxy serves
    # them, and a picture's name is random, not an id (pictures/images.py).
    settings.MEDIA_URL.lstrip("/"),
    # A spectator link's page: its parameter is the link's secret token, not
    # an id; an unknown, revoked or expired one is the same 404
    # (tests/web/test_spectators.py).
    "watch/",
}

PARAMETER = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")

# REST methods a view class may answer.
METHODS = ("get", "post", "put", "patch", "delete")


def tomb_marker(s):
    """A status marker in The Tomb: the GM's secret one on Tenrec."""
    found = Marker.objects.filter(token=s.tokens.tenrec).first()
    return found or markers.marker_add(
        campaign_id=s.campaign.pk,
        token_id=s.tokens.tenrec.pk,
        by=s.users["gm"],
        icon="skull",
        label="Doomed",
        gm_only=True,
    )


def tomb_link(s):
    """A spectator link of The Tomb's GM."""
    found = SpectatorLink.objects.filter(campaign=s.campaign).first()
    return found or link_create(campaign_id=s.campaign.pk, by=s.users["gm"])[0]


def tomb_template(s):
    """An area template in The Tomb: the GM's secret one on its crypt."""
    found = AreaTemplate.objects.filter(scene=s.crypt).first()
    return found or areas.template_place(
        scene_id=s.crypt.pk,
        by=s.users["gm"],
        shape="circle",
        x=2,
        y=2,
        size=1,
        label="Pit",
        gm_only=True,
    )


def tomb_drawing(s):
    """A drawing in The Tomb: a GM-layer note on the crypt."""
    from vtt.drawings.models import Drawing

    found = Drawing.objects.filter(scene=s.crypt).first()
    return found or Drawing.objects.create(
        scene=s.crypt, by=s.users["gm"], shape="text", layer="gm", color="#000000", width=1,
        points=[[1, 1]], text="Doomed",
    )  # fmt: skip


def fills(s, invite) -> dict:
    """Each URL parameter: the value naming an object of The Tomb (which the
    stranger is no member of), and the value naming nothing. A new
    parameter is added here."""
    fight = s.lair_fight
    # A light on The Tomb's crypt (made once: the secrets are laid per module).
    lamp, _ = Light.objects.get_or_create(scene=s.crypt, token=None, defaults={"x": 1, "y": 1})
    return {
        "light_id": (lamp.pk, MISSING),
        "campaign_id": (s.campaign.pk, MISSING),
        "character_id": (s.characters.tenrec.pk, MISSING),
        "scene_id": (s.crypt.pk, MISSING),
        "token_id": (s.tokens.tenrec.pk, MISSING),
        "roll_id": (s.rolls.public.pk, MISSING),
        "invite_id": (invite.pk, MISSING),
        "attack_id": (s.hidden_attack.pk, MISSING),
        "encounter_id": (fight.pk, MISSING),
        "combatant_id": (Combatant.objects.filter(encounter=fight).first().pk, MISSING),
        "user_id": (s.users["gm"].pk, MISSING),
        "handout_id": (s.handout.pk, MISSING),
        "marker_id": (tomb_marker(s).pk, MISSING),
        "link_id": (tomb_link(s).pk, MISSING),
        "template_id": (tomb_template(s).pk, MISSING),
        "drawing_id": (tomb_drawing(s).pk, MISSING),
        # Not ids of their own: a play session's number and a door's index
        # within their campaign or scene, which the other parameters name.
        "number": (1, 1),
        "index": (0, 0),
    }


# Parameters that name one object wherever it is (not a number within a
# campaign): the ones the stranger's own campaign cannot vouch for.
GLOBAL = {
    "light_id",
    "character_id",
    "scene_id",
    "token_id",
    "roll_id",
    "invite_id",
    "attack_id",
    "encounter_id",
    "combatant_id",
    "user_id",
    "handout_id",
    "marker_id",
    "link_id",
    "template_id",
    "drawing_id",
}

# A body each write parses before it looks anything up, so that the walk
# reaches the lookup (an empty body would be refused first, for both ids).
BODIES = {
    "campaign": {"name": "Renamed"},
    "member": {"role": "player"},
    "characters": {"name": "Newcomer"},
    "character": {"name": "Renamed"},
    "character-spend": {"resource": "action_points", "amount": 1},
    "character-award": {"resource": "action_points", "amount": 1},
    "scenes": {"name": "New map"},
    "scene": {"name": "Renamed"},
    "scene-door": {"state": "open"},
    "scene-fog": {"action": "reset"},
    "scene-lights": {"x": 1, "y": 1, "dim": 2},
    "light": {"on": False},
    "tokens": {"name": "Newcomer"},
    "token": {"name": "Renamed"},
    "token-move": {"x": 1, "y": 1},
    "token-hidden": {"hidden": True},
    "rolls": {"request": CHECK},
    "markers": {"token": 1, "condition_id": "prone"},
    "templates": {"scene": 1, "shape": "cone", "x": 1, "y": 1, "size": 2},
    "combat-attack-damage": {"amount": 1},
    "combat-attack-reduce": {"action_points": 1},
    "combat-repair": {"weapon": "Claws"},
    "combat-reveal": {"seq": 1},
    "handout-share": {"everyone": True},
    "combat-combatants": {"token": 1},
    "combat-combatant": {"initiative": 3},
}


def walk(patterns=None, prefix: str = ""):
    """Every URL pattern as (route, pattern), its route joined from the root."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(entry.pattern)
        if any(route.lstrip("^").startswith(outside) for outside in OUTSIDE):
            continue
        assert isinstance(entry.pattern, RoutePattern) or not PARAMETER.search(route), (
            f"{route}: a regex pattern; write it with path() or add it to OUTSIDE with a reason"
        )
        if isinstance(entry, URLResolver):
            yield from walk(entry.url_patterns, route)
        elif isinstance(entry, URLPattern):
            yield route, entry


def with_ids() -> list[tuple[str, URLPattern]]:
    routes = [(route, entry) for route, entry in walk() if PARAMETER.search(route)]
    assert routes, "the walk found no pattern with an id"
    return routes


def fill(route: str, values: dict) -> str:
    def one(match):
        name = match["name"]
        assert match["converter"] == "int" and name in values, (
            f"/{route}: the walk does not know how to fill <{match[0][1:-1]}>; "
            "add it to fills() in tests/security/test_existence.py (an object of "
            "The Tomb and an id naming nothing), and to GLOBAL if it is an id"
        )
        return str(values[name])

    return "/" + PARAMETER.sub(one, route)


def methods(entry: URLPattern) -> tuple[bool, list[str]]:
    """Whether the view is the REST API's, and the methods to try on it."""
    view = getattr(entry.callback, "cls", None)  # DRF's as_view() sets it
    if view is None:
        return False, ["get", "post"]
    return True, [m for m in METHODS if hasattr(view, m)]


def ask(client, rest: bool, method: str, url: str, name: str):
    if method == "get":
        return client.get(url)
    if rest:
        body = json.dumps(BODIES.get(name, {}))
        return client.generic(method.upper(), url, body, content_type="application/json")
    return client.post(url, {})


def answer(response) -> tuple[int, bytes]:
    """What tells two answers apart. A redirect to the log-in page names the
    page asked for in its Location header, by nature; nothing else does."""
    return response.status_code, response.content


@pytest.fixture
def tomb_invite(secrets):
    return services.invite_create(campaign=secrets.campaign, by=secrets.users["gm"])


def compare(client, s, invite, *, own: bool = False, signed_in: bool = True) -> list[str]:
    """Ask every pattern with an id for The Tomb's objects and for nothing;
    the differences found, one line each. `own`: the stranger's own campaign
    in the URL, The Tomb's objects (or nothing) for the other ids."""
    values = fills(s, invite)
    found = []
    asked = 0
    for route, entry in with_ids():
        names = {m["name"] for m in PARAMETER.finditer(route)}
        known, unknown = {n: values[n][0] for n in values}, {n: values[n][1] for n in values}
        if own:
            if "campaign_id" not in names or not names & GLOBAL:
                continue
            known["campaign_id"] = unknown["campaign_id"] = s.elsewhere.campaign.pk
        rest, tried = methods(entry)
        answered = []
        for method in tried:
            a = ask(client, rest, method, fill(route, known), entry.name)
            b = ask(client, rest, method, fill(route, unknown), entry.name)
            asked += 1
            if answer(a) != answer(b):
                found.append(
                    f"{method.upper()} /{route}: {a.status_code} {a.content[:160]!r} "
                    f"vs {b.status_code} {b.content[:160]!r}"
                )
            answered.append(a.status_code)
            # A page view may refuse a method it does not take (405); a
            # REST view is asked only what it answers.
            if signed_in and a.status_code not in ((404,) if rest else (404, 405)):
                found.append(f"{method.upper()} /{route}: {a.status_code}, not 404")
        if signed_in and 404 not in answered:
            found.append(f"/{route}: no method looked anything up")
    assert asked, "nothing was asked"
    return found


def test_the_walk_knows_every_parameter(secrets, tomb_invite):
    values = fills(secrets, tomb_invite)
    for route, _ in with_ids():
        fill(route, {name: known for name, (known, _) in values.items()})


def test_a_stranger_cannot_tell_another_campaigns_objects_from_nothing(web, secrets, tomb_invite):
    found = compare(web("stranger"), secrets, tomb_invite)
    assert not found, "\n".join(found)


def test_nor_through_their_own_campaigns_paths(web, secrets, tomb_invite):
    """The stranger is the GM of a campaign of their own: its paths with The
    Tomb's objects in them answer as with ids naming nothing."""
    found = compare(web("stranger"), secrets, tomb_invite, own=True)
    assert not found, "\n".join(found)


def test_nor_without_signing_in(web, secrets, tomb_invite):
    found = compare(web(None), secrets, tomb_invite, signed_in=False)
    assert not found, "\n".join(found)


def named_elsewhere(s) -> list[tuple[str, str, dict | None, int]]:
    """Requests the stranger may make in their own campaign that name
    another object by an id in the body or the query: (method, URL, body,
    the id of one of The Tomb's objects), the URL or the body carrying that
    id, or one naming nothing, where it says ID."""
    far = s.elsewhere
    tomb_token, tomb_character = s.tokens.tenrec.pk, s.characters.tenrec.pk
    attack = {"attacker_token": far.token.pk, "target_token": "ID"}
    return [
        ("get", "/api/combat/attacks/?campaign=ID", None, s.campaign.pk),
        ("post", "/api/combat/attacks/", attack, tomb_token),
        ("post", "/api/combat/attacks/preview/", attack, tomb_token),
        ("post", "/api/combat/attacks/", {**attack, "attacker_token": "ID"}, tomb_token),
        ("post", f"/api/combat/scenes/{far.scene.pk}/encounter/", {"tokens": ["ID"]}, tomb_token),
        (
            "post",
            f"/api/scenes/{far.scene.pk}/tokens/",
            {"name": "Stolen", "character_id": "ID"},
            tomb_character,
        ),
        ("patch", f"/api/tokens/{far.token.pk}/", {"character_id": "ID"}, tomb_character),
        (
            "post",
            f"/api/campaigns/{far.campaign.pk}/rolls/",
            {"request": CHECK, "character_id": "ID"},
            tomb_character,
        ),
    ]


def _put(value, id_):
    if value == "ID":
        return id_
    if isinstance(value, dict):
        return {k: _put(v, id_) for k, v in value.items()}
    if isinstance(value, list):
        return [_put(v, id_) for v in value]
    return value


def test_nor_by_an_id_in_a_body_or_a_query(web, secrets):
    client = web("stranger")
    found = []
    for method, url, body, known in named_elsewhere(secrets):
        answers = []
        for id_ in (known, MISSING):
            path = url.replace("ID", str(id_))
            data = json.dumps(_put(body, id_)) if body is not None else ""
            response = client.generic(method.upper(), path, data, content_type="application/json")
            answers.append(answer(response))
        if answers[0] != answers[1]:
            found.append(f"{method.upper()} {url} {body}: {answers[0]} vs {answers[1]}")
        elif answers[0][0] not in (400, 404):
            found.append(f"{method.upper()} {url} {body}: {answers[0][0]}")
    assert not found, "\n".join(found)


def kept_by_the_gm(s) -> list[tuple[str, str, int]]:
    """(method, path, id) for what a player of The Tomb may not know of:
    an NPC, a hidden token, the scene the room is not on, a GM-only roll, a
    hidden attack and the encounter waiting on that scene."""
    t = s.tokens
    return [
        ("get", "/api/characters/ID/", s.characters.zombie.pk),
        ("get", "/api/tokens/ID/", t.lurker.pk),
        ("post", "/api/tokens/ID/move/", t.waiting.pk),
        ("get", "/api/combat/tokens/ID/range-bands/", t.lurker.pk),
        ("get", "/api/scenes/ID/", s.lair.pk),
        ("get", "/api/scenes/ID/tokens/", s.lair.pk),
        ("get", "/api/combat/scenes/ID/trails/", s.lair.pk),
        ("get", "/api/combat/scenes/ID/encounter/", s.lair.pk),
        ("get", "/api/rolls/ID/", s.rolls.gm.pk),
        ("get", "/api/combat/attacks/ID/", s.hidden_attack.pk),
        ("post", "/api/combat/encounters/ID/initiative/", s.lair_fight.pk),
        # A GM-only marker on a token the player sees.
        ("delete", "/api/markers/ID/", tomb_marker(s).pk),
    ]


def test_a_player_cannot_tell_what_the_gm_keeps_from_nothing(web, secrets):
    client = web("player")
    found = []
    for method, path, kept in kept_by_the_gm(secrets):
        name = get_resolver().resolve(path.replace("ID", "1")).url_name
        a, b = (
            answer(ask(client, True, method, path.replace("ID", str(id_)), name))
            for id_ in (kept, MISSING)
        )
        if a != b or a[0] != 404:
            found.append(f"{method.upper()} {path}: {a} vs {b}")
    assert not found, "\n".join(found)


def test_placing_a_token_tells_no_scene_from_one_kept_or_elsewhere(secrets):
    """The service behind REST and the live room's `token.place`: for a
    player, a scene of another campaign, the one the room is not on and
    none at all are one refusal, before the table's rule on placing."""
    player = secrets.users["player"]
    refusals = []
    for scene_id in (secrets.elsewhere.scene.pk, secrets.lair.pk, MISSING):
        with pytest.raises(ServiceError) as refused:
            services.token_create(scene_id=scene_id, by=player, name="Wren")
        refusals.append(refused.value.as_dict())
    assert refusals == [{"code": "not_found", "message": "no such scene", "field": "scene"}] * 3
