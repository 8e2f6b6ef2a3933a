"""Attacks from one token at another with a chosen weapon.

The server measures range and sight on the scene, refuses what cannot be
done from there, fills both sides' pools from the characters' sheets and
the weapon (the GM may override any of it before the roll), adjudicates the
game's chain through vtt.rules and applies it to the target, all in one
transaction and one room event ("combat.attack"). Where the game leaves the
damage step to the GM, the attack waits for attack_apply_damage; where it
leaves it to the defender, for a reaction the game declares (.reactions)."""

from dataclasses import dataclass

from django.db import transaction

from vtt import games
from vtt.core import shapes
from vtt.dice.sessions import clean_nonce
from vtt.fog import vision
from vtt.games.combat import Context, Side
from vtt.games.kit import MAX_COUNTER
from vtt.rules import RulesError, odds
from vtt.tabletop import event_kinds, policy
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Character, Token, Visibility
from vtt.tabletop.services.access import actor, as_gm, find, unknown
from vtt.tabletop.services.errors import NotAllowed, NotFound, ServiceError
from vtt.tabletop.services.tokens import token_for
from vtt.tabletop.visibility import Viewer

from .. import geometry
from ..models import Attack, BrokenWeapon
from ..serialize import attack_data
from . import decisions
from .acting import check_can_act, check_turn
from .apply import apply_changes, break_weapons, lock_characters, remember
from .dice import Steps, clean_overrides, merge, rules_error

ATTACK_VISIBILITIES = (Visibility.PUBLIC, Visibility.GM)
PLAYER_OPTIONS = ("attack_skill",)
GM_OPTIONS = ("attack_skill", "defense_skill", "defense", "defender_weapon", "overrule")
DEFENSES = ("dodge", "block")


def pick_weapon(game: str, character: Character | None, name) -> dict:
    if name is None:
        return games.kit(game).unarmed()
    if not isinstance(name, str):
        raise shapes.invalid("weapon", "must be the name of one of the attacker's weapons, or null")
    weapons = character.weapons if character is not None else []
    for weapon in weapons:
        if weapon["name"] == name:
            return weapon
    for weapon in weapons:
        if weapon["name"].casefold() == name.casefold():
            return weapon
    raise shapes.invalid("weapon", f"the attacker has no weapon called {name!r}")


def _options(value, is_gm: bool) -> dict:
    if value is None:
        return {}
    allowed = GM_OPTIONS if is_gm else PLAYER_OPTIONS
    for key in shapes.obj(value, "options", allowed=GM_OPTIONS):
        if key not in allowed:
            raise NotAllowed(f"only a GM may choose options.{key}", f"options.{key}")
    clean = {}
    for key, item in value.items():
        if item is None:
            continue
        if key == "defense":
            clean[key] = shapes.choice(item, "options.defense", DEFENSES)
        elif key == "overrule":
            # The GM's word over who may act (see .acting); not the chain's business.
            shapes.boolean(item, "options.overrule")
        else:
            clean[key] = shapes.text(item, f"options.{key}", 60)
    return clean


@dataclass
class Plan:
    """Everything about an attack that is known before the dice."""

    member: object
    attacker_token: Token
    target_token: Token
    campaign: object
    chain: object
    weapon: dict
    measure: dict
    visibility: str
    options: dict
    overrides: dict


def visible_token(token_id, by, field: str):
    """The token and `by`'s membership, if they see it; else not_found on `field`."""
    if type(token_id) is not int:
        raise shapes.invalid(field, "must be a token id")
    try:
        return token_for(token_id, by)
    except NotFound:
        raise NotFound("no such token", field) from None


