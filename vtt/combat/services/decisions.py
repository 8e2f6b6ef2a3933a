"""Decisions that wait: an attack whose damage awaits the GM or the
defender's reaction (one the game declares, vtt.games.reactions) is
pending until it is applied, declined or undone. The server is the
authority on what is pending and for whom: the room's snapshot and
GET /api/campaigns/<id>/decisions carry each member's list.

A pending attack can go stale while it waits: its target removed, already
dead or out of the fight (the game's wound track), or superseded by a later
attack of the same attacker on the same target that was applied since.
Hits of different attackers stand on their own: the GM may apply the
goblins' three hits in any order. Applying a stale one is
refused with its reason, so a forgotten hit is never stacked onto a sheet
that moved on; the GM declines it instead."""

from vtt import games
from vtt.games.reactions import ATTACK
from vtt.tabletop import policy
from vtt.tabletop.models import Character
from vtt.tabletop.services.access import require_member
from vtt.tabletop.services.errors import ServiceError

from ..models import Attack

PENDING = (Attack.Status.AWAITING_DAMAGE, Attack.Status.AWAITING_DEFENDER)

# Why an attack that no longer waits cannot be decided, by its status.
_NOT_WAITING = {
    Attack.Status.APPLIED: ("already_applied", "this attack's damage has already been applied"),
    Attack.Status.DECLINED: ("declined", "the GM declined this attack's damage"),
    Attack.Status.UNDONE: ("undone", "this attack was undone"),
    Attack.Status.MISSED: ("not_waiting", "this attack missed: there is no damage to apply"),
}


def refusal(code: str, message: str) -> ServiceError:
    return ServiceError(code, message, "attack")


def not_waiting(attack: Attack, status: str) -> ServiceError | None:
    """The refusal for deciding an attack that is not (or no longer) `status`."""
    if attack.status == status:
        return None
    if attack.status in _NOT_WAITING:
        return refusal(*_NOT_WAITING[attack.status])
    waits = attack.status.replace("_", " ")
    return refusal("not_waiting", f"this attack is {waits}, not {status.replace('_', ' ')}")


def stale(attack: Attack, target: Character | None) -> ServiceError | None:
    """Why a pending attack may no longer be applied to its target, or None.
    `target` is the target's row as it is now (locked, when applying)."""
    if target is None:
        return refusal("target_gone", f"{attack.target_name} is no longer in the game")
    wounds = games.kit(attack.system).wounds(target.resources, attack.campaign.settings)
    if wounds and (wounds["dead"] or wounds["out"]):
        return refusal("target_out", f"{attack.target_name} is already {wounds['state'].lower()}")
    later = Attack.objects.filter(
        target_id=target.pk,
        attacker_id=attack.attacker_id,
        attacker_name=attack.attacker_name,
        pk__gt=attack.pk,
        status=Attack.Status.APPLIED,
    ).order_by("pk")
    newer = later.select_related("event").first()
    if newer is not None:
        where = f" (#{newer.event.seq})" if newer.event_id else ""
        return refusal(
            "superseded",
            f"a later attack on {attack.target_name} by {attack.attacker_name}{where} "
            "has been applied since",
        )
    return None


def _decides(viewer, attack: Attack, owner_id) -> bool:
    """The GM decides every pending attack; a defender's player the
    reaction waiting for their character (when they see the attack)."""
    if policy.runs_table(viewer):
        return True
    return (
        policy.takes_part(viewer)
        and attack.status == Attack.Status.AWAITING_DEFENDER
        and owner_id == viewer.user_id
    )


def _have(attack: Attack, target: Character | None) -> int | None:
    """What the defender has of the resource its reaction spends."""
    reaction = games.kit(attack.system).reaction_on(ATTACK)
    if target is None or reaction is None:
        return None
    return target.resources.get(reaction.resource, 0)


def decision_data(attack: Attack, target: Character | None) -> dict:
    reason = stale(attack, target)
    reaction = attack.status == Attack.Status.AWAITING_DEFENDER
    return {
        "attack": attack.pk,
        "seq": attack.event.seq if attack.event_id else None,
        "kind": "reaction" if reaction else "damage",
        "system": attack.system,
        "attacker": attack.attacker_name,
        "target": attack.target_name,
        "damage": attack.damage,
        # What the defender may spend against the damage (a reaction).
        "have": _have(attack, target) if reaction else None,
        "stale": {"code": reason.code, "message": reason.message} if reason else None,
    }


def pending_for(campaign_id: int, viewer) -> list[dict]:
    """The decisions waiting for `viewer`, oldest first, each as it is now."""
    if not policy.takes_part(viewer):
        return []
    waiting = (
        Attack.objects.filter(
            policy.visible_attacks_q(viewer), campaign_id=campaign_id, status__in=PENDING
        )
        .select_related("campaign", "event", "target")
        .order_by("pk")
    )
    if not policy.runs_table(viewer):
        waiting = waiting.filter(
            status=Attack.Status.AWAITING_DEFENDER, target__owner_id=viewer.user_id
        )
    return [
        decision_data(attack, attack.target)
        for attack in waiting
        if _decides(viewer, attack, attack.target.owner_id if attack.target else None)
    ]


def decisions(*, campaign_id: int, by) -> list[dict]:
    """pending_for the member `by` (the REST read)."""
    member = require_member(campaign_id, by, with_campaign=True)
    return pending_for(campaign_id, policy.member_viewer(member, member.campaign.settings))
