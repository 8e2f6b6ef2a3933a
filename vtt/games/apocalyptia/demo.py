"""Apocalyptia: "Route 9". Rook, the player's scavenger, and Juno Reyes, a
medic waiting for a player, pull in at a gas station long since looted, where
a raider and a shambling zombie are already waiting."""

from PIL import Image

from vtt.games.demo import Demo, Figure, Map, corners, outline
from vtt.games.drawing import Canvas

ROOK = Figure(
    name="Rook",
    owner="player",
    sheet={
        "traits": {"Agility": 5, "Brains": 2, "Constitution": 4, "Demeanor": 2},
        "skills": {
            "Melee": {"trait": "Agility", "level": 4},
            "Dodge": {"trait": "Agility", "level": 2},
            "Block": {"trait": "Agility", "level": 2},
            "Scrounge": {"trait": "Brains", "level": 2},
        },
    },
    weapons=[
        {"name": "Machete", "kind": "melee", "damage": 3},
        {"name": "Thrown hatchet", "kind": "missile", "range_ft": 20, "damage": 2},
    ],
    at=(6, 13),
    colour="#b7791f",
    emblem="dagger",
)
REYES = Figure(
    name="Juno Reyes",
    sheet={
        "traits": {"Agility": 3, "Brains": 5, "Constitution": 2, "Demeanor": 4},
        "skills": {
            "Medicine": {"trait": "Brains", "level": 4},
            "Projectile": {"trait": "Agility", "level": 3},
            "Dodge": {"trait": "Agility", "level": 2},
        },
    },
    weapons=[
        {"name": "Hunting rifle", "kind": "missile", "range_ft": 150, "damage": 4},
        {"name": "Crowbar", "kind": "melee", "damage": 2},
    ],
    at=(8, 14),
    colour="#319795",
    emblem="cross",
)
RAIDER = Figure(
    name="Raider",
    kind="npc",
    sheet={
        "traits": {"Agility": 4, "Brains": 2, "Constitution": 3, "Demeanor": 3},
        "skills": {
            "Projectile": {"trait": "Agility", "level": 3},
            "Melee": {"trait": "Agility", "level": 2},
            "Dodge": {"trait": "Agility", "level": 1},
        },
    },
    weapons=[
        {"name": "Sawn-off shotgun", "kind": "missile", "range_ft": 30, "damage": 4},
        {"name": "Tyre iron", "kind": "melee", "damage": 2},
    ],
    gm_notes="Crouched behind the wrecked car; wants the players' fuel, not their lives.",
    at=(16, 7),
    colour="#c53030",
    emblem="skull",
)
SHAMBLER = Figure(
    name="Shambler",
    kind="npc",
    sheet={
        "traits": {"Agility": 2, "Brains": 1, "Constitution": 4, "Demeanor": 1},
        "skills": {
            "Melee": {"trait": "Agility", "level": 2},
            "Block": {"trait": "Agility", "level": 1},
        },
    },
    weapons=[{"name": "Bite", "kind": "melee", "damage": 2}],
    gm_notes="Lurches about the station's shop, between the counter and the front door.",
    at=(7, 5),
    colour="#4a5568",
    emblem="skull",
)

WIDTH, HEIGHT = 24, 17
# The station: a shop with a front door and a back room behind a door; the
# pump island under the (open) canopy; a wrecked car on the forecourt.
SHOP = (2, 1, 11, 7)
ISLAND = (14, 3, 19, 4)
CAR = (15, 8.5, 18.5, 10.3)
SHOP_WALLS = [
    [2, 1, 11, 1],
    [2, 1, 2, 7],
    [11, 1, 11, 7],
    [2, 7, 6, 7],  # the front, its door between x 6 and 7.5
    [7.5, 7, 11, 7],
    [2, 4, 4, 4],  # the back room and its door
    [5, 4, 6, 4],
    [6, 1, 6, 4],
]
ISLAND_WALLS = outline(corners(*ISLAND))
CAR_WALLS = outline(corners(*CAR))  # the wrecked car's body is cover
WALLS = SHOP_WALLS + ISLAND_WALLS + CAR_WALLS
ROAD = (0, 12, WIDTH, 16)


def paint() -> bytes:
    """Cracked, weed-grown asphalt, dry earth round the edges, the highway
    below with its faded centre line, the shop's dusty floor, the pumps and
    a rusted car, all under a dust-yellow sky's light."""
    c = Canvas(WIDTH, HEIGHT, seed="route 9")
    c.fill((150, 126, 90), (196, 172, 128), cells=1.0)
    c.grain(0.2, cells=5)
    lot = c.rect_mask((0, 7.5, WIDTH, 12), (12, 0.5, 22, 7.5))
    c.paint(c.texture((70, 70, 70), (112, 110, 104), cells=2), lot)
    c.paint(c.texture((52, 52, 54), (84, 84, 86), cells=3), c.rect_mask(ROAD))
    for x in range(0, WIDTH, 3):
        c.draw.rectangle(c.box(x + 0.3, 13.93, x + 1.8, 14.07), fill=(190, 160, 60))
    c.cracks((0, 7.5, WIDTH, 16), (36, 36, 36), count=40, length=1.6)
    c.scatter(
        (0, 7, WIDTH, 16.5),
        [(110, 120, 50), (90, 106, 44), (130, 130, 60)],
        160,
        radius=(0.05, 0.2),
        keep_out=[ROAD],
    )
    c.flagstones(SHOP, base=(164, 156, 140), mortar=(110, 104, 94), size=0.5, wobble=0.02)
    c.grain(0.35, cells=3, mask=c.rect_mask(SHOP))
    c.scatter((2.3, 1.3, 10.7, 6.7), [(120, 96, 70), (90, 80, 70)], 50, radius=(0.05, 0.2))
    c.draw.rectangle(c.box(7.5, 1.3, 10.6, 2.2), fill=(96, 70, 50), outline=(50, 36, 24), width=3)
    # The canopy's shadow over the island, the island and its two pumps.
    c.paint(
        Image.blend(c.image, Image.new("RGB", c.size, (0, 0, 0)), 0.3),
        c.rect_mask((12.5, 1.5, 20.5, 5.5)),
    )
    c.draw.rectangle(c.box(*ISLAND), fill=(170, 166, 156))
    for x in (15, 17.2):
        c.draw.rectangle(
            c.box(x, 3.15, x + 0.8, 3.85), fill=(180, 40, 36), outline=(60, 10, 10), width=2
        )
    c.shade(c.wall_mask(WALLS, 0.5), radius=0.35, strength=0.45)
    # The car: rust under the body, the windscreen showing where the front is.
    c.draw.rounded_rectangle(c.box(*CAR), radius=12, fill=(130, 70, 40))
    c.draw.rectangle(
        c.box(CAR[0] + 0.9, CAR[1] + 0.25, CAR[0] + 1.4, CAR[3] - 0.25), fill=(70, 90, 100)
    )
    c.walls(SHOP_WALLS, fill=(176, 160, 132), edge=(60, 50, 40), thickness=0.3)
    c.walls(ISLAND_WALLS, fill=(150, 146, 136), edge=(60, 56, 50), thickness=0.15)
    c.walls(CAR_WALLS, fill=(110, 56, 32), edge=(50, 24, 14), thickness=0.15)
    c.grid()
    return c.jpeg()


DEMO = Demo(
    campaign="Route 9",
    game="apocalyptia",
    scene=Map("The old gas station", WIDTH, HEIGHT, WALLS, paint),
    figures=(ROOK, REYES, RAIDER, SHAMBLER),
    order=5,
)
