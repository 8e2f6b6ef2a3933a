"""Turn order on a scene: start an encounter, roll or set initiative, pass
the turn, count rounds, end it. Each change is one room event carrying the
whole encounter ("encounter.started", "encounter.initiative",
"encounter.updated", "encounter.turn", "encounter.ended"); players receive
it without the combatants whose tokens are hidden ("players_view") and, on a
scene with fog, without those their group did not see as it was logged (the
event's fog annotation, applied by policy.event_view). Reads for one viewer
(REST, an intent's answer) leave out what that viewer does not see now.

The order is initiative, highest first, with combatants not yet rolled at
the end; ties keep the order in which combatants joined. A round ends when
the turn comes back to the top of the order. Every turn change starts the
scene's movement trails afresh.

Passing the turn goes over the combatants whose wound track has them out of
the fight (incapacitated, dying, dead), unless the campaign's `skip_fallen`
setting is off; when everyone is out, the turn passes as if nobody were."""

from django.db import IntegrityError, transaction
from django.utils import timezone

from vtt import games
from vtt.core import shapes
from vtt.dice.sessions import clean_nonce
from vtt.tabletop import event_kinds as kinds
from vtt.tabletop import policy
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Scene, Token
from vtt.tabletop.services.access import actor, as_gm, find, membership, unknown
from vtt.tabletop.services.errors import NotAllowed, NotFound, ServiceError
from vtt.tabletop.visibility import Viewer

from ..models import Combatant, Encounter
from ..serialize import encounter_data
from .dice import Steps
from .trails import clear_trails

MAX_COMBATANTS = 100
INITIATIVE_LIMIT = 10_000


def turn_order(encounter: Encounter) -> list[Combatant]:
    combatants = list(encounter.combatants.select_related("token", "token__character"))
    combatants.sort(key=lambda c: (c.initiative is None, -(c.initiative or 0), c.joined, c.pk))
    return combatants


def unseen_tokens(order: list[Combatant], viewer: Viewer) -> set[int]:
    """The combatants' tokens `viewer` does not see now (policy.sees_token:
    hidden, or on a fog scene out of their group's view)."""
    if policy.runs_table(viewer):
        return set()
    tokens = {c.token_id for c in order if c.token_id is not None}
    seen = Token.objects.filter(policy.visible_tokens_q(viewer), pk__in=tokens)
    return tokens - set(seen.values_list("pk", flat=True))


def encounter_view(encounter: Encounter, viewer: Viewer) -> dict:
    """The encounter as `viewer` sees it now (a REST read, an intent's
    answer); events carry what each group saw as they were logged."""
    order = turn_order(encounter)
    return encounter_data(encounter, order, unseen_tokens(order, viewer))


def viewer_of(encounter: Encounter, by) -> Viewer:
    """`by` as a viewer of the encounter's campaign, with their sight group."""
    member = membership(encounter.campaign_id, by)
    if member is None:
        raise unknown("encounter", "encounter")
    return policy.member_viewer(member, encounter.campaign.settings)


def _announce(encounter: Encounter, kind: str, by, **extra) -> None:
    """One event for the room; players get the view without hidden tokens."""
    order = turn_order(encounter)
    hidden = {c.token_id for c in order if c.token and c.token.hidden}
    data = {"encounter": encounter_data(encounter, order), **extra}
    if hidden:
        players = {"encounter": encounter_data(encounter, order, hidden)}
        if "rolls" in extra:
            players["rolls"] = [r for r in extra["rolls"] if r["token_id"] not in hidden]
        data["players_view"] = players
    append_event(
        campaign=encounter.campaign,
        kind=kind,
        data=data,
        actor=actor(by),
        scene_id=encounter.scene_id,
    )


def _scene_for(scene_id, by, doing: str) -> Scene:
    if type(scene_id) is not int:
        raise shapes.invalid("scene", "must be a scene id")
    scene, member = find(Scene.objects.select_related("campaign"), scene_id, by, "scene", "scene")
    as_gm(member, doing)
    return scene


def _encounter_for(encounter_id, by):
    if type(encounter_id) is not int:
        raise shapes.invalid("encounter", "must be an encounter id")
    encounter, member = find(
        Encounter.objects.select_related("campaign", "scene"),
        encounter_id,
        by,
        "encounter",
        "encounter",
    )
    encounter.scene.campaign = encounter.campaign
    if not policy.sees_scene(Viewer(member.user_id, member.role), encounter.scene):
        raise unknown("encounter", "encounter")
    return encounter, member


def _running(encounter_id, by, doing: str) -> Encounter:
    encounter, member = _encounter_for(encounter_id, by)
    if not policy.runs_table(member):
        raise NotAllowed(f"only a GM may {doing}")
    if encounter.ended_at is not None:
        raise ServiceError("encounter_ended", "this encounter is over", "encounter")
    return encounter


