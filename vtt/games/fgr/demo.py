"""Fantasy Ground Rules: "The Goblin Shrine". Brannoc, the player's
sell-sword, and Ysolde, a hedge witch waiting for a player, come out of the
wood into a clearing where goblins have made a ruined shrine their den."""

from vtt.games.demo import Demo, Figure, Map, outline
from vtt.games.drawing import Canvas

BRANNOC = Figure(
    name="Brannoc",
    owner="player",
    sheet={"skills": {"Melee": 4, "Archery": 2, "Awareness": 3, "Athletics": 3}},
    weapons=[
        {"name": "Broadsword", "kind": "melee", "damage": 3},
        {"name": "Hunting bow", "kind": "missile", "range_ft": 80, "damage": 2},
    ],
    at=(11, 15),
    colour="#c05621",
    emblem="sword",
)
YSOLDE = Figure(
    name="Ysolde",
    sheet={"skills": {"Spellcasting": 4, "Herb Lore": 3, "Awareness": 2, "Melee": 1}},
    weapons=[
        {"name": "Thorn lash", "kind": "spell", "range_ft": 30, "damage": 2},
        {"name": "Sickle", "kind": "melee", "damage": 1},
    ],
    at=(13, 16),
    colour="#38a169",
    emblem="leaf",
)
CUTTHROAT = Figure(
    name="Goblin cutthroat",
    kind="npc",
    sheet={"skills": {"Melee": 2, "Stealth": 3, "Awareness": 2}},
    weapons=[{"name": "Rusty knife", "kind": "melee", "damage": 1}],
    gm_notes="Waits inside the shrine's broken door; flees when the archer falls.",
    at=(11, 8),
    colour="#744210",
    emblem="dagger",
)
ARCHER = Figure(
    name="Goblin archer",
    kind="npc",
    sheet={"skills": {"Archery": 3, "Melee": 1, "Awareness": 3}},
    weapons=[
        {"name": "Short bow", "kind": "missile", "range_ft": 60, "damage": 2},
        {"name": "Club", "kind": "melee", "damage": 1},
    ],
    gm_notes="Shoots from the shrine's north window.",
    at=(14, 4),
    colour="#975a16",
    emblem="bow",
)

WIDTH, HEIGHT = 24, 18
# The ruined shrine: a room of 8 x 6 squares whose south wall has a broken
# door and whose east wall has fallen in; a lone standing stone to the west.
SHRINE = (8, 3, 16, 9)
STONE = [(4, 11), (5, 11.5), (4.5, 12.5)]
WALLS = [
    [8, 3, 16, 3],  # north
    [8, 3, 8, 9],  # west
    [8, 9, 10.5, 9],  # south, left of the door
    [12.5, 9, 16, 9],  # south, right of the door
    [16, 3, 16, 5],  # east, what still stands
    [16, 7.5, 16, 9],
    *outline(STONE),  # the standing stone
]
TREES = [
    (1, 1, 1.6),
    (4, 0.5, 1.4),
    (7, 1, 1.0),
    (19, 1, 1.5),
    (22.5, 2, 1.6),
    (1, 5, 1.5),
    (22.5, 6, 1.4),
    (1.2, 9, 1.3),
    (22.8, 10, 1.5),
    (1, 14, 1.5),
    (3.5, 17, 1.4),
    (20, 16.5, 1.6),
    (23, 14, 1.3),
    (17.5, 1, 1.0),
    (6.5, 17.4, 1.0),
    (21, 12.7, 1.0),
]


def paint() -> bytes:
    """Grass in the clearing, a dirt path from the south, the shrine's
    paving inside its broken walls, and the wood crowding the edges."""
    c = Canvas(WIDTH, HEIGHT, seed="the goblin shrine")
    c.fill((58, 92, 40), (110, 150, 70), cells=1.0)
    c.grain(0.25, cells=5)
    path = c.polygon_mask([(10, 18), (14.5, 18), (13.5, 13), (12.5, 9), (10.5, 9), (10.5, 13)])
    c.paint(c.texture((104, 80, 52), (160, 130, 90), cells=2), path)
    inside = c.rect_mask(SHRINE)
    c.flagstones(SHRINE, base=(140, 136, 126), mortar=(74, 70, 62), size=0.9)
    c.grain(0.3, cells=2, mask=inside)
    # Grass and rubble where the east wall fell.
    c.scatter((14.5, 5, 17.5, 7.5), [(120, 116, 108), (96, 92, 86)], 30, radius=(0.1, 0.3))
    c.scatter((8.3, 3.3, 15.7, 8.7), [(80, 120, 50), (96, 136, 60)], 40, radius=(0.05, 0.15))
    # An altar against the north wall.
    c.draw.rectangle(c.box(11, 3.4, 13, 4.2), fill=(170, 164, 150), outline=(70, 66, 60), width=3)
    c.scatter(
        (0, 0, WIDTH, HEIGHT),
        [(160, 60, 60), (230, 210, 90), (240, 240, 240)],
        90,
        radius=(0.03, 0.06),
        keep_out=[SHRINE],
    )
    c.shade(c.wall_mask(WALLS, 0.4), radius=0.3, strength=0.5)
    c.draw.polygon([c.p(x, y) for x, y in STONE], fill=(150, 146, 136))
    c.walls(WALLS, fill=(150, 146, 136), edge=(56, 52, 48), thickness=0.35)
    for x, y, r in TREES:
        c.tree(x, y, r, leaf=(52, 100, 40), dark=(26, 60, 26))
    c.grid()
    return c.jpeg()


DEMO = Demo(
    campaign="The Goblin Shrine",
    game="fgr",
    scene=Map("Forest clearing", WIDTH, HEIGHT, WALLS, paint),
    figures=(BRANNOC, YSOLDE, CUTTHROAT, ARCHER),
    order=2,
)
