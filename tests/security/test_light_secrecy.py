"""Darkness leaks nothing: on a dark fog scene a token no light reaches and
no dark vision sees is in none of a player's live frames, snapshots,
resync pages or REST answers; a light switched off takes what it lit out of
the next ones; a door opened into a dark room shows nothing until a light
reaches in. The truth each step is checked against is worked out here from
the rules' geometry (vtt.rules.sight) and the lights' rows, not from what
the server stored."""

import json
import uuid

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tests import factories
from vtt.live import room_reads
from vtt.live.render import render_event, text_for
from vtt.maps.light_edits import light_place, light_update
from vtt.rules import sight
from vtt.tabletop import policy, services
from vtt.tabletop.events import events_since
from vtt.tabletop.models import Light, Membership, Role, Token
from vtt.tabletop.serialize import table_tokens
from vtt.tabletop.services.scenes import scene_set_door

from .test_fog_secrecy import check_frame

pytestmark = pytest.mark.django_db

SIDE = 12
# A hall (x < 6) and a dark room east of it, through a door at y 5..7.
WALLS = [[6, 0, 6, 5], [6, 5, 6, 7, "door"], [6, 7, 6, SIDE]]
DOOR = 1


def truth_of(scene, tokens, player_id) -> set[int]:
    """The tokens a player's party sees: line of sight, and lit or within
    dark vision (a dim scene: 12 squares), from the rows themselves."""
    centre = {t.pk: (t.x + t.size / 2, t.y + t.size / 2) for t in tokens}
    hidden = {t.pk for t in tokens if t.hidden}
    lights = []
    for light in Light.objects.filter(scene=scene, on=True):
        if light.token_id is None:
            lights.append(sight.Light(light.x, light.y, light.dim, light.shadows))
        elif light.token_id not in hidden:
            lights.append(sight.Light(*centre[light.token_id], light.dim, light.shadows))
    ambient = 12 if scene.lighting == "dim" else 0
    seeing = sight.Sight(
        sight.sight_segments(sight.parse_barriers(scene.walls)),
        scene.width,
        scene.height,
        scene.lit,
        lights,
        ambient,
    )
    eyes = [
        sight.Eye(*centre[t.pk], t.sight_ft / 5)
        for t in tokens
        if player_id in t.controller_ids and not t.hidden
    ]
    visible = [t for t in tokens if not t.hidden]
    flags = seeing.seen(eyes, [centre[t.pk] for t in visible])
    return {t.pk for t, flag in zip(visible, flags, strict=True) if flag}


class Table:
    """A dark fog scene, its GM and one player, and what the player is sent."""

    def __init__(self, lighting="dark"):
        User = get_user_model()
        tag = uuid.uuid4().hex[:8]
        self.gm, self.player = (User.objects.create_user(f"{n}-{tag}") for n in ("gm", "pl"))
        self.campaign = factories.campaign(self.gm, name="Dark", game="artifice")
        Membership.objects.create(campaign=self.campaign, user=self.player, role=Role.PLAYER)
        self.scene = services.scene_create(
            campaign_id=self.campaign.pk,
            by=self.gm,
            name="Cellar",
            width=SIDE,
            height=SIDE,
            walls=WALLS,
        )
        services.scene_activate(scene_id=self.scene.pk, by=self.gm)
        self.names = {}
        self.viewer = policy.viewer_in(self.player.pk, Role.PLAYER, self.campaign.settings)
        self.since = None
        self.truths = {}
        self.lighting = lighting
        self.rest = APIClient()
        self.rest.force_login(self.player)

    def token(self, name, x, y, **kw):
        token = services.token_create(
            scene_id=self.scene.pk,
            by=self.gm,
            name=f"{name}-{uuid.uuid4().hex[:6]}",
            x=x,
            y=y,
            **kw,
        )
        self.names[token.pk] = token.name
        return token

    def darken(self):
        self.since = room_reads.current_seq(self.campaign.pk)
        services.scene_update(scene_id=self.scene.pk, by=self.gm, fog=True, lighting=self.lighting)

    def observe(self, label) -> set[int]:
        """Check every channel against the truth; the tokens seen."""
        scene = self.scene
        scene.refresh_from_db()
        tokens = list(Token.objects.filter(scene=scene).prefetch_related("controllers"))
        seen = truth_of(scene, tokens, self.player.pk)
        where = {t.pk: (t.x, t.y) for t in tokens}
        seq = room_reads.current_seq(self.campaign.pk)
        self.truths[seq] = (seen, where)
        for event in events_since(self.campaign.pk, seq - 1):
            message = render_event(event)
            for version in (1, 2, 3):
                text = text_for(message, Role.PLAYER, self.player.pk, self.viewer.group, version)
                check_frame(json.loads(text), seen, where, self.names, f"{label} live v{version}")
        snapshot = room_reads.snapshot(self.campaign.pk, self.viewer)
        sent = table_tokens(snapshot["tokens"])
        assert {t["id"] for t in sent} == seen, label
        check_frame(sent, seen, where, self.names, f"{label} snapshot")
        check_frame(snapshot["tokens"], seen, where, self.names, f"{label} snapshot table")
        assert set(snapshot["vision"]["tokens"]) == seen, label
        listed = self.rest.get(f"/api/scenes/{scene.pk}/tokens/")
        assert listed.status_code == 200
        check_frame(listed.json(), seen, where, self.names, f"{label} REST")
        assert {t["id"] for t in listed.json()["results"]} == seen, label
        vision = self.rest.get(f"/api/scenes/{scene.pk}/vision/").json()
        assert set(vision["tokens"]) == seen, label
        for token in tokens:
            one = self.rest.get(f"/api/tokens/{token.pk}/")
            assert (one.status_code == 200) == (token.pk in seen), label
        return seen

    def resync(self):
        """A reconnect's pages: each event as the player saw it then."""
        for view in room_reads.views_since(self.campaign.pk, self.since, self.viewer, limit=1000):
            if view["seq"] in self.truths:
                seen, where = self.truths[view["seq"]]
                check_frame(view, seen, where, self.names, f"resync {view['seq']}")


