"""Artifice: "The Tomb". Tenrec, the player's human warrior, and Kobor, a
sorcerer waiting for a player, at the entrance of a tomb that a zombie and a
skeleton archer still guard."""

from vtt.games.demo import Demo, Figure, Map
from vtt.games.drawing import Canvas

TENREC = Figure(
    name="Tenrec",
    owner="player",
    sheet={
        "race": "Human",
        "class": "Warrior",
        "level": 1,
        "attributes": {"Strength": 3, "Dexterity": 2, "Intelligence": 2, "Will Power": 2},
        "abilities": {
            "Might": {"dice": 2, "kind": "class", "pips": 1},
            "Finesse": {"dice": 4, "kind": "class"},
            "Toughness": {"dice": 2},
            "Agility": {"dice": 2},
        },
        "skills": ["Swordsmanship"],
    },
    weapons=[{"name": "Long sword", "kind": "melee", "lethality": 2}],
    at=(3, 7),
    colour="#2b6cb0",
    emblem="sword",
)
KOBOR = Figure(
    name="Kobor",
    sheet={
        "race": "Human",
        "class": "Sorcerer",
        "level": 1,
        "attributes": {"Strength": 1, "Dexterity": 2, "Intelligence": 2, "Will Power": 3},
        "abilities": {
            "Arcanum": {"dice": 2, "kind": "class"},
            "Lore": {"dice": 2, "kind": "class"},
            "Perception": {"dice": 2},
        },
        "skills": ["Sorcery", "Old Tongue"],
    },
    weapons=[
        {"name": "Fire dart", "kind": "spell", "range_ft": 60, "lethality": 1},
        {"name": "Eye of ruin", "kind": "spell", "range_ft": "line_of_sight", "lethality": 2},
    ],
    at=(2, 8),
    colour="#6b46c1",
    emblem="star",
)
ZOMBIE = Figure(
    name="Zombie",
    kind="npc",
    sheet={
        "class": "Undead",
        "abilities": {
            "Agility": {"dice": 2},
            "Toughness": {"dice": 3},
            "Might": {"dice": 2},
            "Finesse": {"dice": 2},
        },
    },
    weapons=[{"name": "Claws", "kind": "melee", "lethality": 1}],
    gm_notes="Guards the entrance. Slow, but it does not stop at Incapacitated.",
    at=(14, 8),
    colour="#2f855a",
    emblem="skull",
)
SKELETON = Figure(
    name="Skeleton archer",
    kind="npc",
    sheet={
        "class": "Undead",
        "abilities": {
            "Agility": {"dice": 2},
            "Toughness": {"dice": 2},
            "Finesse": {"dice": 3},
            "Perception": {"dice": 2},
        },
    },
    weapons=[
        {"name": "Short bow", "kind": "missile", "range_ft": 60, "lethality": 1},
        {"name": "Bony fists", "kind": "melee", "lethality": 0},
    ],
    gm_notes="On the dais behind the sarcophagus; shoots at whoever enters the corridor.",
    at=(19, 4),
    colour="#a0aec0",
    emblem="bow",
)

WIDTH, HEIGHT = 24, 16
# The entrance: a corridor between two walls that opens into the tomb.
WALLS = [
    [0, 6, 10, 6],
    [0, 10, 10, 10],
    [10, 2, 10, 6],
    [10, 10, 10, 14],
    [10, 2, 22, 2],
    [10, 14, 22, 14],
    [22, 2, 22, 14],
]
FLOOR = [(0, 6, 10, 10), (10, 2, 22, 14)]


def paint() -> bytes:
    """Flagstones in the corridor and the chamber, living rock around them,
    a sarcophagus on its dais, two braziers and the bones of the unlucky."""
    c = Canvas(WIDTH, HEIGHT, seed="the tomb")
    c.fill((44, 40, 36), (78, 72, 64), cells=1.2)
    c.grain(0.4, cells=6)
    floor = c.rect_mask(*FLOOR)
    for box in FLOOR:
        c.flagstones(box, base=(128, 122, 112), mortar=(58, 54, 50), size=1.0)
    c.grain(0.3, cells=2, mask=floor)
    c.cracks((10, 2, 22, 14), (60, 56, 50), count=14)
    # The dais and the sarcophagus at the back of the chamber.
    c.draw.rectangle(c.box(17, 6, 21.5, 10), fill=(96, 90, 84), outline=(50, 46, 42), width=3)
    c.draw.rectangle(c.box(18, 7, 21, 9), fill=(150, 140, 120), outline=(70, 64, 56), width=3)
    c.draw.rectangle(c.box(18.3, 7.3, 20.7, 8.7), outline=(110, 100, 86), width=2)
    c.scatter(
        (10.5, 2.5, 21.5, 13.5),
        [(214, 206, 184), (190, 182, 160)],
        40,
        radius=(0.03, 0.09),
        keep_out=[(17, 6, 21.5, 10)],
    )
    c.scatter((0, 6.3, 10, 9.7), [(90, 110, 60), (70, 96, 50)], 60, radius=(0.05, 0.15))
    c.shade(c.wall_mask(WALLS, 0.4), radius=0.35, strength=0.55)
    c.walls(WALLS, fill=(92, 86, 80), edge=(24, 22, 20), thickness=0.35)
    for x, y in ((11, 3), (11, 13), (21, 3), (21, 13)):
        c.glow(x, y, 2.4, (255, 170, 60), 0.45, within=floor)
        c.draw.ellipse(
            c.box(x - 0.25, y - 0.25, x + 0.25, y + 0.25),
            fill=(255, 196, 90),
            outline=(60, 40, 20),
            width=3,
        )
    c.grid()
    return c.jpeg()


DEMO = Demo(
    campaign="The Tomb",
    game="artifice",
    scene=Map("Tomb entrance", WIDTH, HEIGHT, WALLS, paint),
    figures=(TENREC, KOBOR, ZOMBIE, SKELETON),
    # The Tomb first: it is the campaign the documentation walks through.
    order=1,
)
