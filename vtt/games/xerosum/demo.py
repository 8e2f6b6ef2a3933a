"""Xero Sum 2d6: "Dead Freight". Ash Okafor, the player's pilot, and
Dr. Imre Vey, a ship's doctor waiting for a player, board a drifting
freighter whose cargo deck a security drone and a scavenger have claimed."""

from PIL import Image, ImageChops

from vtt.games.demo import Demo, Figure, Map, outline
from vtt.games.drawing import Canvas

OKAFOR = Figure(
    name="Ash Okafor",
    owner="player",
    sheet={
        "attributes": {"Reason": 1, "Acumen": 2, "Physicality": 1, "Influence": 0, "Dexterity": 3},
        "skills": {
            "Firearms": {"attribute": "Dexterity", "smod": 2},
            "Piloting": {"attribute": "Dexterity", "smod": 3},
            "Initiative": {"attribute": "Acumen", "smod": 1},
        },
    },
    weapons=[
        {"name": "Needle pistol", "kind": "missile", "range_ft": 60, "damage": 3},
        {"name": "Survival knife", "kind": "melee", "damage": 2},
    ],
    at=(3, 7),
    colour="#3182ce",
    emblem="crosshair",
)
VEY = Figure(
    name="Dr. Imre Vey",
    sheet={
        "attributes": {"Reason": 3, "Acumen": 2, "Physicality": -1, "Influence": 1, "Dexterity": 0},
        "skills": {
            "Medicine": {"attribute": "Reason", "smod": 3},
            "Firearms": {"attribute": "Dexterity", "smod": 0},
            "Persuasion": {"attribute": "Influence", "smod": 1},
        },
    },
    weapons=[{"name": "Stun baton", "kind": "melee", "damage": 1}],
    at=(2, 9),
    colour="#d53f8c",
    emblem="cross",
)
DRONE = Figure(
    name="Security drone",
    kind="npc",
    sheet={
        "attributes": {"Reason": 0, "Acumen": 2, "Physicality": 2, "Influence": -2, "Dexterity": 2},
        "skills": {"Firearms": {"attribute": "Dexterity", "smod": 1}},
    },
    weapons=[{"name": "Turret gun", "kind": "missile", "range_ft": 90, "damage": 4}],
    gm_notes="Still obeys the dead captain's lockdown; shoots anyone without a crew badge.",
    at=(20, 8),
    colour="#e53e3e",
    emblem="gear",
)
SCAVENGER = Figure(
    name="Scavenger",
    kind="npc",
    sheet={
        "attributes": {"Reason": 0, "Acumen": 1, "Physicality": 2, "Influence": 1, "Dexterity": 1},
        "skills": {
            "Melee Combat": {"attribute": "Physicality", "smod": 2},
            "Firearms": {"attribute": "Dexterity", "smod": 0},
        },
    },
    weapons=[
        {"name": "Cutting torch", "kind": "melee", "damage": 3},
        {"name": "Scrap pistol", "kind": "missile", "range_ft": 40, "damage": 2},
    ],
    gm_notes="Hides behind the crates; would rather bargain than die for the cargo.",
    at=(14, 3),
    colour="#dd6b20",
    emblem="wrench",
)

WIDTH, HEIGHT = 26, 16
# The cargo deck: a hull tapering to the bow on the right, an airlock on the
# left where the party comes in, and a bulkhead with a door across the middle.
HULL = [(1, 2), (19, 2), (25, 6), (25, 10), (19, 14), (1, 14)]
WALLS = [
    *outline(HULL, closed=False),
    [1, 14, 1, 9.5],  # the hull's stern side, the airlock between
    [1, 6.5, 1, 2],
    [0, 6.5, 1, 6.5],  # the airlock's sides
    [0, 9.5, 1, 9.5],
    [17, 2, 17, 6.5],  # the bulkhead and its door
    [17, 9.5, 17, 14],
]
CRATES = [
    (6, 3, 2, 2),
    (8, 3, 1, 1),
    (6, 11, 3, 2),
    (12, 2.2, 2, 1.6),
    (12.5, 11, 2, 2),
    (10, 7, 1.5, 1.5),
]


def paint() -> bytes:
    """Riveted deck plates inside the hull, dark space and a faint starfield
    outside, hazard stripes at the airlock and the bulkhead door, crates
    lashed to the deck."""
    c = Canvas(WIDTH, HEIGHT, seed="dead freight")
    c.fill((6, 8, 16), (22, 26, 44), cells=0.5)
    c.scatter((0, 0, WIDTH, HEIGHT), [(240, 240, 255), (200, 210, 255)], 150, radius=(0.01, 0.03))
    deck = c.polygon_mask(HULL)
    plates = Canvas(WIDTH, HEIGHT, seed="dead freight plates")
    plates.fill((86, 94, 104), (120, 130, 140), cells=0.8)
    for y in range(2, HEIGHT - 2):
        for x in range(1 - y % 2, WIDTH, 2):
            plates.draw.rectangle(plates.box(x, y, x + 2, y + 1), outline=(58, 64, 72), width=2)
            for rx, ry in ((0.12, 0.12), (1.88, 0.12), (0.12, 0.88), (1.88, 0.88)):
                plates.draw.ellipse(
                    plates.box(x + rx - 0.03, y + ry - 0.03, x + rx + 0.03, y + ry + 0.03),
                    fill=(150, 158, 168),
                )
    c.paint(plates.image, deck)
    c.paint(c.texture((30, 40, 50), (60, 70, 80)), c.rect_mask((0, 6.5, 1, 9.5)))
    for x1, y1, x2, y2 in ((0, 6.5, 1.6, 9.5), (16.4, 6.5, 17.6, 9.5)):
        stripes, draw = c.mask()
        for k in range(-4, 12):
            draw.polygon(
                [
                    c.p(x1 + k * 0.5, y1),
                    c.p(x1 + k * 0.5 + 0.25, y1),
                    c.p(x1 + k * 0.5 + 3.25, y2),
                    c.p(x1 + k * 0.5 + 3, y2),
                ],
                fill=255,
            )
        stripes = ImageChops.multiply(stripes, c.rect_mask((x1, y1, x2, y2)))
        c.paint(Image.new("RGB", c.size, (222, 180, 40)), stripes)
    # Painted lane markings down the deck.
    for y in (5, 11):
        for x in range(2, 16, 2):
            c.draw.rectangle(c.box(x, y - 0.05, x + 1.2, y + 0.05), fill=(210, 200, 120))
    for x, y, w, h in CRATES:
        c.draw.rectangle(c.box(x + 0.12, y + 0.15, x + w + 0.12, y + h + 0.15), fill=(40, 44, 50))
        c.crate(x, y, w, h, wood=(176, 128, 70), edge=(96, 64, 32))
    # The console at the bow.
    c.draw.polygon(
        [c.p(21, 6.5), c.p(23, 7), c.p(23, 9), c.p(21, 9.5)],
        fill=(40, 60, 80),
        outline=(120, 200, 230),
        width=3,
    )
    c.glow(22, 8, 2, (90, 200, 255), 0.5, within=deck)
    c.walls(WALLS, fill=(150, 160, 172), edge=(30, 34, 40), thickness=0.3)
    c.grid((255, 255, 255), alpha=22)
    return c.jpeg()


DEMO = Demo(
    campaign="Dead Freight",
    game="xerosum",
    scene=Map("Cargo deck", WIDTH, HEIGHT, WALLS, paint),
    figures=(OKAFOR, VEY, DRONE, SCAVENGER),
    order=3,
)
