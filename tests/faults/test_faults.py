"""The live rooms under faults, behind nginx with deploy/nginx.conf: worker 1
is killed (SIGKILL) and started again, then Redis is, while about twenty
clients roll, move tokens and chat. Then: nobody lost, repeated or reordered
an event, every intent was carried out exactly once, presence is right, and
new connections right after Redis comes back get their snapshot.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/vtt_faults_dev \\
    REDIS_URL=redis://127.0.0.1:6379/0 REQUIRE_SERVICES=1 \\
    .venv/bin/python -m pytest tests/faults -x -s -p no:cacheprovider

It starts its own redis-server, workers and nginx (REDIS_URL's Redis is
left alone).

The run's figures are printed and written to tests/artifacts/faults.json."""

import asyncio
import datetime
import json
from collections import Counter
from dataclasses import dataclass

import pytest

from .conftest import ROOT, make_big_room
from .scenario import PROBES, RECOVERY_BOUND, Scenario, room_worker

# Transactional: the workers must see what the test commits.
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

FIGURES = ROOT / "tests" / "artifacts" / "faults.json"
EVENT_OF = {"chat": "chat", "roll": "roll", "token.move": "token.moved"}
SHOWN = 8  # problems listed in a failure message


# ------------------------------------------------------------ the run


@dataclass
class Log:
    """The room's log over the run, from the database, and as each user may
    see it (rendered by the live rooms' own read, room_reads.views_since)."""

    start: int
    end: int
    rows: list[dict]
    views: dict  # user name -> {seq: view}


def read_log(room, start: int) -> Log:
    from vtt.live import protocol, room_reads
    from vtt.tabletop.models import RoomEvent
    from vtt.tabletop.visibility import Viewer

    end = room_reads.current_seq(room.campaign_id)
    rows = list(
        RoomEvent.objects.filter(campaign_id=room.campaign_id, seq__gt=start)
        .order_by("seq")
        .values("seq", "kind", "visibility", "actor_id", "data")
    )
    views = {}
    for name, user in room.users.items():
        if user["role"] is None:
            continue
        viewer, after, seen = Viewer(user["id"], user["role"]), start, {}
        while page := room_reads.views_since(room.campaign_id, after, viewer):
            for view in page:
                seen[view["seq"]] = json.loads(protocol.dumps(view))
            after = page[-1]["seq"]
        views[name] = seen
    return Log(start, end, rows, views)


def figures_of(run, log: Log) -> dict:
    clients = run.clients
    sent = [s for c in clients for s in c.intents.values()]
    answers = [a for s in sent for a in s.answers]
    return {
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "clients": len(clients),
        "events_in_log": log.end - log.start,
        "intents_sent": len(sent),
        "intents_by_kind": dict(Counter(s.kind for s in sent)),
        "re_sends": sum(c.resends for c in clients),
        "repeats_answered": sum(c.repeats for c in clients),
        "errors": dict(Counter(a.get("code") for a in answers if a["type"] == "error")),
        "unanswered": sum(1 for s in sent if not s.answers),
        "reconnects": sum(max(c.connections - 1, 0) for c in clients),
        "failed_connect_attempts": sum(c.failed_connects for c in clients),
        "sockets_closed_for_no_pong": sum(c.dead_sockets for c in clients),
        "close_codes": dict(Counter(str(code) for c in clients for code in c.closes)),
        "snapshots_after_the_first": sum(len(c.snapshots) for c in clients),
        "frames_clients_could_not_read": sum(len(c.errors) for c in clients),
        "hidden_rolls": sum(r["kind"] == "roll" and r["visibility"] == "gm" for r in log.rows),
        **run.figures,
    }


@pytest.fixture(scope="module")
def run(stack, django_db_blocker):
    """The scenario, played once for the checks below. Its rows go with the
    first check's flush (the tests are transactional); what the checks need
    is read before."""
    with django_db_blocker.unblock():
        room = make_big_room()
        stack.worker_first(asyncio.run(room_worker(stack, room)))
        try:
            played = asyncio.run(Scenario(stack, room).play())
        except BaseException:
            print(stack.log_tails())
            raise
        starts = [c.first_seq for c in played.clients if c.first_seq is not None]
        log = read_log(room, min(starts) if starts else 0)
    figures = figures_of(played, log)
    print("\nfigures of the run under faults:\n" + json.dumps(figures, indent=2))
    FIGURES.parent.mkdir(exist_ok=True)
    FIGURES.write_text(json.dumps(figures, indent=2) + "\n")
    return played, log, figures


