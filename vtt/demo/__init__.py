"""The demo campaigns `manage.py demo` lays out: one for each game, each
with a scene whose background the project draws (vtt/games/drawing.py),
walls that follow the drawing, player characters and NPCs with portraits
(portraits.py) and their tokens. Each game's content is in its own package
(vtt/games/<game>/demo.py, found through the game registry); build.py lays
a campaign out through the services."""

from vtt import games


def __getattr__(name):
    # DEMOS is gathered when first used, so importing build.py or
    # portraits.py loads no game's demo.
    if name == "DEMOS":
        return tuple(sorted(games.demos(), key=lambda demo: demo.order))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["DEMOS"]
