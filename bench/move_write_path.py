"""The write path of one stored token move, without any websocket: what the
room's database thread does for each `token.move` intent (the intent handler,
the token service, the event log and the commit), timed one after another on
PostgreSQL, with the statements each move sends.

    .venv/bin/python bench/move_write_path.py            # 5 runs of 2,000 moves
    .venv/bin/python bench/move_write_path.py --moves 500 --runs 3
    .venv/bin/python bench/move_write_path.py --moves 300 --bindings 8

Each run times moves sent without an id, then moves with one (the intent
and its receipt in one transaction, vtt.live.receipts), alternately: the
wall time, and this process's CPU (the Python side of a move, which a
shared machine's other work moves least).

`--bindings N` instead compares psycopg's two ways of sending parameters:
N blocks of moves with ids for each, the binding switched from block to
block so the machine's drift falls on both alike, and this process's user
and system CPU per move, the median over the blocks and their spread.

A room can store at most about 1000 / (ms per move) moves a second per
database thread; the fan-out benchmark (bench/ws_fanout.py) shows what that
means for latency. Uses the `vtt_bench` database that ws_fanout.py creates
(DATABASE_URL to use another)."""

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ws_fanout import DEFAULT_DATABASE, build_table, django_env, prepare_database  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--batch",
        type=int,
        default=0,
        help="also time moves with ids committed K at a time (vtt.live.group_commit)",
    )
    parser.add_argument(
        "--bindings",
        type=int,
        default=0,
        help="compare server-side and quoted parameters in N blocks of --moves each",
    )
    parser.add_argument(
        "--database-url", default=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE
    )
    args = parser.parse_args()

    prepare_database(args.database_url)
    os.environ.update(django_env(args.database_url, None))
    table = build_table(args.database_url, clients=2, senders=2)

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from vtt.live import group_commit, intents
    from vtt.live.protocol import Intent
    from vtt.tabletop.models import Token

    token = Token.objects.get(pk=table.tokens[1])
    player = get_user_model().objects.get(pk=token.controllers.get().pk)
    asker = intents.Asker(player, table.campaign_id, frozenset({token.pk}))
    version = token.version

    sent = 0

    def move(i: int, with_id: bool) -> None:
        nonlocal version, sent
        sent += 1
        fields = {"token": token.pk, "x": 1 + i % 50, "y": 1, "version": version}
        intent = Intent("token.move", f"bench-{sent}" if with_id else None, fields)
        version = intents.carry_out(asker, intent)[0]["token"]["version"]

    def batch(i: int) -> None:
        nonlocal version, sent
        acts = []
        for j in range(args.batch):
            sent += 1
            fields = {"token": token.pk, "x": 1 + (i + j) % 50, "y": 2, "version": None}
            # As a room's writer is handed them (the consumer).
            acts.append(intents.once(asker, Intent("token.move", f"bench-{sent}", fields)))
        outcomes = group_commit.carry_out_together(table.campaign_id, acts)
        assert all(o.error is None for o in outcomes), outcomes
        version = outcomes[-1].answer[0]["token"]["version"]

    for with_id in (False, True):
        with CaptureQueriesContext(connection) as captured:
            move(int(with_id), with_id)  # each to another square, so each moves
        print(f"statements per move {'with' if with_id else 'without'} an id: {len(captured)}")
        for query in captured:
            print("   ", query["sql"][:110])

    if args.bindings:
        return compare_bindings(lambda i: move(i, True), args.bindings, args.moves)

    figures = {False: [], True: []}
    if args.batch:
        figures["batch"] = []
    cpu = {kind: [] for kind in figures}
    for run in range(args.runs):
        for with_id in figures:
            start, used = time.perf_counter(), time.process_time()
            if with_id == "batch":
                for i in range(0, args.moves, args.batch):
                    batch(i)
            else:
                for i in range(args.moves):
                    move(i + 2, with_id)
            elapsed = time.perf_counter() - start
            figures[with_id].append(1000 * elapsed / args.moves)
            cpu[with_id].append(1000 * (time.process_time() - used) / args.moves)
            print(
                f"run {run + 1} {_name(with_id, args.batch)}: "
                f"{figures[with_id][-1]:.3f} ms per move ({args.moves / elapsed:.0f}/s), "
                f"{cpu[with_id][-1]:.3f} ms of this process's CPU"
            )
    for with_id, runs in figures.items():
        median = statistics.median(runs)
        print(
            f"median of {args.runs} {_name(with_id, args.batch)}: "
            f"{median:.3f} ms per move, {1000 / median:.0f} moves/s, "
            f"{statistics.median(cpu[with_id]):.3f} ms of this process's CPU"
        )


BINDINGS = {True: "server-side", False: "quoted in Python"}


def compare_bindings(move, blocks: int, moves: int) -> None:
    from django.db import connection

    def block(server_side: bool) -> tuple[float, float]:
        # The binding is read when a connection opens.
        connection.close()
        connection.settings_dict["OPTIONS"]["server_side_binding"] = server_side
        move(0)
        before = resource.getrusage(resource.RUSAGE_SELF)
        for i in range(moves):
            move(i + 1)
        after = resource.getrusage(resource.RUSAGE_SELF)
        return (
            (after.ru_utime - before.ru_utime) / moves * 1e6,
            (after.ru_stime - before.ru_stime) / moves * 1e6,
        )

    figures = {True: [], False: []}
    for n in range(blocks):
        for server_side in (True, False) if n % 2 == 0 else (False, True):
            figures[server_side].append(block(server_side))
    for server_side, measured in figures.items():
        user = [b[0] for b in measured]
        system = statistics.median(b[1] for b in measured)
        print(
            f"{BINDINGS[server_side]:>16}: {statistics.median(user):.0f} us user "
            f"(blocks {min(user):.0f} to {max(user):.0f}), {system:.0f} us system, per move"
        )


def _name(kind, batch: int) -> str:
    if kind == "batch":
        return f"with ids, {batch} to a commit"
    return "with ids" if kind else "without ids"


if __name__ == "__main__":
    main()
