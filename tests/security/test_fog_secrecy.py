"""Fog of war leaks nothing: for generated scenes, moves and turns of a
fight, no frame, REST answer or snapshot a player receives holds the name or
the square of a token outside the party's view (nor its place in the turn
order), live, in resync pages, after a reconnect, and a GM's preview
reaches the GM alone.

The truth each step is checked against is computed here, from the rules'
geometry alone (vtt.rules.sight), not from what the server stored."""

import json
import uuid

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests import factories
from vtt.combat import selectors as combat_reads
from vtt.combat.services import encounters
from vtt.live import room_reads
from vtt.live.render import render_event, text_for
from vtt.rules import sight
from vtt.tabletop import policy, selectors, services
from vtt.tabletop.events import events_since
from vtt.tabletop.models import Membership, Role, Token
from vtt.tabletop.serialize import table_tokens
from vtt.tabletop.services.scenes import scene_set_door

pytestmark = pytest.mark.django_db

SIDE = 12

coords = st.integers(0, SIDE - 1)
squares = st.tuples(coords, coords)
# Walls along grid lines, so they part squares as a GM's walls do.
walls = st.lists(
    st.one_of(
        st.tuples(st.integers(1, SIDE - 1), coords, st.integers(1, 4)).map(
            lambda w: [w[0], w[1], w[0], min(SIDE, w[1] + w[2])]
        ),
        st.tuples(coords, st.integers(1, SIDE - 1), st.integers(1, 4)).map(
            lambda w: [w[0], w[1], min(SIDE, w[0] + w[2]), w[1]]
        ),
    ).flatmap(
        lambda seg: st.sampled_from([seg, [*seg, "door"], [*seg, "door", "open"], [*seg, "window"]])
    ),
    max_size=8,
)
steps = st.lists(
    st.one_of(
        st.tuples(st.just("move"), st.integers(0, 5), squares),
        st.tuples(st.just("door"), st.integers(0, 7), st.sampled_from(["open", "closed"])),
        st.tuples(st.just("turn")),
    ),
    min_size=1,
    max_size=6,
)


def party_sees(scene, tokens) -> set[int]:
    """The truth: the tokens whose centre some player token sees."""
    barriers = sight.parse_barriers(scene.walls)
    lights = [
        sight.Light(t.x + t.size / 2, t.y + t.size / 2, t.light_ft / 5)
        for t in tokens
        if t.light_ft and not t.hidden
    ]
    seeing = sight.Sight(
        sight.sight_segments(barriers), scene.width, scene.height, scene.lit, lights
    )
    eyes = [
        sight.Eye(t.x + t.size / 2, t.y + t.size / 2, t.sight_ft / 5)
        for t in tokens
        if t.party and not t.hidden
    ]
    visible = [t for t in tokens if not t.hidden]
    flags = seeing.seen(eyes, [(t.x + t.size / 2, t.y + t.size / 2) for t in visible])
    return {t.pk for t, flag in zip(visible, flags, strict=True) if flag}


def tokens_in(frame) -> list[dict]:
    """Every token object anywhere in a frame (a move's carries no name)."""
    found = []

    def walk(value):
        if isinstance(value, dict):
            if {"id", "x", "y"} <= set(value):
                found.append(value)
            if {"fields", "defaults", "rows"} <= set(value):  # a table of tokens
                found.extend(table_tokens(value))
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(frame)
    return found


def fighters_in(frame) -> list[dict]:
    """Every combatant and initiative roll anywhere in a frame."""
    found = []

    def walk(value):
        if isinstance(value, dict):
            if {"token_id", "name", "initiative"} <= set(value):
                found.append(value)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(frame)
    return found


