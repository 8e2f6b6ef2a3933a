"""Stale state plus the events equals fresh state, for every event kind.

For each kind declared in vtt.tabletop.event_kinds: read the room as a
snapshot gives it to the GM and to a player, do something that appends
that kind, render every new event over the broadcast path (render_event,
then the frame text picked for that member), apply the frames with the
browser's own static/js/room/state.js in Chromium, and compare with a
fresh snapshot. A kind that is declared but not covered here fails."""

import json
import shutil
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.combat.battle import apocalyptia_battle, attack
from tests.conftest import need
from tests.tabletop.images import image_bytes, upload
from vtt import dice
from vtt.areas import services as areas
from vtt.areas.models import AreaTemplate
from vtt.combat.services.attacks import attack_apply_damage, attack_decline, weapon_repair
from vtt.combat.services.encounters import (
    encounter_end,
    encounter_next,
    encounter_roll_initiative,
    encounter_set_initiative,
    encounter_start,
)
from vtt.combat.services.reveal import event_reveal
from vtt.combat.services.trails import trails_clear
from vtt.combat.services.undo import undo_last
from vtt.drawings import services as drawings
from vtt.fog.services import fog_edit
from vtt.handouts import services as handouts
from vtt.live import intents, room_reads
from vtt.live.render import render_event, text_for
from vtt.maps import light_edits
from vtt.markers import services as markers
from vtt.tabletop import event_kinds, services
from vtt.tabletop.events import events_since
from vtt.tabletop.models import Marker, Role
from vtt.tabletop.serialize import table_tokens
from vtt.tabletop.services.scenes import scene_set_door
from vtt.tabletop.visibility import Viewer

pytestmark = [pytest.mark.django_db, pytest.mark.browser]

STATE_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "room" / "state.js"
ROLL = {"system": "apocalyptia", "action": "roll", "bonus": 1, "difficulty": 3, "kind": "skill"}
LURKER = "Lurker in the dark"  # the hidden token's name: never a player's


def world():
    battle = apocalyptia_battle()
    gm = battle.users["gm"]
    battle.lurker = services.token_create(
        scene_id=battle.scene.pk, by=gm, name=LURKER, x=20, y=20, hidden=True
    )
    battle.spare = services.scene_create(
        campaign_id=battle.campaign.pk, by=gm, name="Burial chamber", width=10, height=10
    )
    return battle


def _attack(b, faces, by="player"):
    return attack(b, by=by, weapon="Machete", faces=faces)


def _encounter(b):
    return encounter_start(scene_id=b.scene.pk, by=b.users["gm"])


def _hidden_roll(b):
    return dice.roll_adjudicate(
        campaign_id=b.campaign.pk, by=b.users["gm"], request=ROLL, visibility="gm"
    )


def _reveal(b):
    _hidden_roll(b)
    seq = room_reads.current_seq(b.campaign.pk)
    event_reveal(campaign_id=b.campaign.pk, by=b.users["gm"], seq=seq)


def _chat(b):
    asker = intents.Asker(user=b.users["player"], room=b.campaign.pk)
    intents.chat(asker, {"text": "Roll <initiative>"})


def _whisper(b):
    """One the player holds (to the GM) and one the player never sees."""
    for by, to in (("player", "gm"), ("gm", "other")):
        asker = intents.Asker(user=b.users[by], room=b.campaign.pk)
        intents.chat(asker, {"text": f"/w {b.users[to].username} Only <you> know"})


def _handout(b):
    """One the player is handed (and the GM holds), one the player never sees."""
    gm = b.users["gm"]
    for to in ("player", "other"):
        made = handouts.handout_create(
            campaign_id=b.campaign.pk, by=gm, title=f"For <{to}>", text="*Only* you"
        )
        handouts.handout_share(handout_id=made.pk, by=gm, members=[b.users[to].pk])


