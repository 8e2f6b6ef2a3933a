"""Combat's reads, each for one viewer: the range bands around a token for a
weapon, the scene's trails this turn, the running encounter, attacks."""

from django.db.models import Exists, OuterRef

from vtt.core import shapes
from vtt.fog import vision
from vtt.games.sheets import MAX_RANGE_FT, WEAPON_KINDS
from vtt.rules import grid
from vtt.tabletop import policy
from vtt.tabletop.models import RoomEvent, Scene
from vtt.tabletop.services.access import find, require_member, unknown
from vtt.tabletop.services.errors import NotFound
from vtt.tabletop.services.tokens import token_for
from vtt.tabletop.visibility import Viewer

from . import geometry
from .models import Attack, Encounter, TrailStep
from .serialize import attack_data
from .services.attacks import pick_weapon
from .services.encounters import encounter_view

LEGEND = {letter: category for category, letter in geometry.BAND_LETTERS.items()}


def _range_ft(value):
    if value is None or value == "" or value == grid.LINE_OF_SIGHT:
        return value or None
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    return shapes.whole(value, "range_ft", 5, MAX_RANGE_FT)


def token_range_bands(*, token_id: int, by, weapon=None, kind=None, range_ft=None) -> dict:
    """The category of every square of the token's scene for an attack from
    it: with one of its character's weapons (by name), or with a weapon
    described by `kind` and `range_ft` (a ruler), or unarmed. The same
    functions decide the attack, so the bands match what it would measure."""
    token, member = token_for(token_id, by)
    scene = token.scene
    campaign = scene.campaign
    character = token.character
    if weapon is not None:
        if character is None or not policy.sees_character(
            Viewer(member.user_id, member.role), character
        ):
            raise NotFound("no such weapon", "weapon")
        chosen = pick_weapon(campaign.game, character, weapon)
    elif kind is not None:
        kind = shapes.choice(kind, "kind", WEAPON_KINDS)
        range_ft = _range_ft(range_ft)
        if range_ft == grid.LINE_OF_SIGHT and kind != "spell":
            raise shapes.invalid("range_ft", "only a spell reaches by line of sight")
        chosen = {"name": kind.title(), "kind": kind, "range_ft": range_ft}
    else:
        chosen = pick_weapon(campaign.game, character, None)
    diagonal = campaign.settings.get("diagonal", "uniform")
    return {
        "token_id": token.pk,
        "scene_id": scene.pk,
        "origin": [token.x, token.y],
        "size": token.size,
        "weapon": chosen,
        "diagonal": diagonal,
        "width": scene.width,
        "height": scene.height,
        "legend": LEGEND,
        "bands": geometry.range_bands(
            geometry.footprint(token),
            chosen,
            scene.width,
            scene.height,
            vision.sight_walls(scene.walls),
            diagonal,
        ),
    }


def _scene(scene_id: int, by) -> tuple[Scene, object]:
    """The scene if `by` may see it: a GM any, the others the one the room is on."""
    scene, member = find(Scene.objects.select_related("campaign"), scene_id, by, "scene")
    if not policy.sees_scene(Viewer(member.user_id, member.role), scene):
        raise unknown("scene")
    return scene, member


def scene_trails(*, scene_id: int, by) -> dict:
    """Every token's trail: where it started and each square since.
    Hidden tokens' trails are the GM's alone, and so are the steps a token
    made while it was hidden (revealing it shows where it is, not its way).
    The steps are few (projection.compact), and each is checked against its
    own log entry by index, so the read does not grow with the log."""
    scene, member = _scene(scene_id, by)
    steps = TrailStep.objects.filter(scene=scene)
    viewer = policy.member_viewer(member, scene.campaign.settings)
    if not policy.runs_table(viewer):
        # Steps of moves the viewer did not see, of tokens they do not see.
        unseen = RoomEvent.objects.filter(
            policy.unseen_token_events_q(viewer),
            campaign_id=scene.campaign_id,
            seq=OuterRef("seq"),
        )
        steps = steps.filter(policy.visible_tokens_q(viewer, prefix="token__")).exclude(
            Exists(unseen)
        )
    rows = steps.order_by("token_id", "seq").values_list(
        "token_id", "from_x", "from_y", "to_x", "to_y"
    )
    trails: dict[int, dict] = {}
    for token_id, from_x, from_y, to_x, to_y in rows:
        trail = trails.setdefault(
            token_id, {"token_id": token_id, "start": [from_x, from_y], "path": []}
        )
        trail["path"].append([to_x, to_y])
    return {"scene_id": scene.pk, "trails": list(trails.values())}


def scene_encounter(*, scene_id: int, by) -> dict | None:
    scene, member = _scene(scene_id, by)
    encounter = Encounter.objects.filter(scene=scene, ended_at__isnull=True).first()
    if encounter is None:
        return None
    return encounter_view(encounter, policy.member_viewer(member, scene.campaign.settings))


def _visible_attacks(member):
    viewer = policy.member_viewer(member, member.campaign.settings)
    attacks = Attack.objects.filter(
        policy.visible_attacks_q(viewer), campaign_id=member.campaign_id
    )
    return attacks.select_related("by", "event")


def attack_list(*, campaign_id: int, by, limit: int = 50) -> list[dict]:
    member = require_member(campaign_id, by, with_campaign=True)
    return [attack_data(a) for a in _visible_attacks(member)[:limit]]


def attack_detail(*, attack_id: int, by) -> dict:
    _, member = find(
        Attack.objects.only("campaign_id"), attack_id, by, "attack", with_campaign=True
    )
    found = _visible_attacks(member).filter(pk=attack_id).first()
    if found is None:
        raise unknown("attack")
    return attack_data(found)
