"""An attack against every token in an area template: the one attack
service (attacks.attack_make) once per target, one adjudication each, all
in one transaction.

The server decides the targets, never a client's list: the tokens of the
template's scene with a square inside it (vtt.areas.geometry) that the
attacker's member sees, the attacker itself left out. A target the rules
cannot attack from here (no sheet to take the blow, out of the weapon's
range, a spell's caster without sight of it) is passed over and said so;
any other refusal (the turn, a broken weapon, a GM's option asked by a
player) refuses the whole attack, and nothing is kept. One attack takes
at most MAX_TARGETS targets."""

from dataclasses import dataclass

from django.db import transaction

from vtt.areas import geometry
from vtt.areas.services import template_covers, template_for
from vtt.core import shapes
from vtt.tabletop import policy
from vtt.tabletop.models import Token, Visibility
from vtt.tabletop.services.errors import ServiceError

from .attacks import attack_make, visible_token

# The refusals that pass one target over rather than the whole attack.
PASSED_OVER = ("no_character", "out_of_range", "no_line_of_sight")
# Targets one area attack takes: a crowd, adjudicated in one transaction
# while the room waits; a mob past this is attacked in parts.
MAX_TARGETS = 40


@dataclass
class AreaAttack:
    attacks: list  # of Attack, one per target adjudicated
    passed_over: list  # of {"token_id", "name", "code", "message"}


def area_targets(template, member, attacker_token) -> list[Token]:
    """The tokens the template holds that `member` sees, nearest the
    template's corner first (a stable order for the log), the attacker
    left out."""
    covered = template_covers(template)
    viewer = policy.member_viewer(member, template.scene.campaign.settings)
    tokens = Token.objects.filter(scene_id=template.scene_id).filter(
        policy.visible_tokens_q(viewer)
    )
    held = [
        t
        for t in tokens.order_by("id")
        if t.pk != attacker_token.pk and geometry.holds(covered, t.x, t.y, t.size)
    ]
    return sorted(held, key=lambda t: ((t.x - template.x) ** 2 + (t.y - template.y) ** 2, t.pk))


def area_attack(
    *,
    by,
    attacker_token_id,
    template_id,
    weapon=None,
    visibility=Visibility.PUBLIC,
    options=None,
) -> AreaAttack:
    """Attack every token in the template (see the module doc)."""
    attacker_token, member = visible_token(attacker_token_id, by, "attacker_token")
    template, _ = template_for(template_id, by)
    if template.scene_id != attacker_token.scene_id:
        raise shapes.invalid("template", "must be on the attacker's scene")
    targets = area_targets(template, member, attacker_token)
    if not targets:
        raise ServiceError("no_targets", "no token you can see is inside the template", "template")
    if len(targets) > MAX_TARGETS:
        raise ServiceError(
            "too_many",
            f"the template holds {len(targets)} tokens; an area attack takes at most"
            f" {MAX_TARGETS}: use a smaller template",
            "template",
        )
    made, passed = [], []
    with transaction.atomic():
        for target in targets:
            try:
                # A savepoint each: a target passed over leaves nothing behind.
                with transaction.atomic():
                    made.append(
                        attack_make(
                            by=by,
                            attacker_token_id=attacker_token.pk,
                            target_token_id=target.pk,
                            weapon=weapon,
                            visibility=visibility,
                            options=options,
                        )
                    )
            except ServiceError as error:
                if error.code not in PASSED_OVER or error.field != "target_token":
                    raise
                passed.append(
                    {
                        "token_id": target.pk,
                        "name": target.name,
                        "code": error.code,
                        "message": error.message,
                    }
                )
        if not made:
            reasons = "; ".join(f"{p['name']}: {p['message']}" for p in passed)
            raise ServiceError(
                "no_targets", f"no token in the template can be attacked ({reasons})", "template"
            )
    return AreaAttack(attacks=made, passed_over=passed)
