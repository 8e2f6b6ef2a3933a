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
    # The value bounds and the service refusals every part shares.
    "core": set(),
    # The database plumbing of the busiest writes (rows, transactions).
    "db": set(),
    "games": {"rules", "core"},
    "pictures": {"core"},
    # Django's PostgreSQL backend with its bulk writes split (settings name it).
    "postgresql": set(),
    "tabletop": {"rules", "games", "core", "db", "pictures"},
    # Above the table: append_event calls the annotator fog registers.
    "fog": {"rules", "core", "tabletop"},
    "records": {"rules", "games", "core", "pictures", "tabletop", "areas", "drawings"},
    # The dice thrown at the table: rolls and the play sessions they draw from.
    "dice": {"rules", "games", "core", "db", "tabletop"},
    # Status markers on tokens.
    "markers": {"rules", "games", "core", "tabletop"},
    # What the GM hands the players.
    "handouts": {"rules", "core", "db", "pictures", "tabletop"},
    # The GM's links to watch a room read-only.
    "spectators": {"core", "tabletop"},
    # Area templates on the map: what they cover, placing and removing them.
    "areas": {"rules", "core", "tabletop"},
    # Drawings on the map: fog decides who sees one under it.
    "drawings": {"rules", "core", "db", "tabletop", "fog"},
    # The map as the GM makes it: imported files, segment edits.
    "maps": {"rules", "core", "pictures", "tabletop"},
    "accounts": set(),
    "combat": {"rules", "games", "core", "db", "tabletop", "fog", "dice", "markers", "areas"},
    # The client's address behind the trusted proxies, as every door reads
    # it (a pure helper of accounts: no models, no views).
    "live": {
        "rules",
        "games",
        "core",
        "db",
        "tabletop",
        "fog",
        "combat",
        "dice",
        "maps",
        "markers",
        "spectators",
        "areas",
        "drawings",
        "accounts.client_address",
    },
    "api": {
        "rules",
        "games",
        "core",
        "pictures",
        "tabletop",
        "fog",
        "records",
        "combat",
        "dice",
        "maps",
        "handouts",
        "markers",
        "areas",
        "drawings",
        "accounts",
        "spectators",
    },
    "web": {
        "rules",
        "games",
        "core",
        "pictures",
        "tabletop",
        "fog",
        "records",
        "combat",
        "dice",
        "maps",
        "markers",
        "accounts",
        "spectators",
    },
    # The demo campaigns, laid out through the table's services; nothing
    # imports it (its command, `manage.py demo`, is its only door).
    "demo": {"games", "tabletop"},
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
            # Each name imported, so `from vtt.core import shapes` is an
            # import of vtt.core.shapes, not of all of vtt.core.
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


def test_every_package_is_a_part():
    """A new package under vtt/ says what it may import, or nothing here
    would check it."""
    packages = {path.parent.name for path in VTT.glob("*/__init__.py")}
    assert packages - set(ALLOWED) == set()


def test_the_rules_declared_form_no_cycle():
    graph = {part: {rule.split(".")[0] for rule in rules} for part, rules in ALLOWED.items()}

    def visit(part, seen):
        assert part not in seen, f"cycle through {part}"
        for other in graph.get(part, ()):
            visit(other, seen | {part})

    for part in graph:
        visit(part, frozenset())


def test_core_imports_nothing_of_vtt_but_itself():
    for path in sorted((VTT / "core").rglob("*.py")):
        imported = _imports(path)
        assert {name for name in imported if not name.startswith("vtt.core.")} == set(), path


def test_games_import_nothing_of_the_tabletop():
    for path in sorted((VTT / "games").rglob("*.py")):
        assert {name for name in _imports(path) if name.startswith("vtt.tabletop")} == set(), path


def _modules() -> dict[str, Path]:
    """Every module of vtt/ by its dotted name (a package by its own)."""
    found = {}
    for path in sorted(VTT.rglob("*.py")):
        parts = list(path.relative_to(VTT.parent).with_suffix("").parts)
        if "migrations" not in parts:
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def test_no_module_imports_itself_through_others():
    """Module by module, imports inside functions too: a cycle put off to
    run time is still one (vision and fog_drawing were)."""
    modules = _modules()

    def module_of(name: str) -> str:
        while name and name not in modules:  # a name defined in a module: the module
            name = name.rpartition(".")[0]
        return name

    graph = {
        module: {module_of(name) for name in _imports(path)} - {module, "vtt", ""}
        for module, path in modules.items()
    }
    done: set[str] = set()

    def visit(module, path):
        assert module not in path, "import cycle: " + " -> ".join([*path, module])
        if module in done:
            return
        for other in sorted(graph[module]):
            visit(other, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
