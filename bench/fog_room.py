"""What fog of war costs the server, on PostgreSQL, without any websocket:

- the snapshot of a fog scene of 1,000 tokens for a player (what a fresh
  connection or a reconnect too far behind reads; target under 100 ms);
- one stored move of a party token (the token service, the event log and
  the view recomputed with it, then the commit), on that scene and on the
  same scene without fog, to show the part the view takes;
- the same move as the live rooms store it, its view and explored area
  drawn after the commit (vtt.fog.fog_drawing), and one such drawing
  of DRAWN_EVERY moves (what a room of 100 moves a second owes each 0.25 s).

    .venv/bin/python bench/fog_room.py                  # 5 runs
    .venv/bin/python bench/fog_room.py --tokens 3000 --runs 3

The scene is 100 x 100 squares with 300 wall segments (bench/ws_fanout.py's
`rooms`: a corridor and rooms off it; `--walls pillars`: a field of pillars,
the worst case), lit, six party tokens in the corridor and the rest spread
over the map. Uses the `vtt_bench` database that ws_fanout.py creates (DATABASE_URL
to use another)."""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ws_fanout import (  # noqa: E402
    DEFAULT_DATABASE,
    MAP_SIDE,
    build_table,
    django_env,
    pillars,
    prepare_database,
    rooms,
)

PARTY = 6
DRAWN_EVERY = 25


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokens", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--walls", choices=("rooms", "pillars"), default="rooms")
    parser.add_argument(
        "--database-url", default=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE
    )
    args = parser.parse_args()

    prepare_database(args.database_url)
    os.environ.update(django_env(args.database_url, None))
    table = build_table(args.database_url, clients=PARTY + 1, senders=PARTY + 1)

    from django.contrib.auth import get_user_model

    from vtt.fog import fog_drawing
    from vtt.live import room_reads
    from vtt.tabletop import policy, services
    from vtt.tabletop.models import Campaign, Membership, Role, Token

    campaign = Campaign.objects.get(pk=table.campaign_id)
    scene = campaign.active_scene
    gm = Membership.objects.get(campaign=campaign, role=Role.GM).user
    tokens = list(Token.objects.filter(scene=scene).order_by("pk"))
    party = tokens[1:]  # the players' tokens (the first is the GM's)
    player_id = party[0].controller_ids[0]
    player = get_user_model().objects.get(pk=player_id)
    Token.objects.bulk_create(
        [
            Token(scene=scene, name=f"Crowd {i}", x=i % MAP_SIDE, y=2 + (i * 7) % (MAP_SIDE - 2))
            for i in range(args.tokens - len(tokens))
        ]
    )
    viewer = policy.viewer_in(player.pk, Role.PLAYER, campaign.settings)

    def snapshot_ms() -> float:
        started = time.perf_counter()
        room_reads.snapshot(campaign.pk, viewer)
        return (time.perf_counter() - started) * 1000

    def moves_ms(fog: bool) -> float:
        walls = rooms() if args.walls == "rooms" else pillars()
        services.scene_update(scene_id=scene.pk, by=gm, walls=walls, fog=fog)
        token = party[0]
        started = time.perf_counter()
        for i in range(args.moves):
            services.token_move(token_id=token.pk, by=player, x=1 + i % (MAP_SIDE - 2), y=0)
        return (time.perf_counter() - started) * 1000 / args.moves

    def drawn_after_ms() -> tuple[float, float]:
        """Moves with the drawing owed, and the drawings, timed apart."""
        fog_drawing.use(lambda: True, lambda campaign_id, scene_id: None)
        try:
            walls = rooms() if args.walls == "rooms" else pillars()
            services.scene_update(scene_id=scene.pk, by=gm, walls=walls, fog=True)
            token, moving, drawing = party[0], 0.0, []
            for i in range(args.moves):
                started = time.perf_counter()
                services.token_move(token_id=token.pk, by=player, x=1 + i % (MAP_SIDE - 2), y=0)
                moving += time.perf_counter() - started
                if (i + 1) % DRAWN_EVERY == 0:
                    started = time.perf_counter()
                    fog_drawing.draw(campaign.pk, scene.pk)
                    drawing.append(time.perf_counter() - started)
            return moving * 1000 / args.moves, statistics.median(drawing) * 1000
        finally:
            fog_drawing.use(None, None)

    snapshots, fogged, clear, after, drawings = [], [], [], [], []
    for run in range(args.runs):
        fogged.append(moves_ms(True))
        snapshots.append(statistics.median(snapshot_ms() for _ in range(5)))
        clear.append(moves_ms(False))
        move, drawn = drawn_after_ms()
        after.append(move)
        drawings.append(drawn)
        print(
            f"run {run + 1}: snapshot {snapshots[-1]:.1f} ms, move with fog "
            f"{fogged[-1]:.2f} ms, without {clear[-1]:.2f} ms, drawn after "
            f"{after[-1]:.2f} ms (a drawing {drawings[-1]:.1f} ms)",
            file=sys.stderr,
        )
    size = len(str(room_reads.snapshot(campaign.pk, viewer)))
    print(
        f"{args.tokens} tokens, 300 walls ({args.walls}), {PARTY} party tokens, "
        f"median of {args.runs} runs:\n"
        f"- a player's snapshot: {statistics.median(snapshots):.1f} ms "
        f"(spread {min(snapshots):.1f} to {max(snapshots):.1f}), about {size // 1000} kB\n"
        f"- a party token's stored move with fog: {statistics.median(fogged):.2f} ms "
        f"(spread {min(fogged):.2f} to {max(fogged):.2f})\n"
        f"- the same move without fog: {statistics.median(clear):.2f} ms "
        f"(spread {min(clear):.2f} to {max(clear):.2f})\n"
        f"- the move with fog drawn after the commit: {statistics.median(after):.2f} ms "
        f"(spread {min(after):.2f} to {max(after):.2f}); one drawing of {DRAWN_EVERY} moves: "
        f"{statistics.median(drawings):.1f} ms (spread {min(drawings):.1f} to {max(drawings):.1f})"
    )


if __name__ == "__main__":
    main()
