"""What server-side parameter binding saves a stored move: the same
`token.move` intents carried out as a room's database thread does
(vtt.live.intents, with an id, so with its receipt), in blocks that switch
between psycopg's two bindings, so the machine's drift falls on both alike.

    .venv/bin/python bench/parameter_binding.py                 # 8 blocks of 300 moves each
    .venv/bin/python bench/parameter_binding.py --blocks 4 --moves 200

Reports this process's CPU (user and system) per move, the median over the
blocks, and their spread: the Python side of a move, which is what the
binding changes. Uses the `vtt_bench` database that ws_fanout.py creates
(DATABASE_URL to use another)."""

import argparse
import os
import resource
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ws_fanout import DEFAULT_DATABASE, build_table, django_env, prepare_database  # noqa: E402

BINDINGS = {True: "server-side", False: "quoted in Python"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blocks", type=int, default=8, help="blocks of each binding")
    parser.add_argument("--moves", type=int, default=300, help="moves in a block")
    parser.add_argument(
        "--database-url", default=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE
    )
    args = parser.parse_args()

    prepare_database(args.database_url)
    os.environ.update(django_env(args.database_url, None))
    table = build_table(args.database_url, clients=2, senders=2)

    from django.contrib.auth import get_user_model
    from django.db import connection

    from vtt.live import intents
    from vtt.live.protocol import Intent
    from vtt.tabletop.models import Token

    token = Token.objects.get(pk=table.tokens[1])
    player = get_user_model().objects.get(pk=token.controllers.get().pk)
    asker = intents.Asker(player, table.campaign_id, frozenset({token.pk}))
    version, sent = token.version, 0

    def move(i: int) -> None:
        nonlocal version, sent
        sent += 1
        fields = {"token": token.pk, "x": 1 + i % 50, "y": 1, "version": version}
        intent = Intent("token.move", f"binding-{sent}", fields)
        version = intents.carry_out(asker, intent)[0]["token"]["version"]

    def block(server_side: bool) -> tuple[float, float]:
        # The binding is read when a connection opens.
        connection.close()
        connection.settings_dict["OPTIONS"]["server_side_binding"] = server_side
        move(0)
        before = resource.getrusage(resource.RUSAGE_SELF)
        for i in range(args.moves):
            move(i + 1)
        after = resource.getrusage(resource.RUSAGE_SELF)
        return (
            (after.ru_utime - before.ru_utime) / args.moves * 1e6,
            (after.ru_stime - before.ru_stime) / args.moves * 1e6,
        )

    figures = {True: [], False: []}
    for n in range(args.blocks):
        for server_side in (True, False) if n % 2 == 0 else (False, True):
            figures[server_side].append(block(server_side))
    for server_side, blocks in figures.items():
        user = [b[0] for b in blocks]
        system = statistics.median(b[1] for b in blocks)
        print(
            f"{BINDINGS[server_side]:>16}: {statistics.median(user):.0f} us user "
            f"(blocks {min(user):.0f} to {max(user):.0f}), {system:.0f} us system, per move"
        )


if __name__ == "__main__":
    main()