def _markers(b):
    """A condition on Tenrec, the GM's secret marker on Tenrec, and a
    marker on the hidden lurker: a player holds the first only."""
    gm, cid = b.users["gm"], b.campaign.pk
    tenrec = b.tokens["tenrec"].pk
    markers.marker_add(campaign_id=cid, token_id=tenrec, by=gm, condition_id="prone")
    markers.marker_add(
        campaign_id=cid, token_id=tenrec, by=gm, icon="eye", label="Doomed", gm_only=True
    )
    markers.marker_add(campaign_id=cid, token_id=b.lurker.pk, by=gm, condition_id="stunned")


def _markers_removed(b):
    _markers(b)
    for marker in Marker.objects.filter(token__scene__campaign_id=b.campaign.pk):
        if marker.condition != "prone":
            markers.marker_remove(marker_id=marker.pk, by=b.users["gm"])


def _marked(b, token_id: int, words: str) -> None:
    """A condition, and the GM's secret marker: the token brings the first
    to a player, both to the GM, wherever it comes into their sight."""
    gm, cid = b.users["gm"], b.campaign.pk
    markers.marker_add(campaign_id=cid, token_id=token_id, by=gm, condition_id="prone")
    markers.marker_add(
        campaign_id=cid, token_id=token_id, by=gm, icon="skull", label=words, gm_only=True
    )


def _new_map(b):
    statue = services.token_create(scene_id=b.spare.pk, by=b.users["gm"], name="Statue")
    _marked(b, statue.pk, "Watches")
    services.scene_activate(scene_id=b.spare.pk, by=b.users["gm"])


def _revealed(b):
    _marked(b, b.lurker.pk, "Waits")
    services.token_set_hidden(token_id=b.lurker.pk, by=b.users["gm"], hidden=False)


def _templates(b):
    """A cone the player places, the GM's secret burst, and a square on a
    scene the room is not on: a player holds the cone only."""
    gm, player = b.users["gm"], b.users["player"]
    areas.template_place(scene_id=b.scene.pk, by=player, shape="cone", x=4, y=4, size=3, angle=45)
    areas.template_place(scene_id=b.scene.pk, by=gm, shape="circle", x=9, y=9, size=2, gm_only=True)
    areas.template_place(scene_id=b.spare.pk, by=gm, shape="square", x=1, y=1, size=2)


def _templates_removed(b):
    _templates(b)
    for template in AreaTemplate.objects.filter(scene__campaign_id=b.campaign.pk):
        if template.shape != "cone":
            areas.template_remove(template_id=template.pk, by=b.users["gm"])


def _picture():
    return upload(image_bytes(40, 30))


def _new_member(b):
    user = get_user_model().objects.create_user("apocalyptia-newcomer")
    services.membership_add(campaign_id=b.campaign.pk, by=b.users["gm"], user_id=user.pk)


def _fog(b):
    """Fog of war comes down: a ghoul goes out of view, walks unseen, comes
    back through a door; the zombie walks out of view; the GM reveals a
    corner of the map."""
    gm = b.users["gm"]
    ghoul = services.token_create(scene_id=b.scene.pk, by=gm, name="Ghoul", x=14, y=4)
    walls = [[10, 0, 10, 4], [10, 4, 10, 6, "door"], [10, 6, 10, 10]]
    services.scene_update(scene_id=b.scene.pk, by=gm, walls=walls, fog=True)
    services.token_move(token_id=ghoul.pk, by=gm, x=15, y=5)
    scene_set_door(scene_id=b.scene.pk, by=gm, wall=1, state="open")
    services.token_move(token_id=b.tokens["zombie"].pk, by=gm, x=16, y=1)
    fog_edit(scene_id=b.scene.pk, by=gm, action="reveal", rect=[20, 20, 3, 3])


def _lights(b):
    """A dark map: the GM sets a lamp down, dims it, gives Tenrec a torch
    and takes the lamp away; fog comes down meanwhile, when light events
    turn the GM's alone."""
    gm = b.users["gm"]
    services.scene_update(scene_id=b.scene.pk, by=gm, lighting="dark")
    lamp = light_edits.light_place(scene_id=b.scene.pk, by=gm, x=2.5, y=2.5, bright=2, dim=4)
    light_edits.light_update(light_id=lamp.pk, by=gm, dim=6)
    light_edits.light_place(
        scene_id=b.scene.pk, by=gm, token_id=b.tokens["tenrec"].pk, bright=1, dim=3
    )
    services.scene_update(scene_id=b.scene.pk, by=gm, fog=True)
    light_edits.light_remove(light_id=lamp.pk, by=gm)