def _lock(encounter: Encounter) -> Encounter:
    """The encounter's row, locked: turn changes happen one at a time."""
    locked = (
        Encounter.objects.select_for_update(of=("self",))
        .select_related("campaign", "scene")
        .get(pk=encounter.pk)
    )
    if locked.ended_at is not None:
        raise ServiceError("encounter_ended", "this encounter is over", "encounter")
    return locked


def _tokens(scene: Scene, token_ids) -> list[Token]:
    tokens = Token.objects.filter(scene=scene).order_by("pk")
    if token_ids is None:
        return list(tokens)
    shapes.items(token_ids, "tokens", MAX_COMBATANTS)
    wanted = []
    for i, token_id in enumerate(token_ids):
        if type(token_id) is not int:
            raise shapes.invalid(f"tokens[{i}]", "must be a token id")
        if token_id not in wanted:
            wanted.append(token_id)
    found = {t.pk: t for t in tokens.filter(pk__in=wanted)}
    for i, token_id in enumerate(wanted):
        if token_id not in found:
            raise shapes.invalid(f"tokens[{i}]", "no such token on this scene")
    return [found[token_id] for token_id in wanted]


def encounter_start(*, scene_id: int, by, tokens: list | None = None) -> Encounter:
    """Start a fight on the scene with these tokens (all of its tokens by
    default), round 1, nobody's turn until the GM passes the first."""
    scene = _scene_for(scene_id, by, "start encounters")
    chosen = _tokens(scene, tokens)
    if len(chosen) > MAX_COMBATANTS:
        raise shapes.invalid("tokens", f"at most {MAX_COMBATANTS} combatants")
    try:
        with transaction.atomic():
            encounter = Encounter.objects.create(
                campaign=scene.campaign, scene=scene, started_by=actor(by)
            )
            Combatant.objects.bulk_create(
                Combatant(encounter=encounter, token=t, name=t.name, joined=i)
                for i, t in enumerate(chosen)
            )
            clear_trails(scene.pk)
            _announce(encounter, kinds.ENCOUNTER_STARTED, by)
    except IntegrityError:
        raise ServiceError(
            "encounter_running", "an encounter is already running on this scene", "scene"
        ) from None
    return encounter


def encounter_add(*, encounter_id: int, by, token_id: int) -> Encounter:
    encounter = _running(encounter_id, by, "change the turn order")
    token = _tokens(encounter.scene, [token_id])[0]
    with transaction.atomic():
        if encounter.combatants.filter(token=token).exists():
            raise shapes.invalid("token", "is in this encounter already")
        if encounter.combatants.count() >= MAX_COMBATANTS:
            raise shapes.invalid("token", f"at most {MAX_COMBATANTS} combatants")
        last = encounter.combatants.order_by("-joined").values_list("joined", flat=True).first()
        Combatant.objects.create(
            encounter=encounter, token=token, name=token.name, joined=(last or 0) + 1
        )
        _announce(encounter, kinds.ENCOUNTER_UPDATED, by)
    return encounter


def _combatant(encounter: Encounter, combatant_id, unseen=frozenset()) -> Combatant:
    """One combatant; one whose token is `unseen` (by a player: hidden, or
    out of their view) is not there."""
    if type(combatant_id) is not int:
        raise shapes.invalid("combatant", "must be a combatant id")
    combatant = encounter.combatants.select_related("token").filter(pk=combatant_id).first()
    if combatant is None or combatant.token_id in unseen:
        raise NotFound("no such combatant in this encounter", "combatant")
    return combatant


def fallen(encounter: Encounter, order: list[Combatant]) -> set[int]:
    """The combatants the turn passes over: out of the fight by their wound
    track, unless the campaign has the turn come to them anyway."""
    settings = encounter.campaign.settings or {}
    if settings.get("skip_fallen", True) is False:
        return set()
    kit = games.kit(encounter.campaign.game)
    out = set()
    for c in order:
        character = c.token.character if c.token else None
        wounds = kit.wounds(character.resources, settings) if character else None
        if wounds and wounds["out"]:
            out.add(c.pk)
    return out


def _following(
    encounter: Encounter, order: list[Combatant], passed: set | frozenset = frozenset()
) -> tuple[Combatant | None, bool]:
    """The combatant after the current one not in `passed`, and whether that
    starts a round. When every one is passed over, simply the next one."""
    if not order:
        return None, False
    ids = [c.pk for c in order]
    if encounter.current_id in ids:
        start, wrapped = ids.index(encounter.current_id) + 1, False
    else:
        start, wrapped = 0, encounter.turns > 0
    first = None
    for step in range(len(order)):
        at = start + step
        found = (order[at % len(order)], wrapped or at >= len(order))
        if found[0].pk not in passed:
            return found
        first = first or found
    return first