def plan_attack(
    *,
    by,
    attacker_token_id,
    target_token_id,
    weapon=None,
    visibility="public",
    overrides=None,
    options=None,
) -> Plan:
    attacker_token, member = visible_token(attacker_token_id, by, "attacker_token")
    target_token, _ = visible_token(target_token_id, by, "target_token")
    is_gm = policy.runs_table(member)
    if not policy.controls_token(Viewer(member.user_id, member.role), attacker_token):
        if not policy.takes_part(member):
            raise NotAllowed("an observer may not attack")
        raise NotAllowed("you do not control the attacking token", "attacker_token")
    if target_token.scene_id != attacker_token.scene_id:
        raise shapes.invalid("target_token", "must be on the attacker's scene")
    if target_token.pk == attacker_token.pk:
        raise shapes.invalid("target_token", "a token cannot attack itself")
    visibility = shapes.choice(visibility, "visibility", ATTACK_VISIBILITIES)
    if visibility == Visibility.GM and not is_gm:
        raise NotAllowed("only a GM may make a hidden attack", "visibility")
    scene = attacker_token.scene
    if not all(policy.sees_token(policy.PLAYERS, t) for t in (attacker_token, target_token)):
        # A public attack would show a hidden token, or a map still being prepared.
        visibility = Visibility.GM
    campaign = scene.campaign
    chain = games.kit(campaign.game).chain
    if overrides is not None and not is_gm:
        raise NotAllowed("only a GM may override the pools", "overrides")
    overrides = clean_overrides(overrides, ("attack", "damage"), chain.PROTECTED)
    clean_options = _options(options, is_gm)
    if not (options or {}).get("overrule"):
        name = side_name(attacker_token, attacker_token.character)
        check_can_act(campaign, attacker_token.character, name, "attacker_token")
        check_turn(campaign, attacker_token, name, member, "attacker_token")
    if target_token.character_id is None:
        raise ServiceError(
            "no_character", "the target token has no character to take the blow", "target_token"
        )
    if attacker_token.character_id is None and "attack" not in overrides:
        raise ServiceError(
            "no_character",
            "the attacking token has no character sheet: a GM gives its pools in overrides",
            "attacker_token",
        )
    chosen = pick_weapon(campaign.game, attacker_token.character, weapon)
    if (
        attacker_token.character_id is not None
        and BrokenWeapon.objects.filter(
            character_id=attacker_token.character_id, weapon=chosen["name"]
        ).exists()
    ):
        raise ServiceError("weapon_broken", f"the {chosen['name']} is broken", "weapon")
    measured = geometry.measure(
        geometry.footprint(attacker_token),
        geometry.footprint(target_token),
        chosen,
        vision.sight_walls(scene.walls),
        campaign.settings.get("diagonal", "uniform"),
    )
    refused = geometry.refusal(measured)
    if refused:
        raise ServiceError(*refused, "target_token")
    return Plan(
        member=member,
        attacker_token=attacker_token,
        target_token=target_token,
        campaign=campaign,
        chain=chain,
        weapon=chosen,
        measure=measured,
        visibility=visibility,
        options=clean_options,
        overrides=overrides,
    )


def side_name(token: Token, character: Character | None) -> str:
    """How an attack names a side: a PC by its sheet, anything else by its
    token. An NPC's sheet name is the GM's (a token "Old beggar" may hide
    "Count Orlok"), and the token's name is the one the table sees on the map."""
    if character is not None and character.kind == Character.Kind.PC:
        return character.name
    return token.name


def _context(plan: Plan, characters: dict) -> Context:
    def side(token):
        character = characters.get(token.character_id)
        return Side(token, character, side_name(token, character))

    return Context(
        game=plan.campaign.game,
        settings=plan.campaign.settings,
        attacker=side(plan.attacker_token),
        target=side(plan.target_token),
        weapon=plan.weapon,
        measure=plan.measure,
        options=plan.options,
    )


def attack_preview(
    *, by, attacker_token_id, target_token_id, weapon=None, overrides=None, options=None
) -> dict:
    """What an attack would roll: the range and sight, the first rules request
    as the sheets fill it (with any overrides), and its exact odds."""
    plan = plan_attack(
        by=by,
        attacker_token_id=attacker_token_id,
        target_token_id=target_token_id,
        weapon=weapon,
        overrides=overrides,
        options=options,
    )
    characters = {
        c.pk: c
        for c in Character.objects.filter(
            pk__in=[plan.attacker_token.character_id, plan.target_token.character_id]
        )
    }
    ctx = _context(plan, characters)
    request = merge(plan.chain.attack_request(ctx), plan.overrides.get("attack", {}))
    try:
        chances = odds(request)
    except RulesError as error:
        raise rules_error(error, "attack") from None
    return {
        "weapon": plan.weapon,
        "measure": plan.measure,
        "sources": ctx.sources,
        "request": request,
        "odds": chances,
    }


