"""The browser's list of event kinds (static/js/room/kinds.js) is written
from the declarations, and the scripts name no kind that is not declared."""

import pathlib
import re

from vtt.live import kinds_js
from vtt.live.protocol import FORWARDING
from vtt.tabletop import event_kinds

ROOT = pathlib.Path(__file__).resolve().parents[2]
KINDS_JS = ROOT / "static/js/room/kinds.js"
# A dotted name an event's type is compared with, or a switch on it.
COMPARED = re.compile(r"""(?:case\s+|type\s*[!=]==?\s*)["']([a-z_]+\.[a-z_]+)["']""")


def test_the_file_is_written_from_the_declarations():
    assert KINDS_JS.read_text() == kinds_js.module_text(), (
        "static/js/room/kinds.js is stale: python -m vtt.live.kinds_js > static/js/room/kinds.js"
    )


def test_it_lists_every_declared_kind_and_nothing_else():
    listed = re.findall(r'^  "([^"]+)",$', KINDS_JS.read_text(), re.M)
    assert set(listed) == set(event_kinds.KINDS) | set(kinds_js.instead())
    assert len(listed) == len(set(listed))


def test_the_scripts_compare_event_types_only_with_declared_kinds():
    known = set(event_kinds.KINDS) | set(kinds_js.instead()) | set(FORWARDING)
    unknown = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in (ROOT / "static/js").rglob("*.js")
        for name in COMPARED.findall(path.read_text())
        if name not in known
    }
    assert unknown == set()
    # The pattern does find the kinds the room's state applies.
    state = COMPARED.findall((ROOT / "static/js/room/state.js").read_text())
    assert {"token.moved", "scene.activated", "encounter.turn"} <= set(state)
