"""The registry of game kits: each package here whose module defines `KIT`
is a game the tabletop offers. Adding a game is its rules module in
vtt.rules.systems plus one package here; nothing else names a game.

`register(kit)` adds a kit (and its rules) at run time, for a game defined
elsewhere; it returns the function that takes it away again."""

import importlib
import pkgutil

from vtt.rules.systems import SYSTEMS

from .kit import GameKit

KITS: dict[str, GameKit] = {}


def _discover() -> None:
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        found = getattr(module, "KIT", None)
        if isinstance(found, GameKit):
            KITS[found.id] = found


def kit(game: str) -> GameKit:
    """The kit of a stored campaign's game (a KeyError is a broken database)."""
    return KITS[game]


def ids() -> list[str]:
    return sorted(KITS)


def choices() -> list[tuple[str, str]]:
    """(id, name) of every game, in name order, for a form's select."""
    return sorted(((k.id, k.name) for k in KITS.values()), key=lambda pair: pair[1])


def register(new: GameKit):
    """Offer another game until the returned function is called."""
    if new.id in KITS or new.id in SYSTEMS:
        raise ValueError(f"a game called {new.id} is registered already")
    KITS[new.id] = new
    SYSTEMS[new.id] = new.system

    def unregister():
        KITS.pop(new.id, None)
        SYSTEMS.pop(new.id, None)

    return unregister


_discover()

__all__ = ["GameKit", "KITS", "choices", "ids", "kit", "register"]