def listed(problems: list[str]) -> str:
    more = f"\n  ... and {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""
    return "\n  " + "\n  ".join(problems[:SHOWN]) + more


# ------------------------------------------------------------ the log


def log_problems(client, expected: dict, end: int) -> list[str]:
    """What `client` applied against the log as it may see it, after its first snapshot."""
    seqs = [s for s in expected if client.first_seq < s <= end]
    lost = [s for s in seqs if s not in client.events]
    other_kind = [
        s for s in seqs if s in client.events and client.events[s]["type"] != expected[s]["type"]
    ]
    differing = [s for s in seqs if s in client.events and client.events[s] != expected[s]]
    problems = []
    if lost:
        problems.append(f"{len(lost)} lost (seq {lost[:5]}...)")
    if client.duplicates:
        problems.append(f"{len(client.duplicates)} duplicated ({client.duplicates[:3]}...)")
    if client.gaps:
        problems.append(f"{len(client.gaps)} out of order (after, got: {client.gaps[:3]}...)")
    if other_kind:
        problems.append(f"{len(other_kind)} of another kind than the log's (seq {other_kind[:5]})")
    if differing:
        problems.append(f"{len(differing)} not as the log renders them (seq {differing[:5]})")
    if client.snapshots:
        problems.append(f"snapshots on the way: {client.snapshots[:3]}")
    return [f"{client.name}: " + ", ".join(problems)] if problems else []


def test_every_client_saw_the_log_as_it_may_see_it(run):
    played, log, _ = run
    problems = []
    for client in played.clients:
        if client.first_seq is None:
            problems.append(f"{client.name}: never got into the room")
            continue
        end = played.left.get(client.name, log.end)
        problems += log_problems(client, log.views[client.user_name], end)
    assert not problems, (
        f"events of the room's log ({log.start + 1} to {log.end}) lost, duplicated or out of "
        f"order on {len(problems)} of {len(played.clients)} clients:" + listed(problems)
    )


def test_hidden_rolls_never_reached_a_player(run):
    played, log, _ = run
    hidden = {r["seq"] for r in log.rows if r["kind"] == "roll" and r["visibility"] == "gm"}
    assert hidden, "the GM made no hidden roll during the run: nothing to check"
    leaks = [
        f"{client.name} got seq {event['seq']} as {event['type']} ({how})"
        for client in played.clients
        if client.user["role"] != "gm"
        for _, how, event in client.deliveries
        if event["seq"] in hidden and event != {"seq": event["seq"], "type": "redacted"}
    ]
    assert not leaks, f"{len(leaks)} hidden roll(s) reached a player's socket:" + listed(leaks)


# ------------------------------------------------------------ intents


def acted_on(sent, ack: dict, log: Log, counts: dict) -> int:
    """How many log events carry out this acknowledged intent."""
    if sent.kind == "chat":
        return counts["chat"][sent.frame["text"]]
    if sent.kind == "roll":
        return counts["roll"][ack.get("roll_id")]
    token = ack.get("token") or {}
    return counts["token.move"][(token.get("id"), token.get("version"))]


def log_counts(log: Log) -> dict:
    def of(kind):
        return [r["data"] for r in log.rows if r["kind"] == kind]

    return {
        "chat": Counter(d.get("text") for d in of("chat")),
        "roll": Counter(d.get("roll_id") for d in of("roll")),
        "token.move": Counter((d["token"]["id"], d["token"]["version"]) for d in of("token.moved")),
    }


def intent_problems(client, log: Log, counts: dict) -> list[str]:
    problems = []
    for sent in client.intents.values():
        what = f"{client.name} {sent.kind} {sent.id} (sent {sent.sends}x)"
        acks = [a for a in sent.answers if a["type"] == "ack"]
        errors = [a.get("code") for a in sent.answers if a["type"] == "error"]
        if not acks:
            problems.append(f"{what}: " + (f"refused {errors}" if errors else "never answered"))
            continue
        first = {k: v for k, v in acks[0].items() if k != "repeat"}
        if any({k: v for k, v in a.items() if k != "repeat"} != first for a in acks[1:]):
            problems.append(f"{what}: its answers differ: {acks}")
        times = acted_on(sent, acks[0], log, counts)
        if times != 1:
            problems.append(f"{what}: {times} events in the log for it")
    return problems