def _drawings(b):
    """The player's line and the GM's GM-layer note on the room's map, and
    one on another map: a player holds the line only."""
    line = drawings.drawing_add(
        scene_id=b.scene.pk,
        by=b.users["player"],
        shape="line",
        color="#e53935",
        width=3,
        points=[[1, 1], [4, 2.5]],
        stroke="k-1",
    )
    note = drawings.drawing_add(
        scene_id=b.scene.pk,
        by=b.users["gm"],
        shape="text",
        color="#ffffff",
        width=2,
        points=[[2, 2]],
        text="Trap <here>",
        layer="gm",
    )
    drawings.drawing_add(
        scene_id=b.spare.pk,
        by=b.users["gm"],
        shape="rect",
        color="#1e88e5",
        width=2,
        points=[[1, 1], [3, 3]],
    )
    return line, note


def _drawings_moved(b):
    line, note = _drawings(b)
    drawings.drawing_move(drawing_id=line.pk, by=b.users["player"], dx=1, dy=0.5)
    drawings.drawing_move(drawing_id=note.pk, by=b.users["gm"], dx=-1, dy=0)


def _drawings_removed(b):
    line, note = _drawings(b)
    drawings.drawing_remove(drawing_id=line.pk, by=b.users["player"])
    drawings.drawing_remove(drawing_id=note.pk, by=b.users["gm"])


def _drawings_cleared(b):
    _drawings(b)
    drawings.drawing_clear(scene_id=b.scene.pk, by=b.users["gm"], layer="all")


