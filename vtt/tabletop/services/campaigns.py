"""Campaigns: creating one (its creator becomes the GM), renaming it, the
table's per-game settings, deleting it."""

from django.db import transaction

from vtt import games
from vtt.core import shapes
from vtt.games import game_settings
from vtt.pictures import images

from .. import event_kinds
from ..events import append_event
from ..models import Campaign, Character, Handout, Membership, Role, Scene, Token
from ..serialize import campaign_data
from .access import actor, require_gm
from .characters import character_event
from .errors import ServiceError


def campaign_create(*, owner, name: str, game: str, settings: dict | None = None) -> Campaign:
    name = shapes.text(name, "name", 120)
    shapes.choice(game, "game", games.ids())
    clean = game_settings.clean_settings(game, settings)
    with transaction.atomic():
        campaign = Campaign.objects.create(name=name, game=game, settings=clean)
        Membership.objects.create(campaign=campaign, user=owner, role=Role.GM)
    return campaign


def _locked_campaign(campaign_id: int) -> Campaign:
    return Campaign.objects.select_for_update().get(pk=campaign_id)


def campaign_update(*, campaign_id: int, by, **fields) -> Campaign:
    """Change the name and/or some settings (GM), in one transaction. The
    settings not given keep their values; a game may carry names the
    campaign renames over to every sheet (Artifice does)."""
    require_gm(campaign_id, by, doing="change the campaign")
    for field in fields:
        if field not in ("name", "settings"):
            raise ServiceError("unknown_field", f"{field} is not a known field", field)
    name = shapes.text(fields["name"], "name", 120) if "name" in fields else None
    if not fields:
        return Campaign.objects.get(pk=campaign_id)
    with transaction.atomic():
        campaign = _locked_campaign(campaign_id)
        changed = []
        if "settings" in fields:
            before = campaign.settings
            after = game_settings.clean_settings(campaign.game, fields["settings"], base=before)
            # A game may carry the change over to the sheets (Artifice renames
            # its named entries), so the characters are held meanwhile.
            characters = Character.objects.select_for_update().filter(campaign=campaign)
            kit = games.kit(campaign.game)
            changed = kit.settings_changed(before, after, list(characters.order_by("pk")))
            campaign.settings = after
        if name is not None:
            campaign.name = name
        campaign.save(update_fields=["name", "settings"])
        for character in changed:
            character.save(update_fields=["sheet", "resources", "updated_at"])
        append_event(
            campaign=campaign,
            kind=event_kinds.CAMPAIGN_UPDATED,
            data={"campaign": campaign_data(campaign)},
            actor=actor(by),
        )
        for character in changed:
            character_event(character, event_kinds.CHARACTER_UPDATED, by)
    return campaign


def campaign_update_settings(*, campaign_id: int, by, settings: dict) -> Campaign:
    """Change some settings (GM); see campaign_update."""
    return campaign_update(campaign_id=campaign_id, by=by, settings=settings)


def campaign_delete(*, campaign_id: int, by) -> None:
    require_gm(campaign_id, by, doing="delete the campaign")
    with transaction.atomic():
        # Its uploaded pictures go with it, once the deletion has committed.
        images.forget_pictures(Character.objects.filter(campaign_id=campaign_id))
        images.forget_pictures(Token.objects.filter(scene__campaign_id=campaign_id))
        images.forget_pictures(Handout.objects.filter(campaign_id=campaign_id).exclude(image=""))
        backgrounds = Scene.objects.filter(campaign_id=campaign_id).exclude(background="")
        images.forget_files(
            Scene._meta.get_field("background").storage,
            backgrounds.exclude(background=None).values_list("background", flat=True),
        )
        Campaign.objects.filter(pk=campaign_id).delete()
