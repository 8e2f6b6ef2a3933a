"""Who is asking: the membership checks every service starts with.

A non-member is told NotFound, never NotAllowed, so a campaign's objects do
not reveal that they exist. `SYSTEM` stands for the server itself (the admin
site, management commands, another service acting on a rule): it passes
every check and is recorded as no actor."""

from django.db import transaction

from .. import rows
from ..models import Campaign, Membership, Role
from .errors import NotAllowed, NotFound


class _System:
    """The server acting on its own authority."""

    pk = None
    id = None
    is_authenticated = True

    def __repr__(self):
        return "SYSTEM"


SYSTEM = _System()


def actor(by):
    """The user to record on an event (None for the server itself)."""
    return None if by is SYSTEM else by


def membership(campaign_id: int, by, *, with_campaign: bool = False) -> Membership | None:
    """`by`'s membership of the campaign, or None. `with_campaign` reads the
    campaign in the same query, for a service that needs both. Written out
    (vtt.tabletop.rows): nearly every change of a live room starts here."""
    if by is SYSTEM:
        return Membership(campaign_id=campaign_id, role=Role.GM)
    if by is None or not getattr(by, "is_authenticated", False):
        return None
    campaign_id = _as_id(campaign_id)
    if campaign_id is None:
        return None
    connection = transaction.get_connection()
    quote = connection.ops.quote_name
    member, campaign = (quote(model._meta.db_table) for model in (Membership, Campaign))
    selected = rows.columns(connection, Membership, "m")
    joined = ""
    if with_campaign:
        selected += ", " + rows.columns(connection, Campaign, "c")
        joined = f" JOIN {campaign} c ON c.id = m.campaign_id"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {selected} FROM {member} m{joined} WHERE m.campaign_id = %s AND m.user_id = %s",
            [campaign_id, by.pk],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    count = len(Membership._meta.concrete_fields)
    found = rows.from_row(Membership, connection, row[:count])
    if with_campaign:
        found.campaign = rows.from_row(Campaign, connection, row[count:])
    return found


def _as_id(value) -> int | None:
    """`value` as an id ("5" as 5, as the ORM takes it), or None when no
    row can have it: not a number, or past a 64-bit id column's range,
    which the ORM's lookups answer with nothing and a driver refuses."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if -(2**63) <= number < 2**63 else None


def require_member(
    campaign_id: int, by, what: str = "campaign", *, with_campaign: bool = False
) -> Membership:
    member = membership(campaign_id, by, with_campaign=with_campaign)
    if member is None:
        raise NotFound(f"no such {what}")
    return member


def require_gm(campaign_id: int, by, what: str = "campaign", doing: str = "do this") -> Membership:
    member = require_member(campaign_id, by, what)
    if member.role != Role.GM:
        raise NotAllowed(f"only a GM may {doing}")
    return member


def require_participant(
    campaign_id: int,
    by,
    what: str = "campaign",
    doing: str = "do this",
    *,
    with_campaign: bool = False,
):
    """A GM or a player: observers watch and change nothing."""
    member = require_member(campaign_id, by, what, with_campaign=with_campaign)
    if member.role == Role.OBSERVER:
        raise NotAllowed(f"an observer may not {doing}")
    return member