# Each action, before which the stale snapshots are read, and the kinds it
# appends: every declared kind must be one's.
SCENARIOS = {
    "roll": lambda b: (
        dice.roll_adjudicate(campaign_id=b.campaign.pk, by=b.users["player"], request=ROLL),
        _hidden_roll(b),
    ),
    "chat": _chat,
    "whisper": _whisper,
    "handout.shared": _handout,
    "campaign.updated": lambda b: services.campaign_update(
        campaign_id=b.campaign.pk, by=b.users["gm"], name="The Tomb, lower level"
    ),
    "member.joined": _new_member,
    "member.updated": lambda b: services.membership_set_role(
        campaign_id=b.campaign.pk, by=b.users["gm"], user_id=b.users["observer"].pk, role="player"
    ),
    "member.removed": lambda b: services.membership_remove(
        campaign_id=b.campaign.pk, by=b.users["gm"], user_id=b.users["other"].pk
    ),
    "character.created": lambda b: (
        services.character_create(campaign_id=b.campaign.pk, by=b.users["player"], name="Ash"),
        services.character_create(
            campaign_id=b.campaign.pk, by=b.users["gm"], name="Ghoul", kind="npc"
        ),
    ),
    "character.updated": lambda b: services.character_update(
        character_id=b.characters["tenrec"].pk, by=b.users["player"], name="Tenrec the Bold"
    ),
    "character.removed": lambda b: services.character_update(
        character_id=b.characters["kobor"].pk, by=b.users["gm"], kind="npc"
    ),
    # A PC's: an NPC's deletion is the GM's news, and players keep its id on
    # the token (docs/protocol.md, "What the browser holds").
    # With a portrait: its token shows none once it is gone.
    "character.deleted": lambda b: (
        services.character_set_portrait(
            character_id=b.characters["kobor"].pk, by=b.users["gm"], image=_picture()
        ),
        services.character_delete(character_id=b.characters["kobor"].pk, by=b.users["gm"]),
    ),
    "scene.created": lambda b: services.scene_create(
        campaign_id=b.campaign.pk, by=b.users["gm"], name="Ossuary"
    ),
    "scene.updated": lambda b: (
        services.scene_update(scene_id=b.scene.pk, by=b.users["gm"], name="Tomb gate"),
        services.scene_update(scene_id=b.spare.pk, by=b.users["gm"], name="Deeper chamber"),
    ),
    "scene.deleted": lambda b: services.scene_delete(scene_id=b.spare.pk, by=b.users["gm"]),
    "scene.activated": _new_map,
    "token.created": lambda b: (
        services.token_create(scene_id=b.scene.pk, by=b.users["gm"], name="Rat", x=1, y=9),
        services.token_create(
            scene_id=b.scene.pk, by=b.users["gm"], name=LURKER + " II", hidden=True
        ),
        services.token_create(scene_id=b.spare.pk, by=b.users["gm"], name="Elsewhere"),
    ),
    "token.moved": lambda b: (
        services.token_move(token_id=b.tokens["tenrec"].pk, by=b.users["player"], x=6, y=4),
        services.token_move(token_id=b.lurker.pk, by=b.users["gm"], x=19, y=19),
    ),
    # Pictures too: a token's own art, and a portrait its token shows.
    "token.updated": lambda b: (
        services.token_update(token_id=b.tokens["zombie"].pk, by=b.users["gm"], color="#aa0000"),
        services.token_update(token_id=b.lurker.pk, by=b.users["gm"], size=2),
        services.token_set_art(token_id=b.lurker.pk, by=b.users["gm"], image=_picture()),
        services.token_set_art(token_id=b.tokens["zombie"].pk, by=b.users["gm"], image=_picture()),
        services.character_set_portrait(
            character_id=b.characters["tenrec"].pk, by=b.users["player"], image=_picture()
        ),
    ),
    "token.hidden": lambda b: services.token_set_hidden(
        token_id=b.tokens["zombie"].pk, by=b.users["gm"], hidden=True
    ),
    "token.revealed": _revealed,
    "token.deleted": lambda b: (
        services.token_delete(token_id=b.tokens["kobor"].pk, by=b.users["gm"]),
        services.token_delete(token_id=b.lurker.pk, by=b.users["gm"]),
    ),
    "encounter.started": _encounter,
    "encounter.initiative": lambda b: encounter_roll_initiative(
        encounter_id=_encounter(b).pk, by=b.users["gm"]
    ),
    "encounter.updated": lambda b: encounter_set_initiative(
        encounter_id=(e := _encounter(b)).pk,
        by=b.users["gm"],
        combatant_id=e.combatants.get(token=b.lurker).pk,
        initiative=12,
    ),
    "encounter.turn": lambda b: encounter_next(encounter_id=_encounter(b).pk, by=b.users["gm"]),
    "encounter.ended": lambda b: encounter_end(encounter_id=_encounter(b).pk, by=b.users["gm"]),
    "combat.attack": lambda b: _attack(b, [4, 2]),
    "combat.damage": lambda b: attack_apply_damage(
        attack_id=_attack(b, [4, 2]).pk, by=b.users["gm"]
    ),
    "combat.declined": lambda b: attack_decline(attack_id=_attack(b, [4, 2]).pk, by=b.users["gm"]),
    "combat.weapon_repaired": lambda b: weapon_repair(
        character_id=_attack(b, [1, 1, 5]).attacker_id, by=b.users["gm"], weapon="Machete"
    ),
    "undo": lambda b: (
        _attack(b, [4, 2]),
        undo_last(campaign_id=b.campaign.pk, by=b.users["gm"]),
    ),
    "reveal": _reveal,
    # The battle's table has a session open: end it, start the next.
    "session.ended": lambda b: dice.session_end(campaign_id=b.campaign.pk, by=b.users["gm"]),
    "session.started": lambda b: (
        dice.session_end(campaign_id=b.campaign.pk, by=b.users["gm"]),
        dice.session_start(campaign_id=b.campaign.pk, by=b.users["gm"]),
    ),
    "fog.changed": _fog,
    "light.changed": _lights,
    # Their stale state holds none: the markers of the snapshot come after.
    "marker.added": _markers,
    "marker.removed": _markers_removed,
    "template.placed": _templates,
    "template.removed": _templates_removed,
    # A player holds the shared ones of the room's map only.
    "drawing.added": _drawings,
    "drawing.moved": _drawings_moved,
    "drawing.removed": _drawings_removed,
    "drawing.cleared": _drawings_cleared,
    "trails.cleared": lambda b: (
        services.token_move(token_id=b.tokens["tenrec"].pk, by=b.users["player"], x=5, y=4),
        trails_clear(scene_id=b.scene.pk, by=b.users["gm"]),
    ),
}


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture(scope="module")
def state_js():
    """Runs static/js/room/state.js in Chromium: (stale snapshot, frames) -> state."""
    path = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if path is None:
        need("Chromium", "REQUIRE_BROWSER", f"{CHROMIUM} is missing")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need("Playwright", "REQUIRE_BROWSER", "the playwright package is not installed")
    source = STATE_JS.read_text()
    # Playwright's sync API runs its own loop: Django must allow sync calls
    # beside it, for this module only (a deploy check run later refuses it).
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as p:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        page = browser.new_page()

        def apply(stale: dict, events: list[dict]) -> dict:
            return page.evaluate(
                """async ([source, stale, events]) => {
                  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
                  const { applyEvent, fromSnapshot } = await import(url);
                  const state = fromSnapshot(stale);
                  for (const event of events) applyEvent(state, event);
                  return state;
                }""",
                [source, stale, events],
            )

        yield apply
        browser.close()