def total_problems(clients, log: Log) -> list[str]:
    """Per user and kind: events in the log against intents acknowledged."""
    acked = Counter(
        (c.user["id"], EVENT_OF[s.kind])
        for c in clients
        for s in c.intents.values()
        if any(a["type"] == "ack" for a in s.answers)
    )
    resent = Counter(
        (c.user["id"], EVENT_OF[s.kind]) for c in clients for s in c.intents.values() if s.sends > 1
    )
    # The play session the first roll opened is the server's own event,
    # not an intent's (vtt.records.sessions).
    logged = Counter(
        (r["actor_id"], r["kind"])
        for r in log.rows
        if not (r["kind"] == "session.started" and r["actor_id"] is None)
    )
    problems = []
    for user, kind in sorted(set(acked) | set(logged), key=str):
        key = (user, kind)
        if acked[key] != logged[key]:
            problems.append(
                f"user {user}: {logged[key]} {kind} event(s) in the log for {acked[key]} "
                f"acknowledged intent(s), {resent[key]} of them sent more than once"
            )
    return problems


def test_every_intent_was_carried_out_exactly_once(run):
    played, log, figures = run
    counts = log_counts(log)
    problems = [p for c in played.clients for p in intent_problems(c, log, counts)]
    problems += total_problems(played.clients, log)
    assert not problems, (
        f"{len(problems)} intent(s) of {figures['intents_sent']} not carried out exactly once "
        f"({figures['re_sends']} re-sent, {figures['repeats_answered']} answered as repeats):"
        + listed(problems)
    )


# ------------------------------------------------------------ presence and recovery


def test_presence_is_right_on_every_client(run):
    played, _, _ = run
    seconds, wrong, bound = played.presence.get("at_the_end", (None, ["not got this far"], 0))
    earlier, _, earlier_bound = played.presence.get("after_worker_kill", (None, [], 0))
    after_kill = f"in {earlier} s" if earlier is not None else f"not within {earlier_bound} s"
    assert seconds is not None, (
        f"who is online was still wrong on {len(wrong)} client(s) {bound} s after the last "
        "member left (each view is the last snapshot/welcome `online` list plus presence "
        f"frames; after the leave that followed the worker kill they came right {after_kill}):"
        + listed(wrong)
    )


def test_connects_right_after_the_redis_restart_get_their_snapshot(run):
    played, _, _ = run
    assert played.probes, "the run did not get to the Redis restart"
    failed = [
        f"{worker}: {outcome}"
        for worker, outcomes in played.probes.items()
        for outcome in outcomes
        if outcome not in ("snapshot", "welcome")
    ]
    assert not failed, (
        f"{len(failed)} of {PROBES * len(played.probes)} new connections opened right after "
        "Redis came back got no snapshot:" + listed(failed)
    )


def test_every_client_recovered_from_each_fault(run):
    played, _, figures = run
    late = [
        f"{name}: not within {RECOVERY_BOUND} s"
        for name in (
            "seconds_to_join",
            "worker_kill_seconds_to_sync",
            "redis_kill_seconds_to_sync",
            "redis_kill_seconds_to_connects",
            "seconds_to_settle",
        )
        if figures.get(name) is None
    ]
    late += [f"{c.name} was closed with {c.stopped_by}" for c in played.clients if c.stopped_by]
    late += [f"{c.name} could not read a frame: {e}" for c in played.clients for e in c.errors]
    assert not late, "the room did not come back in sync after the faults:" + listed(late)


def test_a_rooms_sockets_through_nginx_share_a_worker_and_move_when_it_dies(run, stack):
    """deploy/nginx.conf sends every socket of a room to one worker (made
    worker 1 here, the one killed); when it dies, the tabs that came through
    nginx come back through nginx to the other."""
    played, _, _ = run
    first, other = (w.port for w in stack.workers)
    through = [c for c in played.clients if c.port == stack.nginx.port]
    assert through, "no tab connected through nginx"
    elsewhere = [f"{c.name}: {c.workers[:1]}" for c in through if c.workers[:1] != [first]]
    assert not elsewhere, (
        f"the room's worker is on port {first}, but tabs through nginx first reached "
        "another (or none):" + listed(elsewhere)
    )
    assert any(other in c.workers[1:] for c in through), (
        f"no tab through nginx came back on the other worker (port {other}) after worker 1 "
        f"died: {[(c.name, c.workers) for c in through]}"
    )
