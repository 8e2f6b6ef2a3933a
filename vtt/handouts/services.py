"""Handouts: what the GM hands the players (a letter, a map, a portrait).

The GM makes one (a title, a picture and/or Markdown text, rendered once,
safely: vtt.handouts.text), then shares it with everyone or with
chosen members, and may let more in later; nobody is ever let out again.
Each member let in gets a "handout.shared" event addressed to them alone
(as a whisper is), carrying the handout as they may read it: the live
room, the log's readers (resync, replay, journal) and every other channel
give it to that member and the GM who handed it, nobody else. The REST
reads ask policy.sees_handout / visible_handouts_q.

A handout's picture is checked and re-encoded like a battle map's
(vtt.pictures.images) and stored under a random name: like a hidden
token's art, it is only as private as its URL."""

import re

from django.db import transaction
from django.utils import timezone

from vtt.db.transactions import step
from vtt.pictures import images
from vtt.tabletop import event_kinds, policy
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Handout, HandoutShare, Membership
from vtt.tabletop.serialize import user_data
from vtt.tabletop.services.access import actor, find, require_gm, require_member, unknown
from vtt.tabletop.services.errors import NotAllowed, ServiceError

from . import text as handout_text

MAX_TITLE = 200
MAX_MEMBERS = 100
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def handout_data(handout: Handout) -> dict:
    """A handout as a member it was shared with reads it."""
    return {
        "id": handout.pk,
        "title": handout.title,
        "html": handout.html,
        "image": handout.image.url if handout.image else None,
        "everyone": handout.everyone,
    }


def handout_gm_data(handout: Handout) -> dict:
    """A handout as the GM reads it: its Markdown and who it is shared with."""
    shared = sorted(handout.shares.values_list("user_id", flat=True))
    return {**handout_data(handout), "text": handout.text, "shared_with": shared}


def _clean_title(title: str) -> str:
    title = _CONTROL.sub("", title).strip()
    if not title:
        raise ServiceError("invalid", "a handout needs a title", "title")
    if len(title) > MAX_TITLE:
        raise ServiceError("invalid", f"a title is at most {MAX_TITLE} characters", "title")
    return title


def _clean_text(text: str) -> str:
    if len(text) > handout_text.MAX_TEXT:
        raise ServiceError(
            "invalid", f"a handout's text is at most {handout_text.MAX_TEXT:,} characters", "text"
        )
    return text.strip()


def handout_create(*, campaign_id: int, by, title: str, text: str = "", image=None) -> Handout:
    """A new handout, the GM's alone until shared. An image (if any) is
    checked before anything is written: not an image, or too large, is a
    refusal on `image` and nothing is stored."""
    member = require_gm(campaign_id, by, "make handouts")
    title, text = _clean_title(title), _clean_text(text)
    if not text and image is None:
        raise ServiceError("invalid", "a handout needs a picture or some text", "text")
    handout = Handout(campaign_id=member.campaign_id, title=title, text=text)
    handout.html = handout_text.render(text)
    if image is None:
        handout.save()
        return handout
    encoded = images.reencode_background(image)
    storage = handout.image.storage
    stored = images.save_files(storage, handout.image.field.upload_to, encoded)["image"]
    try:
        with transaction.atomic():
            handout.image.name = stored
            handout.save()
    except BaseException:
        storage.delete(stored)  # no row points at it
        raise
    return handout


def handout_for(handout_id: int, by) -> tuple[Handout, Membership]:
    """A handout `by` may read, and their membership; unknown otherwise."""
    handout, member = find(Handout.objects.all(), handout_id, by, "handout")
    if not policy.sees_handout(policy.member_viewer(member), handout):
        raise unknown("handout")
    return handout, member


def handout_share(*, handout_id: int, by, everyone: bool = False, members=()) -> Handout:
    """Let more members read a handout: everyone (now and later), or the
    members named by user id. Each member newly let in gets the handout's
    event; one let in already gets nothing again."""
    handout, member = handout_for(handout_id, by)
    if not policy.runs_table(member):
        raise NotAllowed("only a GM may share handouts")
    members = list(members)
    if not everyone and not members:
        raise ServiceError("invalid", "share with everyone or name some members", "members")
    if len(members) > MAX_MEMBERS:
        raise ServiceError("invalid", f"at most {MAX_MEMBERS} members at once", "members")
    in_campaign = Membership.objects.filter(campaign_id=handout.campaign_id).select_related("user")
    if not everyone:
        in_campaign = in_campaign.filter(user_id__in=members)
    found = {m.user_id: m.user for m in in_campaign}
    if not everyone and set(members) - set(found):
        raise ServiceError("invalid", "each member must be a member of this campaign", "members")
    with step():
        handout = Handout.objects.select_for_update().select_related("campaign").get(pk=handout.pk)
        had = set(handout.shares.values_list("user_id", flat=True))
        new = [
            user
            for uid, user in sorted(found.items())
            if uid not in had and uid != getattr(by, "pk", None)
        ]
        if everyone and not handout.everyone:
            handout.everyone = True
            handout.save(update_fields=["everyone"])
        now = timezone.now()
        HandoutShare.objects.bulk_create(
            [HandoutShare(handout=handout, user=user, shared_at=now) for user in new]
        )
        for user in new:
            append_event(
                campaign=handout.campaign,
                kind=event_kinds.HANDOUT_SHARED,
                data={
                    "from": user_data(by),
                    "to": user_data(user),
                    "handout": handout_data(handout),
                },
                actor=actor(by),
                visibility=event_kinds.KINDS[event_kinds.HANDOUT_SHARED].visibilities[0],
            )
    return handout


def handouts_seen(campaign_id: int, by) -> tuple[list[Handout], Membership]:
    """The campaign's handouts `by` may read, oldest first."""
    member = require_member(campaign_id, by)
    viewer = policy.member_viewer(member)
    rows = Handout.objects.filter(policy.visible_handouts_q(viewer), campaign_id=campaign_id)
    return list(rows.distinct().order_by("created_at", "pk")), member