def check_frame(frame, seen: set[int], truth: dict, names: dict, step: str):
    for fighter in fighters_in(frame):
        assert fighter["token_id"] in seen, f"{step}: combatant {fighter['name']} out of view"
    for token in tokens_in(frame):
        assert token["id"] in seen, f"{step}: token {token['id']} out of view was sent"
        assert (token["x"], token["y"]) == truth[token["id"]], step
    raw = json.dumps(frame)
    for token_id, name in names.items():
        if token_id not in seen:
            assert name not in raw, f"{step}: the name of unseen token {token_id} was sent"


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    wall_list=walls,
    party=st.lists(squares, min_size=1, max_size=2),
    others=st.lists(st.tuples(squares, st.booleans()), min_size=1, max_size=4),
    lit=st.booleans(),
    plan=steps,
)
# Always tried: a foe behind a wall across the map fights unseen, then walks
# round it into view; the next turn order names it.
@example(
    wall_list=[[6, 0, 6, SIDE]],
    party=[(1, 1)],
    others=[((9, 9), False)],
    lit=True,
    plan=[("turn",), ("move", 1, (2, 2)), ("turn",)],
)
def test_a_player_never_receives_a_token_out_of_the_partys_view(
    db, wall_list, party, others, lit, plan
):
    User = get_user_model()
    tag = uuid.uuid4().hex[:8]
    gm, player = (User.objects.create_user(f"{n}-{tag}") for n in ("gm", "player"))
    campaign = factories.campaign(gm, name="Fog", game="artifice")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    scene = services.scene_create(
        campaign_id=campaign.pk, by=gm, name="Maze", width=SIDE, height=SIDE, walls=wall_list
    )
    services.scene_activate(scene_id=scene.pk, by=gm)
    elsewhere = services.scene_create(campaign_id=campaign.pk, by=gm, name="Elsewhere")
    made = []
    for i, (x, y) in enumerate(party):
        made.append(
            services.token_create(
                scene_id=scene.pk,
                by=gm,
                name=f"Hero{i}-{tag}",
                x=x,
                y=y,
                sight_ft=15,
                controllers=[player.pk],
            )
        )
    for i, ((x, y), hidden) in enumerate(others):
        made.append(
            services.token_create(
                scene_id=scene.pk,
                by=gm,
                name=f"Foe{i}-{tag}",
                x=x,
                y=y,
                hidden=hidden,
                light_ft=5 if i == 0 else 0,
            )
        )
    names = {t.pk: t.name for t in made}
    since = room_reads.current_seq(campaign.pk)
    services.scene_update(scene_id=scene.pk, by=gm, fog=True, lit=lit)
    doors = [i for i, w in enumerate(scene.walls) if len(w) > 4 and w[4] == "door"]
    player_viewer = policy.viewer_in(player.pk, Role.PLAYER, campaign.settings)
    gm_viewer = policy.viewer_in(gm.pk, Role.GM, campaign.settings)
    truths = {}

    def observe(label):
        scene.refresh_from_db()
        tokens = list(Token.objects.filter(scene=scene).prefetch_related("controllers"))
        for t in tokens:
            t.party = player.pk in t.controller_ids
        seen = party_sees(scene, tokens)
        truth = {t.pk: (t.x, t.y) for t in tokens}
        seq = room_reads.current_seq(campaign.pk)
        truths[seq] = (seen, truth)
        # The live frame of the newest event, as the player's socket gets it.
        for event in events_since(campaign.pk, seq - 1):
            message = render_event(event)
            for version in (1, 2, 3):  # a scene change's tokens: a table from 3
                text = text_for(message, Role.PLAYER, player.pk, player_viewer.group, version)
                check_frame(json.loads(text), seen, truth, names, f"{label} live v{version}")
        # A fresh connection's snapshot and the REST list: exactly the view.
        snapshot = room_reads.snapshot(campaign.pk, player_viewer)
        sent = table_tokens(snapshot["tokens"])  # the table, decoded
        assert {t["id"] for t in sent} == seen, label
        assert [t["id"] for t in sent] == [t["id"] for t in snapshot["metas"]], label
        check_frame(sent, seen, truth, names, f"{label} snapshot")
        check_frame(snapshot["tokens"], seen, truth, names, f"{label} snapshot table")
        assert {t.pk for t in selectors.tokens_for(player_viewer, scene.pk)} == seen, label
        # The GM's preview of the party is the GM's: a player's snapshot
        # never carries it, the GM's does when asked.
        preview = room_reads.snapshot(campaign.pk, gm_viewer, preview="party")
        assert set(preview["vision"]["tokens"]) == seen, label
        # The turn order as the player's page reads it: the seen combatants.
        fight = combat_reads.scene_encounter(scene_id=scene.pk, by=player)
        if fight is not None:
            assert {c["token_id"] for c in fight["order"]} == seen, label
            check_frame(fight, seen, truth, names, f"{label} encounter")

    observe("fog on")
    # Everyone on the map fights, in the order of their (rolled) initiative.
    fight = encounters.encounter_start(scene_id=scene.pk, by=gm)
    observe("encounter started")
    encounters.encounter_roll_initiative(encounter_id=fight.pk, by=gm)
    observe("initiative")
    for i, step in enumerate(plan):
        if step[0] == "move":
            _, which, (x, y) = step
            token = made[which % len(made)]
            services.token_move(token_id=token.pk, by=gm, x=x, y=y)
        elif step[0] == "turn":
            encounters.encounter_next(encounter_id=fight.pk, by=gm)
        elif doors:
            _, which, state = step
            scene_set_door(scene_id=scene.pk, by=gm, wall=doors[which % len(doors)], state=state)
        observe(f"step {i}")
    # The room leaves the scene and comes back: the scene change carries
    # only what the party sees of it.
    services.scene_activate(scene_id=elsewhere.pk, by=gm)
    services.scene_activate(scene_id=scene.pk, by=gm)
    observe("scene change")

    # A reconnect reads the same pages: each event as it was seen then.
    for view in room_reads.views_since(campaign.pk, since, player_viewer, limit=1000):
        if view["seq"] in truths:
            seen, truth = truths[view["seq"]]
            check_frame(view, seen, truth, names, f"resync {view['seq']}")


