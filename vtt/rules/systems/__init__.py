"""The registry of games. Every public module in this package that defines
`SYSTEM` is a game; adding a sixth is one new module."""

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field


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


def _discover() -> dict:
    systems = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):  # a game's private helpers, not a game
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        system = getattr(module, "SYSTEM", None)
        if isinstance(system, System):
            systems[system.id] = system
    return dict(sorted(systems.items()))


SYSTEMS: dict[str, System] = _discover()
