"""Who is asking: the membership checks every service starts with.

A non-member is told NotFound, never NotAllowed, so a campaign's objects do
not reveal that they exist; `find` looks an object up so that the refusal
is the same, to the byte, whether the object is missing or in a campaign
the caller is no member of. `SYSTEM` stands for the server itself (the
admin site, management commands, another service acting on a rule): it
passes every check and is recorded as no actor."""

from operator import attrgetter

from django.db import transaction

from vtt.db import rows

from .. import policy
from ..models import Campaign, Membership, Role
from .errors import NotAllowed, NotFound, ServiceError


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
    (vtt.db.rows): nearly every change of a live room starts here."""
    if by is SYSTEM:
        return Membership(campaign_id=campaign_id, role=Role.GM)
    if by is None or not getattr(by, "is_authenticated", False):
        return None
    campaign_id = as_id(campaign_id)
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


def as_id(value) -> int | None:
    """`value` as an id ("5" as 5, as the ORM takes it), or None when no
    row can have it: not a number, or past a 64-bit id column's range,
    which the ORM's lookups answer with nothing and a driver refuses."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if -(2**63) <= number < 2**63 else None


def unknown(what: str, field: str | None = None) -> NotFound:
    """The one refusal for a `what` the caller may not know of: there is
    none, it is in a campaign they are no member of, or the GM keeps it
    from them. Nothing in it depends on which."""
    return NotFound(f"no such {what}", field)


def no_active_scene() -> ServiceError:
    """The refusal of an act on "the room's scene" while none is on the table."""
    return ServiceError("invalid", "the room has no active scene; name one", "scene")


def find(
    queryset,
    pk,
    by,
    what: str,
    field: str | None = None,
    *,
    campaign: str = "campaign_id",
    with_campaign: bool = False,
):
    """The object `pk` of `queryset` and `by`'s membership of its campaign
    (`campaign`: the path from the object to its campaign's id). A missing
    object and one of another campaign are the same `unknown(what, field)`,
    so no id tells a stranger that something exists (docs/security.md).
    What a member may not see of it, or do with it, is the caller's to
    check next: `unknown` again for what they may not know of, NotAllowed
    for what they know of but may not do."""
    found = queryset.filter(pk=pk).first()
    member = None
    if found is not None:
        member = membership(attrgetter(campaign)(found), by, with_campaign=with_campaign)
    if member is None:
        raise unknown(what, field)
    return found, member


def require_member(campaign_id: int, by, *, with_campaign: bool = False) -> Membership:
    member = membership(campaign_id, by, with_campaign=with_campaign)
    if member is None:
        raise unknown("campaign")
    return member


def require_gm(campaign_id: int, by, doing: str = "do this") -> Membership:
    return as_gm(require_member(campaign_id, by), doing)


def as_gm(member: Membership, doing: str = "do this") -> Membership:
    """The member, if a GM: a member knows what is in their campaign, so a
    role too low to act on it is NotAllowed, not NotFound."""
    if not policy.runs_table(member):
        raise NotAllowed(f"only a GM may {doing}")
    return member


def require_participant(
    campaign_id: int, by, doing: str = "do this", *, with_campaign: bool = False
):
    """A GM or a player: observers watch and change nothing."""
    member = require_member(campaign_id, by, with_campaign=with_campaign)
    if not policy.takes_part(member):
        raise NotAllowed(f"an observer may not {doing}")
    return member
