"""Who sees what and who may do what is decided in one module,
vtt/tabletop/policy.py (docs/security.md). Elsewhere a member's role may be
read to describe it (a serialised "role", the admin's listing), never to
decide: this walks the source for the places that still compare a role.

Python is read as a tree: a comparison with a `.role`, a `role` or a
`Role.<name>`, a read of `.is_gm`, and a query that filters or excludes by
`role=` are role checks. The browser's scripts are read as text, as a grep
would: `isGm`, `.role ===`/`!==`, and a test of a token's `controllers`.
Each place outside policy that does one must be in an allow-list below,
with its reason; the lists are strict, so a place that stops checking must
leave its list."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VTT = ROOT / "vtt"
JS = ROOT / "static" / "js"

# The module that decides, and the type it decides about (a Viewer's
# `is_gm` is defined there, read by policy).
POLICY = {"vtt/tabletop/policy.py", "vtt/tabletop/visibility.py"}

# (file, function) -> why the role is read there, and it is not a decision
# of who sees or may do something. Keep this short.
DESCRIBES = {
    ("vtt/games/rd6/log.py", "_wild_die"): "a die's role in a result (wild, explosion)",
    ("vtt/records/backup/restore.py", "preview_import"): (
        "sorts an archive's people: those with no role are not members"
    ),
    ("vtt/live/delivery.py", "Delivery.join"): "no role read at the join: the member was removed",
    ("vtt/live/delivery.py", "Delivery.membership_changed"): (
        "no role: removed; a role unlike the one held: seat the member again, and policy "
        "decides for the new viewer"
    ),
    ("vtt/tabletop/services/tokens.py", "token_move"): (
        "no role read with the locked row: not a member (policy decides for the viewer after)"
    ),
    ("vtt/tabletop/services/memberships.py", "membership_set_role"): (
        "the role being set: no change, or a demotion, which must keep the campaign a GM"
    ),
    ("vtt/web/admin.py", "MembershipForm.clean"): (
        "staff's form: the role being set is a demotion, which must keep the campaign a GM"
    ),
    ("vtt/web/views/gm.py", "member_role"): "the form's choice of a role, or to remove the member",
}

# (file, function) -> what is left to do: places that still decide by a role
# outside policy. Strict: the day a place is clean its mark must go.
PENDING: dict = {}

# Scripts: file -> why it reads a role or a token's controllers, and it is
# not a decision of what the member may do (those are served: `may` in the
# room's config, read by static/js/room/may.js).
JS_DESCRIBES = {
    "static/js/room/may.js": (
        "the one reader of the served capabilities: it applies the `tokens` reach the "
        "server decided to a token's controllers as they arrive"
    ),
    "static/js/room/token_dialog.js": (
        "the GM's token dialog edits a token's controllers, and labels a GM as such"
    ),
    "static/js/room/token_tools.js": "copies a token's controllers into its duplicate",
    "static/js/room/vision.js": (
        "fog's preview of a drag: whose eyes a sight group sees through (the tokens "
        "with controllers), replaced by the server's view"
    ),
    "static/js/replay/fog.js": (
        "a replay's fog: whose eyes a sight group saw through, as the live preview"
    ),
}
JS_PENDING = {}


def _is_role(node) -> bool:
    """Whether an expression is a role: `x.role`, `role`, `Role.GM`."""
    if isinstance(node, ast.Attribute):
        if node.attr == "role":
            return True
        return isinstance(node.value, ast.Name) and node.value.id == "Role"
    return isinstance(node, ast.Name) and node.id == "role"


def _checks(tree) -> list[tuple[str, int]]:
    """(enclosing function's qualified name, line) of each role check."""
    found = []

    def visit(node, scope):
        for child in ast.iter_child_nodes(node):
            inner = scope
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                inner = f"{scope}.{child.name}" if scope else child.name
            if isinstance(child, ast.Compare) and any(
                _is_role(side) for side in [child.left, *child.comparators]
            ):
                found.append((inner or "<module>", child.lineno))
            elif isinstance(child, ast.Attribute) and child.attr == "is_gm":
                found.append((inner or "<module>", child.lineno))
            elif (
                isinstance(child, ast.Call)
                and isinstance(child.func, ast.Attribute)
                and child.func.attr in {"filter", "exclude", "get"}
                and any(k.arg == "role" for k in child.keywords)
            ):
                found.append((inner or "<module>", child.lineno))
            visit(child, inner)

    visit(tree, "")
    return found


def _python_checks() -> dict[tuple[str, str], list[int]]:
    places: dict[tuple[str, str], list[int]] = {}
    for path in sorted(VTT.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name in POLICY or "/migrations/" in name:
            continue
        for scope, line in _checks(ast.parse(path.read_text())):
            places.setdefault((name, scope), []).append(line)
    return places


JS_CHECK = re.compile(r"\bisGm\b|\.role\s*[!=]==|\bcontrollers\b")


def _js_checks() -> dict[str, list[int]]:
    places: dict[str, list[int]] = {}
    for path in sorted(JS.rglob("*.js")):
        if "vendor" in path.parts:
            continue
        name = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if JS_CHECK.search(line) and not line.lstrip().startswith(("//", "*", "/*")):
                places.setdefault(name, []).append(number)
    return places


def test_the_walk_finds_a_role_check():
    """The walker itself: each form it looks for is found, a description is not."""
    source = (
        "def a(member):\n    return member.role == Role.GM\n"
        "def b(viewer):\n    return viewer.is_gm\n"
        "def c(q):\n    return q.exclude(role=Role.OBSERVER)\n"
        "def d(role):\n    return role in (Role.PLAYER,)\n"
        "def e(member):\n    return {'role': member.role}\n"
    )
    assert [scope for scope, _ in _checks(ast.parse(source))] == ["a", "b", "c", "d"]
    assert JS_CHECK.search('if (config.me.role === "gm")')
    assert JS_CHECK.search("this.isGm = x;")
    assert not JS_CHECK.search("class: `die role-${die.role}`")


def test_no_role_check_outside_policy():
    places = _python_checks()
    listed = {**DESCRIBES, **PENDING}
    unlisted = {
        f"{f}:{s} (lines {lines})" for (f, s), lines in places.items() if (f, s) not in listed
    }
    assert not unlisted, "a role is checked outside vtt/tabletop/policy.py: " + ", ".join(
        sorted(unlisted)
    )


def test_allow_lists_name_only_places_that_check():
    places = _python_checks()
    stale = [place for place in {**DESCRIBES, **PENDING} if place not in places]
    assert not stale, f"no longer checks a role, take it off the list: {sorted(stale)}"
    assert not set(DESCRIBES) & set(PENDING)


def test_no_script_decides_by_role():
    places = _js_checks()
    listed = {**JS_DESCRIBES, **JS_PENDING}
    unlisted = {f"{f} (lines {lines})" for f, lines in places.items() if f not in listed}
    assert not unlisted, "a script decides by role or controllers: " + ", ".join(sorted(unlisted))
    stale = [f for f in listed if f not in places]
    assert not stale, f"no longer checks a role, take it off the list: {sorted(stale)}"
