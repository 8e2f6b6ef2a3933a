"""Rd6: "Dock Street". Mags Dunleavy, the player's two-fisted reporter, and
Professor Hale, an occultist waiting for a player, walk into a smugglers'
deal on the waterfront at night."""

from PIL import Image

from vtt.games.demo import Demo, Figure, Map
from vtt.games.drawing import Canvas

DUNLEAVY = Figure(
    name="Mags Dunleavy",
    owner="player",
    sheet={
        "attributes": {
            "Agility": "3D+1",
            "Strength": "3D",
            "Perception": "3D+2",
            "Knowledge": "2D",
        },
        "skills": {
            "Brawling": {"attribute": "Strength", "code": "4D+1"},
            "Firearms": {"attribute": "Agility", "code": "4D"},
            "Dodge": {"attribute": "Agility", "code": "4D"},
            "Investigation": {"attribute": "Perception", "code": "5D"},
        },
    },
    weapons=[
        {"name": ".38 revolver", "kind": "missile", "range_ft": 75, "damage": "3D+1"},
        {"name": "Fists", "kind": "melee", "damage": "1D+2"},
    ],
    at=(2, 7),
    colour="#2c7a7b",
    emblem="fist",
)
HALE = Figure(
    name="Professor Hale",
    sheet={
        "attributes": {"Agility": "2D", "Strength": "2D", "Perception": "3D", "Knowledge": "4D+1"},
        "skills": {
            "Magic": {"attribute": "Knowledge", "code": "5D"},
            "Occult Lore": {"attribute": "Knowledge", "code": "6D"},
            "Dodge": {"attribute": "Agility", "code": "2D+2"},
        },
    },
    weapons=[
        {"name": "Warding sign", "kind": "spell", "range_ft": 30, "damage": "3D"},
        {"name": "Walking cane", "kind": "melee", "damage": "1D+1"},
    ],
    at=(1, 9),
    colour="#805ad5",
    emblem="eye",
)
THUG = Figure(
    name="Dockside thug",
    kind="npc",
    sheet={
        "attributes": {
            "Agility": "2D+2",
            "Strength": "3D+2",
            "Perception": "2D",
            "Knowledge": "1D",
        },
        "skills": {
            "Brawling": {"attribute": "Strength", "code": "4D+2"},
            "Melee Combat": {"attribute": "Agility", "code": "3D+2"},
        },
    },
    weapons=[{"name": "Lead pipe", "kind": "melee", "damage": "2D+2"}],
    gm_notes="Paid to keep people off the pier; runs if the gunman goes down.",
    at=(12, 8),
    colour="#718096",
    emblem="fist",
)
GUNMAN = Figure(
    name="Gang gunman",
    kind="npc",
    sheet={
        "attributes": {
            "Agility": "3D+1",
            "Strength": "2D+1",
            "Perception": "3D",
            "Knowledge": "2D",
        },
        "skills": {
            "Firearms": {"attribute": "Agility", "code": "4D+2"},
            "Dodge": {"attribute": "Agility", "code": "3D+2"},
        },
    },
    weapons=[{"name": "Tommy gun", "kind": "missile", "range_ft": 120, "damage": "4D+2"}],
    gm_notes="Behind the crates on the pier, watching the boat.",
    at=(18, 12),
    colour="#1a202c",
    emblem="crosshair",
)

WIDTH, HEIGHT = 24, 16
# Two buildings on the north side with an alley between them, each with a
# door on the street; the pier's shed on the south side, open to the water.
WAREHOUSE = (0, 0, 11, 5)
HOTEL = (13, 0, 24, 5)
SHED = (3, 11, 9, 14)
WALLS = [
    [11, 0, 11, 5],  # the warehouse: its side on the alley and its front
    [0, 5, 4, 5],
    [5.5, 5, 11, 5],
    [13, 0, 13, 5],  # the hotel
    [13, 5, 18, 5],
    [19.5, 5, 24, 5],
    [3, 11, 6, 11],  # the shed: a door on the street, open to the west
    [7, 11, 9, 11],
    [9, 11, 9, 14],
    [3, 14, 9, 14],
]


def paint() -> bytes:
    """Slate roofs, a cobbled street under two gas lamps, the boards of the
    pier and black water, all in the blue of a night on the docks."""
    c = Canvas(WIDTH, HEIGHT, seed="dock street")
    c.flagstones((0, 5, WIDTH, 11), base=(92, 88, 84), mortar=(40, 38, 36), size=0.45, wobble=0.04)
    c.grain(0.3, cells=3)
    c.fill((50, 60, 72), (80, 90, 104), mask=c.rect_mask((11, 0, 13, 5)), cells=2)
    for roof, base in ((WAREHOUSE, (70, 72, 84)), (HOTEL, (110, 60, 50))):
        c.planks(roof, base, seam=(30, 30, 36), width=0.5)
    c.grain(0.25, cells=4, mask=c.rect_mask(WAREHOUSE, HOTEL))
    water = c.rect_mask((0, 14, WIDTH, HEIGHT))
    c.planks((0, 11, WIDTH, 14), (120, 92, 64), seam=(50, 38, 28), width=0.5, vertical=True)
    c.paint(c.texture((10, 24, 40), (30, 60, 84), cells=1.5), water)
    c.planks(SHED, (96, 74, 56), seam=(40, 30, 22), width=0.5)
    for x in range(1, WIDTH, 3):
        c.draw.ellipse(
            c.box(x - 0.2, 13.8, x + 0.2, 14.2), fill=(70, 52, 36), outline=(30, 22, 16), width=2
        )
    for x, y, w, h in ((16, 11.3, 1.5, 1.5), (17.5, 11.3, 1, 1), (20, 11.3, 1.5, 1.2)):
        c.crate(x, y, w, h, wood=(160, 118, 70), edge=(80, 56, 30))
    # Night over everything, then the lamps' light on the street.
    c.paint(Image.blend(c.image, Image.new("RGB", c.size, (10, 16, 40)), 0.45))
    street = c.rect_mask((0, 5, WIDTH, 14))
    for x, y in ((7, 5.6), (17, 10.4)):
        c.glow(x, y, 3.2, (255, 210, 130), 0.6, within=street)
        c.draw.ellipse(
            c.box(x - 0.18, y - 0.18, x + 0.18, y + 0.18),
            fill=(255, 236, 170),
            outline=(30, 30, 30),
            width=3,
        )
    c.shade(c.wall_mask(WALLS, 0.4), radius=0.3, strength=0.5)
    c.walls(WALLS, fill=(120, 100, 86), edge=(24, 20, 18), thickness=0.35)
    c.grid((255, 255, 255), alpha=18)
    return c.jpeg()


DEMO = Demo(
    campaign="Dock Street",
    game="rd6",
    scene=Map("Dock Street at night", WIDTH, HEIGHT, WALLS, paint),
    figures=(DUNLEAVY, HALE, THUG, GUNMAN),
    order=4,
)
