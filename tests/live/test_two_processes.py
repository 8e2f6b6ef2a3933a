"""Two daphne processes sharing Redis and PostgreSQL serve one room: a
member on each sees the other's events, in the same order, and presence
crosses processes too."""

import asyncio
import contextlib
import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from tests import served

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def two_servers(redis_url, postgres, tmp_path):
    env = {
        **os.environ,
        "DATABASE_URL": served.database_url(postgres.settings_dict),
        "REDIS_URL": redis_url,
        "DJANGO_SETTINGS_MODULE": "vtt.settings",
        "PYTHONPATH": str(ROOT),
    }
    ports = [served.free_port(), served.free_port()]
    logs = [open(tmp_path / f"daphne-{port}.log", "w") for port in ports]  # noqa: SIM115
    processes = [
        served.start(port, env, log, start_new_session=True)
        for port, log in zip(ports, logs, strict=True)
    ]
    try:
        for port, process in zip(ports, processes, strict=True):
            served.wait_until_up(f"http://127.0.0.1:{port}/healthz", process)
        yield ports
    finally:
        for port in ports:  # shown by pytest when the test fails
            print(f"--- daphne on {port}:", (tmp_path / f"daphne-{port}.log").read_text()[-3000:])
        for process in processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)
        for log in logs:
            log.close()


class Member:
    def __init__(self, ws):
        self.ws = ws
        self.frames = []

    async def until(self, predicate, timeout=10.0):
        for i, frame in enumerate(self.frames):
            if predicate(frame):
                return self.frames.pop(i)
        async with asyncio.timeout(timeout):
            while True:
                frame = json.loads(await self.ws.recv())
                if predicate(frame):
                    return frame
                self.frames.append(frame)

    async def events(self, count, timeout=15.0):
        return [
            (await self.until(lambda f: f["type"] == "event", timeout))["event"]
            for _ in range(count)
        ]


async def join(port, room, who, query=""):
    import websockets

    ws = await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/campaigns/{room.campaign_id}/{query}",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": f"sessionid={room.cookies[who]}"},
        open_timeout=10,
    )
    member = Member(ws)
    member.first = await member.until(lambda f: f["type"] in ("snapshot", "welcome"))
    return member


async def test_two_daphne_processes_serve_one_room_in_one_order(two_servers, room):
    from .conftest import forget_presence

    await forget_presence()
    port_a, port_b = two_servers
    gm = await join(port_a, room, "gm")
    player = await join(port_b, room, "player")
    try:
        joined = await gm.until(lambda f: f["type"] == "presence")
        assert joined["state"] == "join" and joined["user"]["id"] == room.users["player"]
        assert [u["id"] for u in player.first["online"]] == sorted(
            [room.users["gm"], room.users["player"]]
        )
        start = gm.first["seq"]
        assert player.first["seq"] == start
        tenrec = room.tokens["tenrec"]
        # Both sides act at once, on different processes.
        sends = []
        for i in range(10):
            sends.append(
                player.ws.send(
                    json.dumps(
                        {"type": "token.move", "id": f"p{i}", "token": tenrec, "x": 1 + i, "y": 2}
                    )
                )
            )
            sends.append(gm.ws.send(json.dumps({"type": "chat", "id": f"g{i}", "text": f"gm {i}"})))
        await asyncio.gather(*sends)
        secret = {"system": "artifice", "action": "check", "pool": 2, "difficulty": 1}
        await gm.ws.send(
            json.dumps({"type": "roll", "id": "h", "request": secret, "visibility": "gm"})
        )
        seen_by_gm = await gm.events(21)
        seen_by_player = await player.events(21)
        assert [e["seq"] for e in seen_by_gm] == list(range(start + 1, start + 22))
        assert [e["seq"] for e in seen_by_player] == [e["seq"] for e in seen_by_gm]
        for mine, theirs in zip(seen_by_gm, seen_by_player, strict=True):
            if mine["type"] == "roll":
                assert theirs == {"seq": mine["seq"], "type": "redacted"}
            else:
                assert mine == theirs
        assert sum(e["type"] == "token.moved" for e in seen_by_gm) == 10
        assert sum(e["type"] == "chat" for e in seen_by_gm) == 10

        # A drag preview crosses processes, either way, without touching the
        # log (each process has heard that the other serves the room).
        await player.ws.send(json.dumps({"type": "token.drag", "token": tenrec, "x": 3, "y": 3}))
        drag = await gm.until(lambda f: f["type"] == "token.drag")
        assert (drag["token"], drag["by"]) == (tenrec, room.users["player"])
        await gm.ws.send(json.dumps({"type": "token.drag", "token": tenrec, "x": 4, "y": 3}))
        drag = await player.until(lambda f: f["type"] == "token.drag")
        assert (drag["token"], drag["by"], drag["x"]) == (tenrec, room.users["gm"], 4)
        # So does a ping (vtt.live.pings), with no log entry either.
        await gm.ws.send(json.dumps({"type": "map.ping", "id": "pg", "x": 2.5, "y": 6}))
        ping = await player.until(lambda f: f["type"] == "map.ping")
        assert (ping["by"]["id"], ping["x"], ping["y"]) == (room.users["gm"], 2.5, 6)

        # The player drops and comes back on the other process: exactly what was missed.
        last = seen_by_player[-1]["seq"]
        await player.ws.close()
        await gm.ws.send(json.dumps({"type": "chat", "id": "late", "text": "while you were out"}))
        await gm.events(1)
        player = await join(port_a, room, "player", query=f"?since={last}")
        page = await player.until(lambda f: f["type"] == "resync")
        assert [e["seq"] for e in page["events"]] == [last + 1]
        assert page["events"][0]["data"]["text"] == "while you were out"
    finally:
        await gm.ws.close()
        await player.ws.close()


