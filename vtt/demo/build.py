"""Lay a demo campaign out through the services, piece by piece: what is
already there is left alone, what is missing is made. So a second run
changes nothing, and a run after a piece was deleted puts that piece back."""

import functools

from django.core.files.base import ContentFile

from vtt.games.demo import Demo
from vtt.tabletop import services
from vtt.tabletop.models import Campaign, Character, Membership, Role, Scene, Token

from .portraits import portrait

# The pictures are the same every time they are drawn: a process that lays
# the demo out more than once (the tests) draws each of them once.
_portrait = functools.cache(portrait)
_background = functools.cache(lambda paint: paint())
# The demos keep the rules at the table: attacks wait for their turn.
SETTINGS = {"attacks_on_turn": True}


def attach_portrait(character: Character, png: bytes, *, by) -> bool:
    """Give `character` its portrait through the portrait service, unless it
    has one (the demo leaves a changed picture alone). True when attached."""
    if character.portrait:
        return False
    services.character_set_portrait(
        character_id=character.pk,
        by=by,
        image=ContentFile(png, name=f"portrait-{character.pk}.png"),
    )
    return True


def lay_out(demo: Demo, gm, player) -> bool:
    """Make whatever of `demo` is missing; True when anything was made."""
    made = False
    campaign = Campaign.objects.filter(name=demo.campaign, memberships__user=gm).first()
    if campaign is None:
        campaign = services.campaign_create(
            owner=gm, name=demo.campaign, game=demo.game, settings=SETTINGS
        )
        made = True
    if not Membership.objects.filter(campaign=campaign, user=player).exists():
        services.membership_add(campaign_id=campaign.pk, by=gm, user_id=player.pk, role=Role.PLAYER)
        made = True
    owners = {"player": player, None: None}
    characters = {}
    for figure in demo.figures:
        character = Character.objects.filter(campaign=campaign, name=figure.name).first()
        if character is None:
            owner = owners[figure.owner]
            character = services.character_create(
                campaign_id=campaign.pk,
                by=gm,
                name=figure.name,
                kind=figure.kind,
                owner_id=owner.pk if owner else None,
                sheet=figure.sheet,
                weapons=figure.weapons,
                gm_notes=figure.gm_notes,
            )
            made = True
        made |= attach_portrait(
            character, _portrait(figure.name, figure.colour, figure.emblem), by=gm
        )
        characters[figure.name] = character
    made |= _scene(demo, campaign, gm, characters)
    return made


def _scene(demo: Demo, campaign: Campaign, gm, characters: dict) -> bool:
    made = False
    spec = demo.scene
    scene = Scene.objects.filter(campaign=campaign, name=spec.name).first()
    if scene is None:
        scene = services.scene_create(
            campaign_id=campaign.pk,
            by=gm,
            name=spec.name,
            width=spec.width,
            height=spec.height,
            walls=spec.walls,
        )
        made = True
    if not scene.background:
        # Through the same service, and so the same checks, as a GM's upload.
        services.scene_set_background(
            scene_id=scene.pk, by=gm, image=ContentFile(_background(spec.paint), name="map.jpg")
        )
        made = True
    campaign.refresh_from_db()
    if campaign.active_scene_id is None:
        services.scene_activate(scene_id=scene.pk, by=gm)
        made = True
    for figure in demo.figures:
        if not Token.objects.filter(scene=scene, name=figure.name).exists():
            services.token_create(
                scene_id=scene.pk,
                by=gm,
                name=figure.name,
                x=figure.at[0],
                y=figure.at[1],
                color=figure.colour,
                character_id=characters[figure.name].pk,
            )
            made = True
    return made