def attack_make(
    *,
    by,
    attacker_token_id: int,
    target_token_id: int,
    weapon: str | None = None,
    visibility: str = Visibility.PUBLIC,
    faces: list | None = None,
    overrides: dict | None = None,
    options: dict | None = None,
    nonce: str | None = None,
) -> Attack:
    """Make an attack and apply its chain to the target (see the module doc).
    `nonce`: hex from the attacker's browser that goes into the dice (docs/dice.md)."""
    nonce = clean_nonce(nonce)
    plan = plan_attack(
        by=by,
        attacker_token_id=attacker_token_id,
        target_token_id=target_token_id,
        weapon=weapon,
        visibility=visibility,
        overrides=overrides,
        options=options,
    )
    steps = Steps(faces, plan.overrides)
    with transaction.atomic():
        characters = lock_characters(plan.attacker_token.character, plan.target_token.character)
        ctx = _context(plan, characters)
        drawn = steps.draw(plan.campaign, nonce)
        result = steps.roll("attack", plan.chain.attack_request(ctx))
        resolution = plan.chain.resolve(ctx, result, steps.roll)
        steps.finish()
        attack = Attack.objects.create(
            campaign=plan.campaign,
            scene=plan.attacker_token.scene,
            by=actor(by),
            attacker_token=plan.attacker_token,
            target_token=plan.target_token,
            attacker=ctx.attacker.character,
            target=ctx.target.character,
            attacker_name=ctx.attacker.name,
            target_name=ctx.target.name,
            system=plan.campaign.game,
            weapon=plan.weapon,
            measure=plan.measure,
            sources=ctx.sources,
            steps=steps.steps,
            outcome=resolution.outcome,
            status=resolution.status,
            damage=resolution.damage,
            visibility=plan.visibility,
            physical=steps.physical,
            draw=drawn,
        )
        changes, touched = apply_changes(
            (side.character, field, after, side.name) for side, field, after in resolution.changes
        )
        broken = break_weapons(
            [(side.character, name, side.name) for side, name in resolution.broken], attack
        )
        if broken:
            # A chain that breaks weapons has its kit declare how (WeaponChange).
            field = games.kit(plan.campaign.game).weapon_change.field
            broken = [{**b, "field": field, "before": False, "after": True} for b in broken]
        attack.changes = changes + broken
        _announce(attack, event_kinds.COMBAT_ATTACK, by, touched)
    return attack


def _wound_state(attack: Attack) -> str | None:
    """The target's wound state now that the attack is applied, for the
    log's sentence (None when nothing was applied or the game has no track)."""
    if attack.status != Attack.Status.APPLIED or attack.target_id is None:
        return None
    target = Character.objects.filter(pk=attack.target_id).only("resources").first()
    if target is None:
        return None
    found = games.kit(attack.system).wounds(target.resources, attack.campaign.settings)
    return found["state"] if found else None


def _announce(attack: Attack, kind: str, by, touched, **extra) -> None:
    state = _wound_state(attack)

    def data(seq: int) -> dict:
        described = attack_data(attack)
        if kind == event_kinds.COMBAT_ATTACK:
            described["seq"] = seq  # the attack's own event: it names itself
        described["sentence"] = games.kit(attack.system).attack_sentence(described, state)
        return {"attack": described, **extra}

    event = append_event(
        campaign=attack.campaign,
        kind=kind,
        data=data,
        actor=actor(by),
        visibility=attack.visibility,
    )
    if kind == event_kinds.COMBAT_ATTACK:
        attack.event = event
    attack.save()
    remember(touched, event.seq)


def attack_for(attack_id, by) -> tuple[Attack, object]:
    if type(attack_id) is not int:
        raise shapes.invalid("attack", "must be an attack id")
    attack, member = find(
        Attack.objects.select_related("campaign", "event"), attack_id, by, "attack", "attack"
    )
    viewer = policy.member_viewer(member, attack.campaign.settings)
    if not policy.sees_attack(viewer, attack):
        raise unknown("attack", "attack")
    return attack, member


