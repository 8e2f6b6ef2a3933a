"""The lit areas a player is sent tell nothing of a light it cannot see:
each sight group's vision frame (live, snapshot, REST) carries only the
lit shapes cut to that group's view, with their colour and no light's
place; a light beyond a closed door, or switched off, is in none of them.
The GM's scene read carries every light's whole area."""

import json

import pytest
import shapely
from rest_framework.test import APIClient

from vtt.live import room_reads
from vtt.live.render import render_event
from vtt.maps.light_edits import light_place, light_update
from vtt.rules import sight
from vtt.tabletop.events import events_since
from vtt.tabletop.services.scenes import scene_set_door

from .test_light_secrecy import DOOR, Table

pytestmark = pytest.mark.django_db

KEYS = {"color", "bright", "dim"}


def frames(t: Table, since: int) -> list[dict]:
    """Every vision the player was sent since `since`, and what it reads now."""
    out = []
    for event in events_since(t.campaign.pk, since):
        message = render_event(event)
        sent = message.get("vision", {}).get(t.viewer.group)
        if sent is not None:
            out.append(json.loads(sent))
    out.append(room_reads.snapshot(t.campaign.pk, t.viewer)["vision"])
    out.append(t.rest.get(f"/api/scenes/{t.scene.pk}/vision/").json())
    return out


def inside(area_path: str, view_path: str) -> bool:
    """An area lies within a view (to the paths' rounding)."""
    area, view = sight.from_path(area_path), sight.from_path(view_path)
    return shapely.difference(area, view.buffer(0.05)).area < 1e-6


def check_lit(vision: dict) -> None:
    for lit in vision["lit"]:
        assert set(lit) == KEYS, lit  # never where the light stands
        assert inside(lit["dim"], vision["view"]) and inside(lit["bright"], vision["view"])


def test_a_light_behind_a_closed_door_reaches_no_players_frame_until_seen():
    t = Table()
    t.token("Hero", 2, 5, controllers=[t.player.pk], light_ft=10)
    lamp = light_place(scene_id=t.scene.pk, by=t.gm, x=9.5, y=6.5, bright=2, dim=4, color="#3366ff")
    t.darken()
    since = room_reads.current_seq(t.campaign.pk) - 1
    seen = frames(t, since)
    assert seen and all(v["lit"] for v in seen)  # the hero's own torch
    for vision in seen:
        check_lit(vision)
        assert "#3366ff" not in json.dumps(vision)  # the lamp's room is unseen
    # The door opens: what the lamp lights in the hero's view now reaches
    # the player, cut to that view.
    since = room_reads.current_seq(t.campaign.pk)
    scene_set_door(scene_id=t.scene.pk, by=t.gm, wall=DOOR, state="open")
    now = frames(t, since)
    for vision in now:
        check_lit(vision)
    blue = [lit for lit in now[-1]["lit"] if lit["color"] == "#3366ff"]
    assert blue, "the lit room is seen through the open door"
    whole = sight.from_path(
        next(
            lit["dim"]
            for lit in room_reads.snapshot(t.campaign.pk, t.viewer)["vision"]["lit"]
            if lit["color"] == "#3366ff"
        )
    )
    assert whole.area < 3.14159 * 16  # never the whole disc: the door cuts it
    # Switched off: gone from the next frames.
    since = room_reads.current_seq(t.campaign.pk)
    light_update(light_id=lamp.pk, by=t.gm, on=False)
    for vision in frames(t, since):
        check_lit(vision)
        assert all(lit["color"] != "#3366ff" for lit in vision["lit"])


def test_the_gm_reads_every_lights_whole_area_and_the_player_none():
    t = Table()
    t.token("Hero", 2, 5, controllers=[t.player.pk])
    light_place(scene_id=t.scene.pk, by=t.gm, x=7.5, y=6.5, bright=2, dim=4, shadows=False)
    t.darken()
    gm = APIClient()
    gm.force_login(t.gm)
    [lit] = gm.get(f"/api/scenes/{t.scene.pk}/").json()["lit_areas"]
    assert lit["color"] == "#ffffff"
    assert sight.from_path(lit["dim"]).area == pytest.approx(3.14159 * 16, rel=0.05)
    assert sight.from_path(lit["bright"]).area == pytest.approx(3.14159 * 4, rel=0.05)
    player = t.rest.get(f"/api/scenes/{t.scene.pk}/").json()
    assert "lit_areas" not in player and "lights" not in player
    # It shines through the wall (no shadows): the player gets only the
    # part in the hall the hero sees.
    seen = room_reads.snapshot(t.campaign.pk, t.viewer)["vision"]
    check_lit(seen)
    [part] = seen["lit"]
    assert 0 < sight.from_path(part["dim"]).area < sight.from_path(lit["dim"]).area / 2
