"""The registry of game kits. A game is one package here, and nothing outside
it names the game:

- `rules/`: its rules and odds, Django-free (vtt.rules finds them there);
- `kit.py`: its `KIT`, what the tabletop does with the rules (sheet,
  counters, wound track, combat chain, notation, log words...);
- `demo.py`: its demo campaign, a `DEMO` that `manage.py demo` lays out.

The kits load when first asked for, not when this package is imported, so
importing a game's rules loads no game's kit (only the base class, which
must be imported here, before `kit()` is defined: importing the submodule
`kit` later would put it in the function's place). `register(kit)` adds a kit (and its
rules) at run time, for a game defined elsewhere; it returns the function
that takes it away again."""

import importlib
import importlib.util
import pkgutil
import threading

from .kit import GameKit

_kits = None
_lock = threading.Lock()


def _games() -> list[str]:
    """The packages here: each is a game."""
    return sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg)


def _discover() -> dict:
    found = {}
    for name in _games():
        module = importlib.import_module(f"{__name__}.{name}.kit")
        kit = getattr(module, "KIT", None)
        if isinstance(kit, GameKit):
            found[kit.id] = kit
    return found


def _registry() -> dict:
    global _kits
    if _kits is None:
        with _lock:
            if _kits is None:
                _kits = _discover()
    return _kits


def __getattr__(name):
    # KITS is looked up when used: see the docstring.
    if name == "KITS":
        return _registry()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def kit(game: str) -> GameKit:
    """The kit of a stored campaign's game (a KeyError is a broken database)."""
    return _registry()[game]


def ids() -> list[str]:
    return sorted(_registry())


def choices() -> list[tuple[str, str]]:
    """(id, name) of every game, in name order, for a form's select."""
    kits = _registry().values()
    return sorted(((k.id, k.name) for k in kits), key=lambda pair: pair[1])


def demos() -> list:
    """Each game's demo campaign (vtt.games.demo.Demo), in no
    particular order; games without a demo.py have none."""
    found = []
    for name in _games():
        module = f"{__name__}.{name}.demo"
        if importlib.util.find_spec(module) is not None:
            found.append(importlib.import_module(module).DEMO)
    return found


def register(new: GameKit):
    """Offer another game until the returned function is called."""
    from vtt.rules.systems import SYSTEMS

    kits = _registry()
    if new.id in kits or new.id in SYSTEMS:
        raise ValueError(f"a game called {new.id} is registered already")
    kits[new.id] = new
    SYSTEMS[new.id] = new.system

    def unregister():
        kits.pop(new.id, None)
        SYSTEMS.pop(new.id, None)

    return unregister


__all__ = ["GameKit", "KITS", "choices", "demos", "ids", "kit", "register"]
