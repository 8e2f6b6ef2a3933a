"""What a demo campaign is made of, as plain data: each game's demo.py
(vtt/games/<game>/demo.py) fills these in, and vtt.demo gathers
them and lays them out through the services."""

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Figure:
    """A character with its token on the scene and its portrait."""

    name: str
    sheet: dict
    weapons: list
    at: tuple[int, int]  # the token's square
    colour: str  # the token's and the portrait's colour, #rrggbb
    emblem: str  # the portrait's sign: one of portraits.EMBLEMS
    kind: str = "pc"
    owner: str | None = None  # "player", or None for a PC waiting for one (or an NPC)
    gm_notes: str = ""


@dataclass(frozen=True)
class Map:
    """A scene: its size in squares, its walls and the painter of its background."""

    name: str
    width: int
    height: int
    walls: list
    paint: Callable[[], bytes] = field(repr=False)  # the background, JPEG or PNG bytes


@dataclass(frozen=True)
class Demo:
    campaign: str
    game: str
    scene: Map
    figures: tuple[Figure, ...]
    # The demos are laid out (and listed) by this number, lowest first.
    order: int = 0

    @property
    def pcs(self):
        return [f for f in self.figures if f.kind == "pc"]

    @property
    def npcs(self):
        return [f for f in self.figures if f.kind == "npc"]


def outline(points, closed: bool = True) -> list:
    """Wall segments joining `points` ((x, y) in squares) in turn, back to
    the first when `closed`."""
    ends = points[1:] + points[:1] if closed else points[1:]
    return [[*a, *b] for a, b in zip(points, ends, strict=False)]


def corners(x1, y1, x2, y2) -> list:
    """The four corners of a box, in turn."""
    return [(x1, y1), (x2, y1), (x2, y2), (x1, y2)]
