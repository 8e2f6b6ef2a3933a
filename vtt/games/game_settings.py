"""A campaign's settings: the table's choices where the rules leave room
(RULES.md "make it a campaign setting when GMs would reasonably differ").
Each game declares its settings in its kit (vtt.games); this module fills
in the defaults and checks what a GM changes.

`clean_settings(game, data)` returns the complete settings, defaults filled
in, or raises ServiceError naming the field as `settings.<key>`."""

import copy

from vtt import games
from vtt.core import shapes


def defaults(game: str) -> dict:
    return {key: copy.deepcopy(s.default) for key, s in games.kit(game).settings.items()}


def clean_settings(game: str, data, base: dict | None = None) -> dict:
    """`data` over `base` (the current settings, or the game's defaults).
    A setting the base lacks (one a newer version added) takes its default."""
    if game not in games.KITS:
        raise shapes.invalid("game", f"must be one of {', '.join(games.ids())}")
    declared = games.kit(game).settings
    if data is None:
        data = {}
    shapes.obj(data, "settings", allowed=declared)
    clean = defaults(game) | copy.deepcopy(base or {})
    for key, value in data.items():
        clean[key] = declared[key].check(value, f"settings.{key}")
    return clean
