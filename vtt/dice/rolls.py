"""Rolls: the audit record of every adjudication made in a campaign, and the
"roll" room event that shows it to whoever may see it (and holds its
request, result and draw: the row points at it).

`roll_adjudicate` is the one entry for a roll to be made, and `roll_record`
stores one made elsewhere; both authorize once, and `adjudicate_and_record`
and `record` trust their caller."""

from django.db import transaction

from vtt import games
from vtt.core import shapes
from vtt.db import rows
from vtt.db.transactions import step
from vtt.games.conditions import marked
from vtt.games.house_rules import apply_house_rules
from vtt.rules import RulesError, adjudicate
from vtt.rules.engine import clean_fields, find_action
from vtt.tabletop import event_kinds, policy
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Campaign, Character, Membership, Roll, Visibility
from vtt.tabletop.selectors import conditions_on
from vtt.tabletop.serialize import roll_event_data
from vtt.tabletop.services.access import (
    SYSTEM,
    actor,
    membership,
    require_member,
    require_participant,
    unknown,
)
from vtt.tabletop.services.errors import NotAllowed, ServiceError
from vtt.tabletop.services.resources import give, take
from vtt.tabletop.visibility import Viewer

from .character_rolls import fill_request
from .sessions import clean_nonce, draw


def check_roller(campaign_id: int, character: Character, member: Membership) -> None:
    """A GM rolls for anyone in the campaign; a player only for their own
    player characters; nobody for a character whose state forbids acting."""
    if character.campaign_id != campaign_id:
        raise shapes.invalid("character_id", "no such character in this campaign")
    if not policy.may_roll_for(member, character):
        raise NotAllowed("a player rolls only for their own characters", "character_id")
    check_can_act(character.campaign, character, character.name, "character_id")


def check_can_act(campaign: Campaign, character: Character | None, name: str, field: str) -> None:
    """Refuse `character` (named `name` as the table knows it) when its
    state forbids acting: its game's kit says which states do
    (GameKit.cannot_act). A token without a sheet has no state to read."""
    if character is None:
        return
    state = games.kit(campaign.game).cannot_act(character.resources or {}, campaign.settings)
    if state is not None:
        raise ServiceError("cannot_act", f"{name} is {state} and cannot act", field)


def roller_nonce(member: Membership, visibility: str, nonce: str | None) -> str | None:
    """The roller's nonce goes into the dice only when the roller sees the
    roll in full: with the nonce of a blind roll and the seed revealed at
    the end they could work out what it gave. Otherwise the server makes
    the nonce (None here), and the draw says so."""
    viewer = Viewer(member.user_id, member.role)
    return nonce if policy.sees_in_full(viewer, visibility, member.user_id) else None


def rules_error(error: RulesError) -> ServiceError:
    field = f"request.{error.field}" if error.field else "request"
    return ServiceError(error.code, error.message, field)


def check_request(campaign: Campaign, request) -> None:
    if not isinstance(request, dict):
        raise shapes.invalid("request", "must be a rules request object")
    shapes.storable(request, "request")
    if request.get("system") != campaign.game:
        raise shapes.invalid("request.system", f"this campaign plays {campaign.game}")


def record(
    campaign, by, request, result, visibility, character, physical, drawn, from_chat=False
) -> Roll:
    """Store an adjudicated roll and announce it with the roll's visibility.
    `drawn` is its place in the play session (play_sessions.draw)."""
    roll = Roll(
        campaign=campaign,
        roller=actor(by),
        character=character,
        visibility=visibility,
        physical=physical,
    )
    with step():
        connection = transaction.get_connection()
        roll.pk = _reserve_id(connection)
        if roll.pk is None:
            rows.insert(connection, roll)
        # The entry holds the request, result and draw; the row points at it.
        roll.event = append_event(
            campaign=campaign,
            kind=event_kinds.ROLL,
            data=roll_event_data(roll, request, result, drawn.record)
            | ({"chat": True} if from_chat else {}),
            actor=actor(by),
            visibility=visibility,
        )
        if roll._state.adding:
            # The row is written once, whole: no second version of it to vacuum.
            rows.insert(connection, roll)
        else:
            Roll.objects.filter(pk=roll.pk).update(event=roll.event)
    return roll


