"""Snapshot reads asked for together are read once (vtt/live/admission.py):
sockets of one member that wait for their turn at the same time share the
read; one that asks after the read began gets a read of its own, so an
event between the two is never lost."""

import asyncio
import threading

import pytest
from django.db import connections, transaction

from tests.tabletop.helpers import chat_data
from vtt.live import admission, room_reads
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Campaign, Role
from vtt.tabletop.visibility import Viewer

pytestmark = pytest.mark.django_db(transaction=True)


class Reads:
    """room_reads.snapshot, counted; each read may be held after it has read."""

    def __init__(self):
        self.count = 0
        self.began = threading.Event()
        self.hold = threading.Event()
        self.hold.set()

    def snapshot(self, campaign_id, viewer, preview):
        self.count += 1
        state = room_reads.snapshot(campaign_id, viewer, preview)
        self.began.set()
        self.hold.wait(5)
        return state


@pytest.fixture
def turns(settings):
    settings.LIVE_SNAPSHOTS_PER_WORKER = 1
    settings.LIVE_SNAPSHOTS_PER_ROOM = 1
    return admission.Turns()


def gm_view(room):
    return (Viewer(room.users["gm"], Role.GM), None)


def wanted():
    return True


class WorkerHeld:
    """Another room's read holds the worker's only turn until `let_go()`;
    meanwhile sockets ask for their room's snapshot (`ask`), counted."""

    def __init__(self, turns, room):
        self.turns, self.room = turns, room
        self.busy = threading.Event()
        self.blocker = asyncio.ensure_future(turns.run(0, "other", wanted, self.busy.wait, 5))
        self.reads = Reads()

    def ask(self, view, still_wanted=wanted) -> asyncio.Future:
        campaign_id = self.room.campaign_id
        return asyncio.ensure_future(
            self.turns.run(campaign_id, view, still_wanted, self.reads.snapshot, campaign_id, *view)
        )

    async def let_go(self, asked: list) -> list:
        await asyncio.sleep(0.05)  # every socket is waiting for its turn now
        assert self.reads.count == 0
        self.busy.set()
        outcomes = await asyncio.gather(*asked, return_exceptions=True)
        await self.blocker
        return outcomes


def names(state) -> set:
    at = state["tokens"]["fields"].index("name")
    return {row[at] for row in state["tokens"]["rows"]}


async def test_sockets_of_one_member_waiting_together_share_one_read(room, turns):
    held = WorkerHeld(turns, room)
    view = gm_view(room)
    states = await held.let_go([held.ask(view) for _ in range(3)])
    assert held.reads.count == 1
    assert states[0]["seq"] > 0
    assert all(state is states[0] for state in states)


async def test_another_members_socket_gets_its_own_read(room, turns):
    held = WorkerHeld(turns, room)
    player = (Viewer(room.users["player"], Role.PLAYER), None)
    gm_state, player_state = await held.let_go([held.ask(gm_view(room)), held.ask(player)])
    assert held.reads.count == 2
    assert "Zombie" in names(gm_state) and "Zombie" not in names(player_state)


def append_chat(room) -> int:
    try:
        with transaction.atomic():
            campaign = Campaign.objects.get(pk=room.campaign_id)
            return append_event(campaign=campaign, kind="chat", data=chat_data("meanwhile")).seq
    finally:
        connections.close_all()


async def test_a_socket_asking_after_the_read_began_gets_a_read_with_what_came_since(room, turns):
    reads = Reads()
    reads.hold.clear()
    view = gm_view(room)
    first = asyncio.ensure_future(
        turns.run(room.campaign_id, view, wanted, reads.snapshot, room.campaign_id, *view)
    )
    assert await asyncio.to_thread(reads.began.wait, 5)
    # An event after the first read's seq, before the late socket asks: the
    # first read cannot carry it, and the late socket was not there to hear it.
    seq = await asyncio.to_thread(append_chat, room)
    late = asyncio.ensure_future(
        turns.run(room.campaign_id, view, wanted, reads.snapshot, room.campaign_id, *view)
    )
    await asyncio.sleep(0.05)
    reads.hold.set()
    first_state, late_state = await asyncio.gather(first, late)
    assert reads.count == 2
    assert first_state["seq"] == seq - 1
    assert late_state["seq"] == seq
    assert late_state["log"][-1]["seq"] == seq


async def test_a_read_whose_sockets_all_left_is_never_made(room, turns):
    held = WorkerHeld(turns, room)
    view = gm_view(room)
    here = {"one": True, "two": True}
    asked = [held.ask(view, lambda who=who: here[who]) for who in here]
    await asyncio.sleep(0.05)
    here["one"] = here["two"] = False
    asked[0].cancel()  # one socket stopped waiting; the other is closing
    outcomes = await held.let_go(asked)
    assert isinstance(outcomes[0], asyncio.CancelledError)
    assert isinstance(outcomes[1], admission.Gone)
    assert held.reads.count == 0
    assert turns.rooms == {} and turns.waiting_reads == {}


async def test_a_read_one_socket_left_still_reaches_the_other(room, turns):
    held = WorkerHeld(turns, room)
    view = gm_view(room)
    here = {"leaver": True, "stayer": True}
    asked = [held.ask(view, lambda who=who: here[who]) for who in here]
    await asyncio.sleep(0.05)
    here["leaver"] = False
    asked[0].cancel()
    outcomes = await held.let_go(asked)
    assert held.reads.count == 1
    assert outcomes[1]["seq"] > 0
