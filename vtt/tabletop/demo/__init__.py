"""The demo campaigns `manage.py demo` lays out: one for each game, each
with a scene whose background the project draws (drawing.py), walls that
follow the drawing, player characters and NPCs with portraits
(portraits.py) and their tokens. One module per game holds its content;
build.py lays a campaign out through the services."""

from . import apocalyptia, artifice, fgr, rd6, xerosum

# The Tomb first: it is the campaign the documentation walks through.
DEMOS = (artifice.DEMO, fgr.DEMO, xerosum.DEMO, rd6.DEMO, apocalyptia.DEMO)

__all__ = ["DEMOS"]