def snapshot(battle, viewer: Viewer) -> dict:
    return json.loads(json.dumps(room_reads.snapshot(battle.campaign.pk, viewer)))


def held(state: dict) -> dict:
    """What a snapshot and a client's state both hold, in one form."""
    tokens = state["tokens"]
    # A client's are by id, their markers kept beside them; a snapshot's a
    # table (serialize.token_table) whose tokens carry their markers.
    if "rows" in tokens:
        tokens = table_tokens(tokens)
        markers = [m for token in tokens for m in token["markers"]]
        tokens = [{k: v for k, v in token.items() if k != "markers"} for token in tokens]
    else:
        tokens, markers = tokens.values(), state["markers"].values()
    return {
        "seq": state["seq"],
        "campaign": state["campaign"],
        "scene": state["scene"],
        "tokens": sorted(tokens, key=lambda t: t["id"]),
        "markers": sorted(markers, key=lambda m: m["id"]),
        "templates": sorted(
            state.get("templates").values()
            if isinstance(state.get("templates"), dict)
            else state.get("templates") or [],
            key=lambda t: t["id"],
        ),
        # A snapshot's log keeps a scene change's scene only (its tokens are
        # older than the snapshot's): so does this comparison.
        "log": [room_reads.in_snapshot(view) for view in state["log"][-room_reads.LOG_TAIL :]],
    }


def received(battle, since: int, viewer: Viewer) -> list[dict]:
    """The events after `since` as this member's socket is handed them."""
    frames = []
    for event in events_since(battle.campaign.pk, since):
        text = text_for(render_event(event), viewer.role, viewer.user_id, viewer.group)
        frames.append(json.loads(text)["event"])
    return frames


def test_every_declared_kind_has_a_scenario():
    assert set(SCENARIOS) == set(event_kinds.KINDS)


@pytest.mark.parametrize("kind", sorted(SCENARIOS))
def test_stale_state_plus_events_is_a_fresh_snapshot(kind, state_js):
    battle = world()
    viewers = {
        "gm": Viewer(battle.users["gm"].pk, Role.GM),
        "player": Viewer(battle.users["player"].pk, Role.PLAYER),
    }
    stale = {name: snapshot(battle, viewer) for name, viewer in viewers.items()}
    since = stale["gm"]["seq"]
    SCENARIOS[kind](battle)
    appended = [e.kind for e in events_since(battle.campaign.pk, since)]
    assert kind in appended, f"the {kind} scenario appended only {appended}"
    for name, viewer in viewers.items():
        frames = received(battle, since, viewer)
        state = state_js(stale[name], frames)
        fresh = snapshot(battle, viewer)
        assert held(state) == held(fresh), f"{kind} as the {name} applies it"
        if name == "player" and kind != event_kinds.TOKEN_REVEALED:
            assert LURKER not in json.dumps(frames) + json.dumps(state)
