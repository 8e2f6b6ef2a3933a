"""What a long-played room costs, on PostgreSQL: a room is filled with
`--events` room events through the services (moves, rolls, chat, in the mix
of an evening's play), then each read that could grow with its history is
timed:

- the trails request (GET /api/combat/scenes/<id>/trails/), time and size;
- a player's snapshot (vtt.live.room_reads.snapshot);
- the room page ready, server side: the page itself, the snapshot and the
  page's first API reads (trails, the running encounter);
- last_result (what undo would put back), and the GM's "Undo last" question;
- the roll list: its first page and the tenth page reached by "next";
- database bytes per 10,000 events (pg_total_relation_size of the log, the
  rolls, the trails, the undo records and the resource history).

    .venv/bin/python bench/history_bench.py                  # 100,000 events, 7 runs
    .venv/bin/python bench/history_bench.py --events 20000 --runs 3
    .venv/bin/python bench/history_bench.py --tree /path/to/another/checkout
    .venv/bin/python bench/history_bench.py --events 20000 --bytes-only --batch 2000

`--bytes-only` fills the room and reports its bytes without timing reads;
`--batch` is how many events one transaction appends while filling (1, as
in a room, by default). More per transaction fill faster, but rows a
transaction overwrites cannot be reclaimed before it commits, so the trail
steps' table grows in a way a room's does not.

`--tree` measures another checkout of the project (its own `vtt` and
migrations) with this script. The database (`--database-url`, default
vtt_history_bench) is dropped and created afresh, so the sizes are the
room's alone."""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

TABLES = (
    "tabletop_roomevent",
    "tabletop_roll",
    "combat_trailstep",
    "combat_undo",
    "combat_resourcestate",
)
TOKENS = 20
MAP_SIDE = 60


def fresh_database(url: str, tree: Path) -> dict:
    import psycopg

    base = url.partition("?")[0]
    name = base.rsplit("/", 1)[1]
    with psycopg.connect(base.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "vtt.settings",
        "PYTHONPATH": str(tree),
        "LOG_LEVEL": "ERROR",
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
    }
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=tree,
        env=env,
        check=True,
    )
    return env


def fill(events: int, log, batch: int = 500) -> dict:
    """A campaign played for `events` room events: 60 % moves of 20 tokens,
    25 % rolls (one in five for the GM only), 15 % chat."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from vtt import dice
    from vtt.tabletop import services
    from vtt.tabletop.models import Membership, Role, RoomEvent
    from vtt.tabletop.services.chat import chat_say

    User = get_user_model()
    gm = User.objects.create_user("bench-gm", password="x")
    players = [User.objects.create_user(f"bench-p{i}", password="x") for i in range(4)]
    campaign = services.campaign_create(owner=gm, name="Long campaign", game="artifice")
    Membership.objects.bulk_create(
        [Membership(campaign=campaign, user=p, role=Role.PLAYER) for p in players]
    )
    scene = services.scene_create(
        campaign_id=campaign.pk, by=gm, name="Field", width=MAP_SIDE, height=MAP_SIDE
    )
    services.scene_activate(scene_id=scene.pk, by=gm)
    tokens = [
        services.token_create(
            scene_id=scene.pk,
            by=gm,
            name=f"T{i}",
            x=i,
            y=0,
            controllers=[players[i % 4].pk] if i < 8 else [],
        )
        for i in range(TOKENS)
    ]
    check = {"system": "artifice", "action": "check", "pool": 3, "difficulty": 2}
    from django.db import connection

    with connection.cursor() as cursor:
        # Commits without waiting for the disk: a room's one-event
        # transactions at a bench's pace (the bytes written are the same).
        cursor.execute("SET synchronous_commit = off")
    started = time.perf_counter()
    done = RoomEvent.objects.filter(campaign=campaign).count()
    i = 0
    while done < events:
        with transaction.atomic():
            for _ in range(min(batch, events - done)):
                i += 1
                slot = i % 20
                if slot < 12:
                    j = i % TOKENS
                    token, mover = tokens[j], (players[j % 4] if j < 8 else gm)
                    services.token_move(
                        token_id=token.pk,
                        by=mover,
                        x=(i * 7) % MAP_SIDE,
                        y=1 + (i * 13) % (MAP_SIDE - 1),
                    )
                elif slot < 17:
                    dice.roll_adjudicate(
                        campaign_id=campaign.pk,
                        by=gm if slot == 16 else players[i % 4],
                        request=check,
                        visibility="gm" if slot == 16 else "public",
                    )
                else:
                    chat_say(campaign_id=campaign.pk, by=players[i % 4], text=f"line {i}")
                done += 1
        if done % 10000 < batch:
            log(f"  {done} events, {time.perf_counter() - started:.0f} s")
    return {"campaign": campaign, "scene": scene, "gm": gm, "player": players[0]}


def report_bytes() -> None:
    """Where the history's bytes are: each table with its indexes (and its
    TOAST), and the log's rows by kind (pg_column_size of the row, so the
    tuple without page overhead)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM tabletop_roomevent")
        events = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM combat_trailstep")
        steps = cursor.fetchone()[0]

        def per10k(size):
            return f"{size * 10000 / events / 1e6:.2f} MB"

        parts = {}
        for table in TABLES:
            cursor.execute("SELECT pg_total_relation_size(%s), pg_table_size(%s)", [table, table])
            total, heap = cursor.fetchone()
            cursor.execute(
                "SELECT indexrelid::regclass::text, pg_relation_size(indexrelid)"
                " FROM pg_index WHERE indrelid = %s::regclass ORDER BY 2 DESC",
                [table],
            )
            parts[table] = (total, heap, cursor.fetchall())
        cursor.execute(
            "SELECT kind, count(*), sum(pg_column_size(e.*)), sum(pg_column_size(e.data))"
            " FROM tabletop_roomevent e GROUP BY kind ORDER BY 3 DESC"
        )
        kinds = cursor.fetchall()
    print(f"{events} events, {steps} trail steps")
    total = sum(total for total, _, _ in parts.values())
    print(f"- database bytes per 10,000 events: {per10k(total)}")
    for table, (size, heap, indexes) in parts.items():
        print(f"  - {table}: {per10k(size)} (table {per10k(heap)})")
        for name, index_size in indexes:
            print(f"    - {name}: {per10k(index_size)}")
    print("- log rows by kind: count, row bytes, of which data (average)")
    for kind, count, row, data in kinds:
        print(f"  - {kind}: {count}, {row / count:.0f} B, {data / count:.0f} B")


