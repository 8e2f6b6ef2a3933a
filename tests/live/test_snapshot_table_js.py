"""The browser's state.js decodes a snapshot's token table into exactly
the tokens token_data gives, field by field, and their markers, for the
GM and for a player (tests/live/test_snapshot_table.py for the server's
side)."""

import json

import pytest

from tests.live.conftest import make_room
from tests.live.test_snapshot_table import furnish, the_old_list, viewers
from tests.live.test_verify_events import state_js  # noqa: F401 (a fixture)
from vtt.live import room_reads

pytestmark = [pytest.mark.django_db, pytest.mark.browser]


def test_the_browser_decodes_the_table_into_the_tokens_of_the_list(state_js):  # noqa: F811
    room = make_room()
    furnish(room)
    for name, viewer in viewers(room).items():
        snapshot = json.loads(json.dumps(room_reads.snapshot(room.campaign_id, viewer)))
        state = state_js(snapshot, [])
        held = sorted(state["tokens"].values(), key=lambda t: t["id"])
        old = the_old_list(viewer, room.scene_id)
        # The markers each token brings are kept beside the tokens, by id.
        assert held == [{k: v for k, v in t.items() if k != "markers"} for t in old], name
        markers = sorted(state["markers"].values(), key=lambda m: m["id"])
        assert markers == sorted((m for t in old for m in t["markers"]), key=lambda m: m["id"])
        assert markers, name  # furnish marked tokens both of them see
