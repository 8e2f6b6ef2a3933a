"""What a room's snapshot costs the server and the wire, on PostgreSQL,
without any websocket: the frame a fresh connection (or a reconnect too far
behind, or a role change) gets, for the GM and for a player.

    .venv/bin/python bench/snapshot_bench.py                   # 3,000 tokens, 7 runs
    .venv/bin/python bench/snapshot_bench.py --fog --runs 5    # the same scene with fog

The scene is 100 x 100 squares. Its tokens are a table's mix: a tenth are
characters' (a third of those the player's PCs, which the player controls
and which see 60 ft, the rest NPCs; one in six with a portrait), a tenth
are hidden, a thirtieth have their own art, one in eight is large, the rest
are plain tokens of a handful of colours; every name differs. With `--fog`
the scene has 300 walls (bench/ws_fanout.py's `rooms`) and the player's
tokens stand in its corridor, so the player's snapshot holds only what the
party sees.

Server time is the read (vtt.live.room_reads.snapshot) plus the frame's
JSON text, as the consumer sends it; the size is that text's bytes, and
what permessage-deflate would make of it (zlib, raw deflate as RFC 7692
sends, with its CPU time), for the day compression is negotiated: daphne
does not negotiate it (docs/benchmarks.md). Last, a change to that scene:
its event's write and live render, its stored size and the frames each
recipient gets (`--tree`: where a change's time goes). Uses the
`vtt_bench` database that ws_fanout.py creates (DATABASE_URL, or
--database-url, for another)."""

import argparse
import os
import statistics
import sys
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ws_fanout import (  # noqa: E402
    DEFAULT_DATABASE,
    MAP_SIDE,
    build_table,
    django_env,
    prepare_database,
    rooms,
)

COLOURS = ("#888888", "#2266aa", "#aa3322", "#33aa55", "#ddaa22", "#7744aa")