def timed(fn, runs: int) -> list[float]:
    fn()  # warm: connection, caches, plans
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    here = Path(__file__).resolve().parents[1]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--tree", type=Path, default=here)
    parser.add_argument("--batch", type=int, default=1, help="events per transaction")
    parser.add_argument("--bytes-only", action="store_true", help="no read timings")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL")
        or "postgres://postgres@127.0.0.1:5432/vtt_history_bench",
    )
    args = parser.parse_args()
    tree = args.tree.resolve()

    def log(text):
        print(text, file=sys.stderr, flush=True)

    log(f"tree {tree}, load average {os.getloadavg()[0]:.1f}")
    os.environ.update(fresh_database(args.database_url, tree))
    sys.path.insert(0, str(tree))
    os.chdir(tree)
    import django

    django.setup()
    from django.db import connection
    from django.test import Client

    from vtt.combat.services import undo
    from vtt.live import room_reads
    from vtt.tabletop import policy
    from vtt.tabletop.models import Role

    t = fill(args.events, log, args.batch)
    campaign, scene, gm, player = t["campaign"], t["scene"], t["gm"], t["player"]
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    if args.bytes_only:
        report_bytes()
        return
    viewer = policy.viewer_in(player.pk, Role.PLAYER, campaign.settings)
    as_player, as_gm = Client(), Client()
    as_player.force_login(player)
    as_gm.force_login(gm)
    trails_url = f"/api/combat/scenes/{scene.pk}/trails/"
    room_url = f"/campaigns/{campaign.pk}/room/"
    encounter_url = f"/api/combat/scenes/{scene.pk}/encounter/"
    rolls_url = f"/api/campaigns/{campaign.pk}/rolls/"

    def get(client, url):
        response = client.get(url, secure=True)
        assert response.status_code in (200, 204), (
            url,
            response.status_code,
            response.content[:200],
        )
        return response

    def room_ready():
        get(as_player, room_url)
        room_reads.snapshot(campaign.pk, viewer)
        get(as_player, trails_url)
        get(as_player, encounter_url)

    tenth = rolls_url  # or the last page, in a room with fewer rolls
    for _ in range(9):
        tenth = get(as_gm, tenth).json()["next"] or tenth

    figures = {
        "trails request (player)": timed(lambda: get(as_player, trails_url), args.runs),
        "trails request (GM)": timed(lambda: get(as_gm, trails_url), args.runs),
        "player's snapshot": timed(lambda: room_reads.snapshot(campaign.pk, viewer), args.runs),
        "room page ready, server side": timed(room_ready, args.runs),
        "last_result": timed(lambda: undo.last_result(campaign.pk), args.runs),
        "roll list, first page": timed(lambda: get(as_gm, rolls_url), args.runs),
        "roll list, tenth page": timed(lambda: get(as_gm, tenth), args.runs),
    }
    sizes = {
        "trails bytes (player)": len(get(as_player, trails_url).content),
        "trails bytes (GM)": len(get(as_gm, trails_url).content),
    }
    print(
        f"tree {tree}; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}; "
        f"median of {args.runs} runs"
    )
    for name, times in figures.items():
        print(f"- {name}: {statistics.median(times):.1f} ms ({min(times):.1f} to {max(times):.1f})")
    for name, size in sizes.items():
        print(f"- {name}: {size / 1000:.1f} kB")
    report_bytes()


if __name__ == "__main__":
    main()