def test_the_torch_bearer_walks_into_the_dark_room_and_sees_the_goblin_only_in_its_light():
    t = Table()
    hero = t.token("Hero", 2, 5, controllers=[t.player.pk])
    goblin = t.token("Goblin", 10, 9)
    torch = light_place(scene_id=t.scene.pk, by=t.gm, token_id=hero.pk, bright=1, dim=2, on=False)
    t.darken()
    assert goblin.pk not in t.observe("dark")
    scene_set_door(scene_id=t.scene.pk, by=t.gm, wall=DOOR, state="open")
    assert goblin.pk not in t.observe("door opened into the dark")
    services.token_move(token_id=hero.pk, by=t.player, x=5, y=5)
    services.token_move(token_id=hero.pk, by=t.player, x=7, y=6)
    assert goblin.pk not in t.observe("in the room, torch unlit")
    services.token_move(token_id=goblin.pk, by=t.gm, x=9, y=8)  # it prowls unseen
    assert goblin.pk not in t.observe("the goblin moves in the dark")
    light_update(light_id=torch.pk, by=t.player, on=True)
    assert goblin.pk not in t.observe("the torch lit, the goblin 2.8 squares off")
    services.token_move(token_id=hero.pk, by=t.player, x=8, y=7)
    assert goblin.pk in t.observe("the torch reaches the goblin")
    light_update(light_id=torch.pk, by=t.player, on=False)
    assert goblin.pk not in t.observe("the torch out")
    services.token_move(token_id=goblin.pk, by=t.gm, x=10, y=10)
    assert goblin.pk not in t.observe("the goblin moves off in the dark")
    t.resync()


def test_a_map_light_switched_off_takes_what_it_lit_out_of_the_next_frames():
    t = Table()
    t.token("Hero", 2, 5, controllers=[t.player.pk])
    rat = t.token("Rat", 3, 9)
    lamp = light_place(scene_id=t.scene.pk, by=t.gm, x=3.5, y=8.5, bright=1, dim=2)
    t.darken()
    assert rat.pk in t.observe("the lamp lights the rat")
    light_update(light_id=lamp.pk, by=t.gm, on=False)
    assert rat.pk not in t.observe("the lamp out")
    services.token_move(token_id=rat.pk, by=t.gm, x=4, y=10)
    assert rat.pk not in t.observe("the rat moves in the dark")
    services.token_update(token_id=rat.pk, by=t.gm, name=t.names[rat.pk] + "!")
    t.names[rat.pk] += "!"
    assert rat.pk not in t.observe("the rat renamed in the dark")
    t.resync()


squares = st.tuples(st.integers(0, SIDE - 1), st.integers(0, SIDE - 1))
lights = st.lists(st.tuples(squares, st.integers(0, 4), st.booleans(), st.booleans()), max_size=3)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    party=squares,
    dark_vision=st.sampled_from([0, 5, 15]),
    others=st.lists(squares, min_size=1, max_size=3),
    placed=lights,
    lighting=st.sampled_from(["dark", "dim"]),
    plan=st.lists(
        st.one_of(
            st.tuples(st.just("move"), st.integers(0, 3), squares),
            st.tuples(st.just("switch"), st.integers(0, 2)),
            st.tuples(st.just("door"), st.sampled_from(["open", "closed"])),
        ),
        max_size=5,
    ),
)
def test_a_player_never_receives_a_token_in_the_dark(
    db, party, dark_vision, others, placed, lighting, plan
):
    t = Table(lighting)
    made = [t.token("Hero", *party, controllers=[t.player.pk], sight_ft=dark_vision)]
    made += [t.token(f"Foe{i}", *square) for i, square in enumerate(others)]
    made_lights = [
        light_place(
            scene_id=t.scene.pk,
            by=t.gm,
            x=x + 0.5,
            y=y + 0.5,
            bright=reach / 2,
            dim=reach,
            shadows=shadows,
            on=on,
        )
        for (x, y), reach, shadows, on in placed
    ]
    t.darken()
    t.observe("dark")
    for i, step in enumerate(plan):
        if step[0] == "move":
            token = made[step[1] % len(made)]
            services.token_move(token_id=token.pk, by=t.gm, x=step[2][0], y=step[2][1])
        elif step[0] == "switch" and made_lights:
            light = Light.objects.get(pk=made_lights[step[1] % len(made_lights)].pk)
            light_update(light_id=light.pk, by=t.gm, on=not light.on)
        elif step[0] == "door":
            scene_set_door(scene_id=t.scene.pk, by=t.gm, wall=DOOR, state=step[1])
        t.observe(f"step {i}")
    t.resync()
