"""The parts of vtt/ and what each may import (docs/architecture.md). Read
from the source's import statements, so a new arrow fails here before it
is drawn anywhere else."""

import ast
from pathlib import Path

VTT = Path(__file__).resolve().parents[1] / "vtt"

# part -> the parts it may import. A part is a package under vtt/ (or a
# top-level module such as vtt.settings, which are the site's wiring).
ALLOWED = {
    "rules": set(),
    "games": {"rules", "tabletop.shapes", "tabletop.errors"},
    "tabletop": {"rules", "games"},
    "accounts": set(),
    "combat": {"rules", "games", "tabletop"},
    # The client's address behind the trusted proxies, as every door reads
    # it (a pure helper of accounts: no models, no views).
    "live": {"rules", "games", "tabletop", "combat", "accounts.client_address"},
    "api": {"rules", "games", "tabletop", "combat", "accounts"},
    "web": {"rules", "games", "tabletop", "combat", "accounts"},
}


def _imports(path: Path) -> set[str]:
    """The vtt modules a file imports, relative imports resolved."""
    module = list(path.relative_to(VTT.parent).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module[:-1]
    if path.name == "__init__.py":
        module = module[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module
            # Each name imported, so `from vtt.tabletop import shapes` is
            # an import of vtt.tabletop.shapes, not of all of vtt.tabletop.
            found.update(f"{name}.{alias.name}" for alias in node.names)
    return {name for name in found if name and name.startswith("vtt.")}


def _allowed(part: str, target: str, allowed: set) -> bool:
    inner = target.split(".", 1)[1] if "." in target else ""
    return any(inner == rule or inner.startswith(rule + ".") for rule in allowed)


def test_each_part_imports_only_what_it_may():
    wrong = []
    for path in sorted(VTT.rglob("*.py")):
        relative = path.relative_to(VTT).as_posix()
        part = relative.split("/")[0]
        if part not in ALLOWED or "/migrations/" in relative:
            continue
        for target in _imports(path):
            other = target.split(".")[1]
            if other == part or target in ("vtt", "vtt.settings"):
                continue
            if not _allowed(part, target, ALLOWED[part]):
                wrong.append(f"{relative} imports {target}")
    assert wrong == []


def test_the_rules_declared_form_no_cycle():
    graph = {part: {rule.split(".")[0] for rule in rules} for part, rules in ALLOWED.items()}
    graph["games"].discard("tabletop")  # two leaf modules with no imports of their own

    def visit(part, seen):
        assert part not in seen, f"cycle through {part}"
        for other in graph.get(part, ()):
            visit(other, seen | {part})

    for part in graph:
        visit(part, frozenset())


def test_the_leaf_modules_games_may_use_import_nothing_of_the_tabletop():
    for leaf in ("shapes.py", "errors.py"):
        imported = _imports(VTT / "tabletop" / leaf)
        assert {name for name in imported if not name.startswith("vtt.tabletop.errors.")} == set()