def populate(campaign, scene, player, count: int, fog: bool) -> None:
    """`count` tokens on the scene in the mix the module describes."""
    from vtt.tabletop.models import Character, Token

    characters = Character.objects.bulk_create(
        [
            Character(
                campaign=campaign,
                name=f"{'Hero' if i % 3 == 0 else 'Foe'} {i}",
                kind=Character.Kind.PC if i % 3 == 0 else Character.Kind.NPC,
                owner=player if i % 3 == 0 else None,
                portrait=f"portraits/p{i:04d}abcdef.png" if i % 6 == 0 else None,
                portrait_128=f"portraits/p{i:04d}abcdef_128.png" if i % 6 == 0 else None,
                portrait_256=f"portraits/p{i:04d}abcdef_256.png" if i % 6 == 0 else None,
            )
            for i in range(count // 10)
        ]
    )
    tokens = []
    for i in range(count):
        character = characters[i // 10] if i % 10 == 0 else None
        pc = character is not None and character.kind == Character.Kind.PC
        size = 2 if i % 8 == 7 and not pc else 1
        if fog and pc:  # the party walks the corridor
            x, y = (i // 10) % (MAP_SIDE - 1), (i // 10) % 2
        else:
            x, y = i % (MAP_SIDE - size), 2 + (i * 7) % (MAP_SIDE - 2 - size)
        art = f"tokens/t{i:05d}abcdef" if i % 30 == 15 else None
        tokens.append(
            Token(
                scene=scene,
                character=character,
                name=character.name if character else f"Crowd {i}",
                x=x,
                y=y,
                size=size,
                hidden=i % 10 == 5,
                color=COLOURS[i % len(COLOURS)],
                sight_ft=60 if pc else 0,
                light_ft=20 if pc and i % 20 == 0 else 0,
                art=art and art + ".png",
                art_128=art and art + "_128.png",
                art_256=art and art + "_256.png",
            )
        )
    tokens = Token.objects.bulk_create(tokens)
    links = [
        Token.controllers.through(token_id=token.pk, user_id=player.pk)
        for token in tokens
        if token.character is not None and token.character.kind == Character.Kind.PC
    ]
    Token.controllers.through.objects.bulk_create(links)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokens", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--fog", action="store_true")
    parser.add_argument("--tree", action="store_true", help="profile one scene change")
    parser.add_argument(
        "--database-url", default=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE
    )
    args = parser.parse_args()

    prepare_database(args.database_url)
    os.environ.update(django_env(args.database_url, None))
    table = build_table(args.database_url, clients=2, senders=1)

    from django.contrib.auth import get_user_model

    from vtt.live import protocol, room_reads
    from vtt.tabletop import policy, services
    from vtt.tabletop.models import Campaign, Membership, Role, Token

    campaign = Campaign.objects.get(pk=table.campaign_id)
    scene = campaign.active_scene
    gm = Membership.objects.get(campaign=campaign, role=Role.GM).user
    player = get_user_model().objects.get(
        pk=Membership.objects.get(campaign=campaign, role=Role.PLAYER).user_id
    )
    Token.objects.filter(scene=scene).delete()
    populate(campaign, scene, player, args.tokens, args.fog)
    # Sight is computed by the scene's own change, as when a GM lays fog.
    services.scene_update(scene_id=scene.pk, by=gm, walls=rooms() if args.fog else [], fog=args.fog)

    def frame_text(viewer, user) -> str:
        """The snapshot frame as vtt.live.consumer sends it."""
        state = room_reads.snapshot(campaign.pk, viewer)
        you = {"id": user.pk, "name": user.get_username(), "role": viewer.role}
        frame = {
            "type": "snapshot",
            "protocol": protocol.PROTOCOL_VERSION,
            "seq": state["seq"],
            "reason": "connect",
            "campaign": state["campaign"],
            "you": you,
            "scene": state["scene"],
            "tokens": state["tokens"],
            "log": state["log"],
            "online": [{"id": gm.pk, "name": gm.get_username()}],
            "vision": state["vision"],
        }
        return protocol.dumps(frame)

    def deflated(text: str) -> bytes:
        compressor = zlib.compressobj(wbits=-15)
        return compressor.compress(text.encode()) + compressor.flush(zlib.Z_SYNC_FLUSH)

    load = os.getloadavg()
    print(
        f"{args.tokens} tokens{' with fog' if args.fog else ''}, median of {args.runs} runs, "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    for label, user, role in (("GM", gm, Role.GM), ("player", player, Role.PLAYER)):
        viewer = policy.viewer_in(user.pk, role, campaign.settings)
        frame_text(viewer, user)  # warm the connection and the caches
        times, deflate_times = [], []
        for _ in range(args.runs):
            started = time.perf_counter()
            text = frame_text(viewer, user)
            times.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            packed = deflated(text)
            deflate_times.append((time.perf_counter() - started) * 1000)
        raw = len(text.encode())
        print(
            f"- {label}: {statistics.median(times):.1f} ms "
            f"(spread {min(times):.1f} to {max(times):.1f}), {raw / 1000:.1f} kB, "
            f"deflated {len(packed) / 1000:.1f} kB in {statistics.median(deflate_times):.1f} ms"
        )
    scene_change(campaign, scene, gm, player, args.runs, args.tree)


def scene_change(campaign, scene, gm, player, runs: int, tree: bool) -> None:
    """The GM puts the scene on the table (from another): the event's write
    (services.scene_activate, the campaign's row locked, fog's annotation
    included) and its live render (vtt.live.render.render_event, once for
    every socket of the room), then each recipient's frame."""
    from vtt.live import protocol
    from vtt.live.render import render_event, text_for
    from vtt.tabletop import services
    from vtt.tabletop.models import RoomEvent

    elsewhere = services.scene_create(campaign_id=campaign.pk, by=gm, name="Elsewhere")

    def change():
        services.scene_activate(scene_id=elsewhere.pk, by=gm)
        started = time.perf_counter()
        services.scene_activate(scene_id=scene.pk, by=gm)
        written = time.perf_counter()
        event = RoomEvent.objects.filter(campaign=campaign).order_by("-seq").first()
        read = time.perf_counter()
        message = render_event(event)
        rendered = time.perf_counter()
        return event, message, (written - started) * 1000, (rendered - read) * 1000

    change()  # warm
    writes, renders = [], []
    for _ in range(runs):
        event, message, write, render = change()
        writes.append(write)
        renders.append(render)
    print(
        f"- scene change: written in {statistics.median(writes):.1f} ms "
        f"(spread {min(writes):.1f} to {max(writes):.1f}), rendered in "
        f"{statistics.median(renders):.1f} ms (spread {min(renders):.1f} to {max(renders):.1f}); "
        f"stored {len(protocol.dumps(event.data).encode()) / 1000:.1f} kB"
    )
    player_label = "fog player" if scene.fog else "player"
    for label, role, user in (("GM", "gm", gm), (player_label, "player", player)):
        text = text_for(message, role, user.pk, "party")
        print(f"  - {label}'s frame: {len(text.encode()) / 1000:.1f} kB")
    if tree:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.runcall(change)
        stats = pstats.Stats(profile)
        stats.sort_stats("cumulative").print_stats(r"vtt/|django/db/models/query|json", 30)


if __name__ == "__main__":
    main()