def locked_attack(attack: Attack, status: str) -> Attack:
    """The attack's row, locked: the second of two clicks on one decision
    waits here and then finds it decided (decisions.not_waiting)."""
    locked = (
        Attack.objects.select_for_update(of=("self",))
        .select_related("campaign", "event")
        .get(pk=attack.pk)
    )
    refused = decisions.not_waiting(locked, status)
    if refused:
        raise refused
    return locked


def target_now(attack: Attack) -> Character:
    """The target's row, locked, if the pending attack may still land on it."""
    target = lock_characters(attack.target).get(attack.target_id)
    refused = decisions.stale(attack, target)
    if refused:
        raise refused
    return target


def settle(attack: Attack, by, changes, touched, waited_for: str, damage_before) -> None:
    """The damage an attack waited for is applied: keep its changes and
    announce them (the event records what undo puts back)."""
    attack.status = Attack.Status.APPLIED
    attack.changes = attack.changes + changes
    _announce(
        attack,
        event_kinds.COMBAT_DAMAGE,
        by,
        touched,
        changes=changes,
        status_before=waited_for,
        damage_before=damage_before,
    )


def attack_apply_damage(*, attack_id: int, by, amount: int | None = None) -> Attack:
    """The GM's one click: apply the damage (the rolled or suggested amount,
    or the one given) to the target's damage counter."""
    attack, member = attack_for(attack_id, by)
    if not policy.runs_table(member):
        raise NotAllowed("only a GM may apply damage")
    damage = games.kit(attack.system).chain.DAMAGE
    if damage is None:
        raise ServiceError("no_damage_step", "this game's chain has no damage to apply", "attack")
    if amount is not None:
        amount = shapes.whole(amount, "amount", 0, MAX_COUNTER)
    with transaction.atomic():
        attack = locked_attack(attack, Attack.Status.AWAITING_DAMAGE)
        amount = (attack.damage or 0) if amount is None else amount
        target = target_now(attack)
        resource, sign = damage
        have = target.resources.get(resource, 0)
        after = min(MAX_COUNTER, max(0, have + sign * amount))
        changes, touched = apply_changes([(target, resource, after, attack.target_name)])
        suggested = attack.damage
        attack.damage = amount
        settle(attack, by, changes, touched, Attack.Status.AWAITING_DAMAGE, suggested)
    return attack


def attack_decline(*, attack_id: int, by) -> Attack:
    """The GM lets a pending attack go unapplied (a stale one, or a hit the
    table agreed not to count); logged as combat.declined."""
    attack, member = attack_for(attack_id, by)
    if not policy.runs_table(member):
        raise NotAllowed("only a GM may decline damage", "attack")
    with transaction.atomic():
        locked = (
            Attack.objects.select_for_update(of=("self",))
            .select_related("campaign", "event")
            .get(pk=attack.pk)
        )
        if locked.status not in decisions.PENDING:
            raise decisions.not_waiting(locked, Attack.Status.AWAITING_DAMAGE)
        status_before = locked.status
        locked.status = Attack.Status.DECLINED
        _announce(locked, event_kinds.COMBAT_DECLINED, by, [], status_before=status_before)
    return locked


def weapon_repair(*, character_id: int, by, weapon: str) -> None:
    """Mend a weapon a botch broke (GM)."""
    if type(character_id) is not int:
        raise shapes.invalid("character", "must be a character id")
    character, member = find(
        Character.objects.select_related("campaign"), character_id, by, "character", "character"
    )
    as_gm(member, "repair weapons")
    weapon = shapes.text(weapon, "weapon", 60)
    with transaction.atomic():
        deleted, _ = BrokenWeapon.objects.filter(character=character, weapon=weapon).delete()
        if not deleted:
            raise shapes.invalid("weapon", f"{character.name}'s {weapon} is not broken")
        append_event(
            campaign=character.campaign,
            kind=event_kinds.COMBAT_WEAPON_REPAIRED,
            data={"character_id": character.pk, "character": character.name, "weapon": weapon},
            actor=actor(by),
            visibility=Visibility.GM if character.kind == Character.Kind.NPC else Visibility.PUBLIC,
        )