def test_a_token_walking_into_view_by_its_own_move_arrives_whole(db):
    """A move carries only where its token went: a foe the party did not see
    that walks into view comes whole in the player's sight change (name,
    size, colour: all a page draws), live and in resync pages; a foe
    walking about out of view leaves nothing in the player's frames."""
    User = get_user_model()
    gm, player = (User.objects.create_user(f"{n}-walk") for n in ("gm", "player"))
    campaign = factories.campaign(gm, name="Fog", game="artifice")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    scene = services.scene_create(
        campaign_id=campaign.pk,
        by=gm,
        name="Hall",
        width=SIDE,
        height=SIDE,
        walls=[[6, 0, 6, SIDE]],
    )
    services.scene_activate(scene_id=scene.pk, by=gm)
    services.token_create(
        scene_id=scene.pk, by=gm, name="Hero", x=1, y=1, sight_ft=15, controllers=[player.pk]
    )
    walker = services.token_create(
        scene_id=scene.pk, by=gm, name="Walker", x=9, y=9, size=2, color="#123456"
    )
    lurker = services.token_create(scene_id=scene.pk, by=gm, name="Lurker", x=10, y=2)
    services.scene_update(scene_id=scene.pk, by=gm, fog=True)
    viewer = policy.viewer_in(player.pk, Role.PLAYER, campaign.settings)
    since = room_reads.current_seq(campaign.pk)

    def player_frame():
        event = events_since(campaign.pk, room_reads.current_seq(campaign.pk) - 1)[0]
        text = text_for(render_event(event), Role.PLAYER, player.pk, viewer.group)
        return json.loads(text)["event"]

    services.token_move(token_id=lurker.pk, by=gm, x=11, y=3)  # behind the wall still
    hidden_move = player_frame()
    assert hidden_move["type"] == "redacted" and "Lurker" not in json.dumps(hidden_move)
    assert not tokens_in(hidden_move)

    services.token_move(token_id=walker.pk, by=gm, x=2, y=3)  # round the wall, into view
    entered = player_frame()
    assert entered["type"] == "token.moved"
    assert set(entered["data"]["token"]) == {"id", "scene_id", "x", "y", "version", "hidden"}
    whole = {t["id"]: t for t in entered["data"]["sight"]["enter"]}
    walker.refresh_from_db()
    assert whole[walker.pk]["name"] == "Walker" and whole[walker.pk]["size"] == 2
    assert whole[walker.pk]["color"] == "#123456"
    assert (whole[walker.pk]["x"], whole[walker.pk]["y"]) == (2, 3)
    assert whole[walker.pk]["version"] == walker.version
    assert lurker.pk not in whole and "Lurker" not in json.dumps(entered)

    # A reconnect's pages say the same.
    pages = {v["seq"]: v for v in room_reads.views_since(campaign.pk, since, viewer, limit=100)}
    resynced = pages[entered["seq"]]
    assert {t["id"] for t in resynced["data"]["sight"]["enter"]} == {walker.pk}
    assert "Lurker" not in json.dumps(list(pages.values()))
