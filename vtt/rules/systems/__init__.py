"""The registry of the games' rules. A game is a package of GAMES whose
`rules` subpackage defines `SYSTEM` (vtt/games/<game>/rules/, Django-free
like everything here); adding a sixth is one new package there, and nothing
in vtt.rules names a game.

The games are found on first use, not on import: a game's rules import
Action and System from here, so they cannot be loaded while this loads."""

import importlib
import importlib.util
import pkgutil
import threading
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field

# The one place vtt.rules learns where the games are.
GAMES = "vtt.games"


@dataclass(frozen=True)
class Action:
    """One thing a game can adjudicate.

    fields:   request fields (vtt.rules.schema) besides system, action, faces.
    resolve:  (clean request, Roller) -> result fields (no `dice`: the engine adds them).
    outcomes: every `outcome` the action can give, for the odds table.
    odds:     (clean request) -> {"outcomes": {...}, "truncated_mass": float, ...}.
    """

    fields: dict
    resolve: Callable
    outcomes: tuple
    odds: Callable | None = None


@dataclass(frozen=True)
class System:
    id: str
    name: str
    actions: dict = field(default_factory=dict)
    # A request the API's documentation shows (its fields, less `system`).
    example: dict | None = None


def _discover() -> dict:
    systems = {}
    games = importlib.util.find_spec(GAMES)
    for info in pkgutil.iter_modules(games.submodule_search_locations):
        name = f"{GAMES}.{info.name}.rules"
        if not info.ispkg or importlib.util.find_spec(name) is None:
            continue  # a module the games share, or a package with no rules
        system = getattr(importlib.import_module(name), "SYSTEM", None)
        if isinstance(system, System):
            systems[system.id] = system
    return dict(sorted(systems.items()))


class Systems(MutableMapping):
    """The games' System by id, in id order, found when first asked for.
    Mutable so that a game defined elsewhere (a test's) can be registered
    for a while (vtt.games.register)."""

    def __init__(self):
        self._found = None
        self._lock = threading.Lock()

    def _systems(self) -> dict:
        if self._found is None:
            with self._lock:
                if self._found is None:
                    self._found = _discover()
        return self._found

    def __getitem__(self, key):
        return self._systems()[key]

    def __setitem__(self, key, value):
        self._systems()[key] = value

    def __delitem__(self, key):
        del self._systems()[key]

    def __iter__(self):
        return iter(self._systems())

    def __len__(self):
        return len(self._systems())

    def __repr__(self):
        return f"Systems({self._systems()!r})"


SYSTEMS: MutableMapping[str, System] = Systems()
