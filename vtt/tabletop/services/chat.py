"""The room's chat: a line for everyone, and a whisper for one member.

A chat line is stored as its text and its escaped HTML, never as markup
anyone typed. A whisper is the "whisper" event, whose declared sight
(vtt.tabletop.event_kinds) gives it to its sender and its recipient only:
the policy renders it for nobody else on any channel."""

import re

from django.utils.html import escape

from vtt.db.transactions import step

from .. import event_kinds, policy
from ..events import append_event
from ..models import Membership
from ..serialize import user_data
from .access import actor, require_member
from .errors import ServiceError

MAX_CHAT_CHARS = 2000
# Control characters other than tab and newline have no place in a chat line.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
GM_WORD = "gm"  # a whisper "to gm" goes to the campaign's GM


def clean_line(text: str, field: str = "text") -> str:
    """The line as it is stored, or a refusal on `field`."""
    text = _CONTROL.sub("", text).strip()
    if not text:
        raise ServiceError("invalid", "a chat line needs some text", field)
    if len(text) > MAX_CHAT_CHARS:
        raise ServiceError("invalid", f"a chat line is at most {MAX_CHAT_CHARS} characters", field)
    return text


def _line(text: str, **people) -> dict:
    return {**people, "text": text, "html": escape(text)}


def chat_say(*, campaign_id: int, by, text: str):
    """A line for everyone in the room; the appended event."""
    text = clean_line(text)
    campaign = require_member(campaign_id, by, with_campaign=True).campaign
    with step():
        return append_event(
            campaign=campaign,
            kind=event_kinds.CHAT,
            data=_line(text, **{"from": user_data(by)}),
            actor=actor(by),
        )


def member_named(campaign_id: int, name: str, field: str = "to"):
    """The member of this campaign called `name`: their username or their
    display name, in any case; "gm" is the campaign's GM. Only this
    campaign's members are looked at, so nobody is reached in another."""
    wanted = name.strip().casefold()
    members = list(Membership.objects.filter(campaign_id=campaign_id).select_related("user"))
    if wanted == GM_WORD:
        gms = [m.user for m in members if policy.runs_table(m)]
        if len(gms) == 1:
            return gms[0]
        if gms:
            raise ServiceError("ambiguous", "this campaign has several GMs: name one", field)
    by_username = [m.user for m in members if m.user.get_username().casefold() == wanted]
    if by_username:
        return by_username[0]
    by_name = [m.user for m in members if user_data(m.user)["name"].casefold() == wanted]
    if len(by_name) == 1:
        return by_name[0]
    if by_name:
        raise ServiceError(
            "ambiguous", f"several members are called {name!r}: use a username", field
        )
    raise ServiceError("not_found", f"nobody called {name!r} is in this campaign", field)


def chat_whisper(*, campaign_id: int, by, to: str, text: str):
    """A line for one member (`to`, as member_named reads it) and the
    sender, no one else; the appended event."""
    text = clean_line(text)
    campaign = require_member(campaign_id, by, with_campaign=True).campaign
    recipient = member_named(campaign_id, to)
    if recipient.pk == by.pk:
        raise ServiceError("invalid", "a whisper goes to someone else", "to")
    with step():
        return append_event(
            campaign=campaign,
            kind=event_kinds.WHISPER,
            data=_line(text, **{"from": user_data(by), "to": user_data(recipient)}),
            actor=actor(by),
            visibility=event_kinds.KINDS[event_kinds.WHISPER].visibilities[0],
        )