def encounter_remove(*, encounter_id: int, by, combatant_id: int) -> Encounter:
    encounter = _running(encounter_id, by, "change the turn order")
    with transaction.atomic():
        encounter = _lock(encounter)
        combatant = _combatant(encounter, combatant_id)
        if encounter.current_id == combatant.pk:
            # Their turn passes on, as if they had finished it.
            order = turn_order(encounter)
            following, new_round = _following(
                encounter, order, fallen(encounter, order) | {combatant.pk}
            )
            encounter.current = following if following and following.pk != combatant.pk else None
            encounter.round += 1 if new_round else 0
            encounter.save(update_fields=["current", "round"])
        combatant.delete()
        _announce(encounter, kinds.ENCOUNTER_UPDATED, by)
    return encounter


def encounter_set_initiative(*, encounter_id: int, by, combatant_id: int, initiative) -> Encounter:
    """The GM sets a combatant's initiative (null takes it out of the order's ranking)."""
    encounter = _running(encounter_id, by, "set initiative")
    if initiative is not None:
        initiative = shapes.whole(initiative, "initiative", -INITIATIVE_LIMIT, INITIATIVE_LIMIT)
    with transaction.atomic():
        combatant = _combatant(encounter, combatant_id)
        combatant.initiative = initiative
        combatant.save(update_fields=["initiative"])
        _announce(encounter, kinds.ENCOUNTER_UPDATED, by)
    return encounter


def encounter_roll_initiative(
    *,
    encounter_id: int,
    by,
    combatants: list | None = None,
    faces: list | None = None,
    nonce: str | None = None,
) -> Encounter:
    """Roll initiative for these combatants (by default: a GM's for everyone
    not yet rolled, a player's for the ones whose tokens they control), in
    the order given, from each one's sheet. Faces, when given, are one tape
    across all the rolls. Each combatant's roll is its own draw from the play
    session (players see only some of them), all with the roller's `nonce`."""
    nonce = clean_nonce(nonce)
    encounter, member = _encounter_for(encounter_id, by)
    if not policy.takes_part(member):
        raise NotAllowed("an observer may not roll")
    if encounter.ended_at is not None:
        raise ServiceError("encounter_ended", "this encounter is over", "encounter")
    gm = policy.runs_table(member)
    every = turn_order(encounter)
    viewer = policy.member_viewer(member, encounter.campaign.settings)
    unseen = unseen_tokens(every, viewer)
    if combatants is None:
        chosen = [
            c
            for c in every
            if (gm and c.initiative is None)
            or (
                not gm
                and c.initiative is None
                and c.token
                and c.token_id not in unseen
                and by.pk in c.token.controller_ids
            )
        ]
    else:
        shapes.items(combatants, "combatants", MAX_COMBATANTS)
        chosen = [_combatant(encounter, c, unseen) for c in dict.fromkeys(combatants)]
    if not chosen:
        raise ServiceError("nothing_to_roll", "no combatant to roll for", "combatants")
    if not gm:
        for c in chosen:
            if not (c.token and by.pk in c.token.controller_ids):
                raise NotAllowed(f"you do not control {c.name}", "combatants")
            if c.initiative is not None:
                raise NotAllowed(f"{c.name} has rolled already: ask the GM", "combatants")
    chain = games.kit(encounter.campaign.game).chain
    settings = encounter.campaign.settings
    steps = Steps(faces)
    rolls = []
    with transaction.atomic():
        for c in chosen:
            character = c.token.character if c.token else None
            request = chain.initiative_request(character.sheet if character else {}, settings)
            drawn = steps.draw(encounter.campaign, nonce)
            result = steps.roll("initiative", request)
            c.initiative = chain.initiative_value(result)
            c.save(update_fields=["initiative"])
            rolls.append(
                {
                    "combatant_id": c.pk,
                    "token_id": c.token_id,
                    "name": c.name,
                    "initiative": c.initiative,
                    **steps.steps[-1],
                    "draw": drawn,
                }
            )
        steps.finish()
        _announce(encounter, kinds.ENCOUNTER_INITIATIVE, by, rolls=rolls, physical=steps.physical)
    return encounter


def encounter_next(*, encounter_id: int, by) -> Encounter:
    """Pass the turn to the next combatant; past the last, a new round begins."""
    encounter = _running(encounter_id, by, "pass the turn")
    with transaction.atomic():
        encounter = _lock(encounter)
        order = turn_order(encounter)
        following, new_round = _following(encounter, order, fallen(encounter, order))
        if following is None:
            raise ServiceError("no_combatants", "nobody is in this encounter", "encounter")
        encounter.current = following
        encounter.turns += 1
        if new_round:
            encounter.round += 1
        encounter.save(update_fields=["current", "turns", "round"])
        clear_trails(encounter.scene_id)
        _announce(encounter, kinds.ENCOUNTER_TURN, by)
    return encounter


def encounter_end(*, encounter_id: int, by) -> Encounter:
    encounter = _running(encounter_id, by, "end encounters")
    with transaction.atomic():
        encounter = _lock(encounter)
        encounter.ended_at = timezone.now()
        encounter.save(update_fields=["ended_at"])
        clear_trails(encounter.scene_id)
        _announce(encounter, kinds.ENCOUNTER_ENDED, by)
    return encounter