async def test_a_scene_change_crosses_processes_in_order_and_a_rejoin_replays_it(two_servers, room):
    from .conftest import forget_presence
    from .test_scene_change import LURKER, make_hall

    await forget_presence()
    hall = await make_hall(room)
    port_a, port_b = two_servers
    gm = await join(port_a, room, "gm")
    player = await join(port_b, room, "player")
    try:
        start = gm.first["seq"]
        # The GM changes scenes and moves at once on one process while the
        # player talks on the other.
        frames = [{"type": "scene.activate", "id": "s", "scene": hall["scene"]}]
        frames += [
            {"type": "token.move", "id": f"m{i}", "token": hall["statue"], "x": i, "y": 3}
            for i in range(4)
        ]
        frames.insert(2, {"type": "token.move", "id": "l", "token": hall["lurker"], "x": 2, "y": 2})
        sends = [gm.ws.send(json.dumps(frame)) for frame in frames]
        sends += [
            player.ws.send(json.dumps({"type": "chat", "id": f"p{i}", "text": f"p {i}"}))
            for i in range(5)
        ]
        await asyncio.gather(*sends)
        seen_by_gm = await gm.events(11)
        seen_by_player = await player.events(11)
        assert [e["seq"] for e in seen_by_gm] == list(range(start + 1, start + 12))
        assert [e["seq"] for e in seen_by_player] == [e["seq"] for e in seen_by_gm]
        kinds = [e["type"] for e in seen_by_gm]
        change = kinds.index("scene.activated")
        # The GM's socket carries its intents out in order: every move comes after.
        assert kinds.index("token.moved") > change
        mine, theirs = seen_by_gm[change], seen_by_player[change]
        assert {t["name"] for t in mine["data"]["tokens"]} == {LURKER, "Statue", "Scout"}
        assert {t["name"] for t in theirs["data"]["tokens"]} == {"Statue", "Scout"}
        statue = [e["data"]["token"]["x"] for e in seen_by_player if e["type"] == "token.moved"]
        assert statue == [0, 1, 2, 3]
        assert sum(e["type"] == "redacted" for e in seen_by_player) == 1
        assert LURKER not in json.dumps(seen_by_player)

        # The player drops; the room goes back to the crypt; the player
        # returns on the other process and the pages carry the change.
        last = seen_by_player[-1]["seq"]
        await player.ws.close()
        await gm.ws.send(
            json.dumps({"type": "scene.activate", "id": "back", "scene": room.scene_id})
        )
        tenrec = room.tokens["tenrec"]
        await gm.ws.send(
            json.dumps({"type": "token.move", "id": "t", "token": tenrec, "x": 4, "y": 4})
        )
        await gm.events(2)
        player = await join(port_a, room, "player", query=f"?since={last}")
        assert player.first["type"] == "welcome"
        page = await player.until(lambda f: f["type"] == "resync")
        assert [(e["seq"], e["type"]) for e in page["events"]] == [
            (last + 1, "scene.activated"),
            (last + 2, "token.moved"),
        ]
        crypt = page["events"][0]["data"]
        assert crypt["scene"]["id"] == room.scene_id
        assert [t["id"] for t in crypt["tokens"]] == [tenrec]  # not the hidden zombie
        assert "Zombie" not in json.dumps(page) and LURKER not in json.dumps(page)
    finally:
        await gm.ws.close()
        await player.ws.close()
