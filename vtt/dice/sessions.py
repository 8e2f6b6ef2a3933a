"""Play sessions and where every die of their rolls comes from (docs/dice.md).

A GM starts and ends a session; a roll made while the room has none opens
one by itself. Starting draws a secret seed and publishes its SHA-256
digest ("session.started") before any roll of the session; ending publishes
the seed ("session.ended"), so anyone can recompute every roll they saw.

Each throw of dice by the server (a roll, an attack, one combatant's
initiative) takes the session's next roll number with `draw`, in the
transaction that records it, and its dice come from the seed, that number
and the roller's nonce (vtt.rules.session_dice). What it records is the
draw: {"session", "roll", "nonce", "nonce_by"}, or {"session", "roll",
"physical": true} for dice a person entered, which are not derived."""

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from vtt.rules import RulesError
from vtt.rules.session_dice import SessionDice, check_nonce, commitment, new_nonce, new_seed
from vtt.tabletop import event_kinds
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Campaign, PlaySession
from vtt.tabletop.services.access import actor, require_gm
from vtt.tabletop.services.errors import ServiceError


@dataclass(frozen=True)
class Draw:
    """One throw's place in its session: what is recorded with it, and the
    dice source its faces come from (None for physical dice)."""

    record: dict
    source: SessionDice | None


def clean_nonce(value, field: str = "nonce") -> str | None:
    """The nonce a roller's browser sent, or None (the server makes one)."""
    if value is None:
        return None
    try:
        return check_nonce(value, field)
    except RulesError as error:
        raise ServiceError(error.code, error.message, field) from None


def open_session(campaign_id: int) -> PlaySession | None:
    return PlaySession.objects.filter(campaign_id=campaign_id, ended_at__isnull=True).first()


def _lock(campaign_id: int) -> Campaign:
    # One change of a campaign's sessions or roll numbers at a time.
    return Campaign.objects.select_for_update().get(pk=campaign_id)


def _start(campaign: Campaign, by) -> PlaySession:
    last = PlaySession.objects.filter(campaign=campaign).order_by("-number").first()
    seed = new_seed()
    session = PlaySession.objects.create(
        campaign=campaign,
        number=(last.number if last else 0) + 1,
        seed=seed,
        digest=commitment(seed),
        started_by=actor(by),
    )
    append_event(
        campaign=campaign,
        kind=event_kinds.SESSION_STARTED,
        data={"session": session.number, "digest": session.digest},
        actor=actor(by),
    )
    return session


def session_start(*, campaign_id: int, by) -> PlaySession:
    """Start the campaign's next session (GM). One is open at a time."""
    require_gm(campaign_id, by, doing="start a session")
    with transaction.atomic():
        campaign = _lock(campaign_id)
        running = open_session(campaign_id)
        if running is not None:
            raise ServiceError(
                "session_open", f"session {running.number} is still open: end it first"
            )
        return _start(campaign, by)


def session_end(*, campaign_id: int, by) -> PlaySession:
    """End the open session and publish its seed (GM)."""
    require_gm(campaign_id, by, doing="end a session")
    with transaction.atomic():
        campaign = _lock(campaign_id)
        session = open_session(campaign_id)
        if session is None:
            raise ServiceError("no_session", "no session is open")
        session.ended_at = timezone.now()
        session.save(update_fields=["ended_at"])
        append_event(
            campaign=campaign,
            kind=event_kinds.SESSION_ENDED,
            data={
                "session": session.number,
                "digest": session.digest,
                "seed": bytes(session.seed).hex(),
            },
            actor=actor(by),
        )
    return session


def _next_roll(connection, campaign_id: int) -> PlaySession | None:
    """Count one more roll in the open session and read it, in one
    statement (every roll pays for this). The statement locks the session's
    row until commit, so roll numbers follow the order the rolls commit in,
    and an ending session waits for the rolls already drawn; a roll that
    comes after the end finds no open session."""
    table = connection.ops.quote_name(PlaySession._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET rolls = rolls + 1"
            " WHERE campaign_id = %s AND ended_at IS NULL"
            " RETURNING id, number, rolls, seed",
            [campaign_id],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    pk, number, rolls, seed = row
    return PlaySession(pk=pk, campaign_id=campaign_id, number=number, rolls=rolls, seed=seed)


def draw(campaign: Campaign, nonce: str | None, *, physical: bool = False) -> Draw:
    """The next roll number of the campaign's open session (opening one when
    there is none) for one throw of dice. Must run in the transaction that
    records the throw, so a throw that fails gives its number back.
    `nonce` is the roller's, already checked (clean_nonce); without one the
    server makes one and says so."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("draw must run inside transaction.atomic()")
    session = _next_roll(connection, campaign.pk)
    if session is None:  # no session open: this roll opens one (or finds
        # the one another roll opened while it waited for the lock)
        locked = _lock(campaign.pk)
        session = open_session(campaign.pk) or _start(locked, None)
        session.rolls += 1
        session.save(update_fields=["rolls"])
    if physical:
        record = {"session": session.number, "roll": session.rolls, "physical": True}
        return Draw(record, None)
    nonce_by = "roller" if nonce is not None else "server"
    nonce = nonce if nonce is not None else new_nonce()
    record = {
        "session": session.number,
        "roll": session.rolls,
        "nonce": nonce,
        "nonce_by": nonce_by,
    }
    return Draw(record, SessionDice(bytes(session.seed), session.number, session.rolls, nonce))