def _reserve_id(connection) -> int | None:
    """The next roll id from PostgreSQL's sequence, so the entry can name the
    row before the row is written. Elsewhere (SQLite) None: the row is
    inserted first and then pointed at its entry."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id'))", [Roll._meta.db_table])
        return cursor.fetchone()[0]


def adjudicate_and_record(
    campaign: Campaign,
    by,
    request: dict,
    visibility: str,
    character: Character | None,
    nonce: str | None = None,
    *,
    from_chat: bool = False,
) -> Roll:
    """Lay the house rules over a checked request, adjudicate and record it.
    With `faces` in the request the dice were physical, entered by a person;
    without, they come from the play session (`nonce`: the roller's, checked)."""
    request = apply_house_rules(campaign.game, campaign.settings, request)
    physical = "faces" in request
    with step():
        drawn = draw(campaign, nonce, physical=physical)
        try:
            result = adjudicate(request, source=drawn.source)
        except RulesError as error:
            raise rules_error(error) from None
        return record(
            campaign, by, request, result, visibility, character, physical, drawn, from_chat
        )


def roll_record(
    *,
    campaign: Campaign,
    by,
    request: dict,
    result: dict,
    visibility: str,
    character: Character | None = None,
    physical: bool = False,
) -> Roll:
    """Store a roll adjudicated elsewhere. `request` and `result` are the
    rules contract's dicts. Its dice were not thrown here, so its session
    records them as entered by a person (physical), never derived."""
    member = require_participant(campaign.pk, by, doing="roll")
    visibility = shapes.choice(visibility, "visibility", Visibility.values)
    if not isinstance(request, dict) or not isinstance(result, dict):
        raise shapes.invalid("request", "a roll is a rules request and its result")
    shapes.storable(request, "request")
    if character is not None:
        check_roller(campaign.pk, character, member)
    physical = shapes.boolean(physical, "physical")
    with step():
        drawn = draw(campaign, None, physical=True)
        return record(campaign, by, request, result, visibility, character, physical, drawn)


def roll_adjudicate(
    *,
    campaign_id: int,
    by,
    request: dict,
    visibility: str = Visibility.PUBLIC,
    character_id: int | None = None,
    fill: dict | None = None,
    nonce: str | None = None,
    from_chat: bool = False,
) -> Roll:
    """The one way a roll is made (the REST API, the room's roll intent and
    the chat's "/r" call it): adjudicate a rules request in the campaign's
    game and record it, for a character when one is named. Who may roll is
    checked here, once. For a character, `fill` takes request fields from
    its sheet (character_rolls.fill_request) and what the roll spends is
    taken in the same transaction; a character who lacks it is refused and
    nothing is rolled or spent. `nonce`: hex from the roller's browser that
    goes into the dice (docs/dice.md); `from_chat`: typed in the chat, which
    its event says."""
    member = require_member(campaign_id, by, with_campaign=True)
    if not isinstance(request, dict):
        raise shapes.invalid("request", "must be a rules request object")
    character = None
    if character_id is None:
        if fill:
            raise shapes.invalid("fill", "filling from a sheet needs a character")
    else:
        if type(character_id) is not int:
            raise shapes.invalid("character_id", "must be a character id or null")
        character, member = _roller_character(character_id, by, member)
    if not policy.takes_part(member):
        raise NotAllowed("an observer may not roll")
    if character is not None:
        check_roller(campaign_id, character, member)
    campaign = member.campaign
    visibility = shapes.choice(visibility, "visibility", Visibility.values)
    nonce = roller_nonce(member, visibility, clean_nonce(nonce))
    if character is None:
        check_request(campaign, request)
        return adjudicate_and_record(
            campaign, by, request, visibility, None, nonce, from_chat=from_chat
        )
    request = fill_request(campaign.game, character.sheet or {}, request, fill)
    check_request(campaign, request)
    kit = games.kit(campaign.game)
    try:
        _, name, action = find_action(request)
        # The conditions its tokens are marked with (vtt.games.conditions).
        request = marked(kit, request, action, conditions_on(character))
        fields = clean_fields(action, request)
    except RulesError as error:
        raise rules_error(error) from None
    with step():
        for resource, amount in kit.spends(name, fields).items():
            take(character.pk, by, resource, amount)
        roll = adjudicate_and_record(
            campaign, by, request, visibility, character, nonce, from_chat=from_chat
        )
        for resource, amount in kit.gains(roll.result).items():
            give(character.pk, SYSTEM, resource, amount)
    return roll


def _roller_character(character_id: int, by, member: Membership):
    """The character a roll is for, and the roller's membership of its
    campaign, refused as a lookup of it would be: NPCs exist for GMs only,
    and a character of a campaign the roller is no member of for nobody.
    One of another campaign of the roller's is check_roller's to refuse."""
    character = Character.objects.filter(pk=character_id).first()
    if character is not None and character.campaign_id == member.campaign_id:
        character.campaign = member.campaign
    elif character is not None:
        member = membership(character.campaign_id, by, with_campaign=True)
        if member is not None:
            character.campaign = member.campaign
    if character is None or member is None:
        raise unknown("character")
    if not policy.sees_character(policy.member_viewer(member), character):
        raise unknown("character")
    return character, member
