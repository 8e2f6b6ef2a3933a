"""Character portraits drawn with Pillow: a disc in the character's colour,
a head-and-shoulders silhouette, the sign of what they are (sword, star,
skull...) and their initials. The same character always gets the same
picture; the shade of the background comes from the name, so two
characters with one colour and one sign still differ."""

import hashlib
import io
import math

from PIL import Image, ImageColor, ImageDraw, ImageFont

SIZE = 256
EMBLEMS = (
    "sword", "star", "skull", "bow", "leaf", "dagger", "crosshair", "cross", "gear", "wrench",
    "fist", "eye",
)  # fmt: skip


def initials(name: str) -> str:
    """'Dr. Imre Vey' -> 'IV', 'Goblin archer' -> 'GA', 'Kobor' -> 'KO'."""
    words = [w for w in name.replace("-", " ").split() if w[0].isalnum() and not w.endswith(".")]
    words = words or [name]
    if len(words) == 1:
        return words[0][:2].upper()
    return (words[0][0] + words[-1][0]).upper()


def _shade(rgb, t: float) -> tuple:
    """Towards white for t > 0, towards black for t < 0."""
    end = 255 if t > 0 else 0
    return tuple(round(c + (end - c) * abs(t)) for c in rgb)


def portrait(name: str, colour: str, emblem: str) -> bytes:
    """A SIZE x SIZE PNG for the character `name`."""
    if emblem not in EMBLEMS:
        raise ValueError(f"no emblem called {emblem!r}")
    base = ImageColor.getrgb(colour)
    digest = hashlib.sha256(name.encode()).digest()
    tilt = (digest[0] / 255 - 0.5) * 0.3  # the name's own shade of the colour
    scale = 3  # drawn large and shrunk, for smooth edges
    s = SIZE * scale
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    # The disc: rings from light in the middle to dark at the rim.
    for i in range(24, 0, -1):
        r = s / 2 * i / 24
        tone = _shade(base, 0.35 + tilt - 0.75 * (i / 24))
        draw.ellipse([s / 2 - r, s / 2 - r, s / 2 + r, s / 2 + r], fill=tone)
    # The silhouette, cut to the disc.
    figure = Image.new("L", (s, s), 0)
    body = ImageDraw.Draw(figure)
    u = s / 16
    body.ellipse([5.3 * u, 3.2 * u, 10.7 * u, 9.2 * u], fill=255)  # head
    body.rectangle([7 * u, 8.5 * u, 9 * u, 10.5 * u], fill=255)  # neck
    body.ellipse([2.2 * u, 9.8 * u, 13.8 * u, 19 * u], fill=255)  # shoulders
    disc = Image.new("L", (s, s), 0)
    ImageDraw.Draw(disc).ellipse([0, 0, s - 1, s - 1], fill=255)
    cut = Image.composite(figure, Image.new("L", (s, s), 0), disc)
    image.paste(_shade(base, -0.65), (0, 0), cut)
    # The emblem on a badge at the lower right, the initials on the chest.
    badge = (11.6 * u, 11.6 * u)
    draw.ellipse(
        [badge[0] - 2.6 * u, badge[1] - 2.6 * u, badge[0] + 2.6 * u, badge[1] + 2.6 * u],
        fill=(250, 246, 236),
        outline=_shade(base, -0.5),
        width=round(0.35 * u),
    )
    _EMBLEMS[emblem](draw, badge, 1.7 * u, _shade(base, -0.45))
    font = ImageFont.load_default(size=round(2.6 * u))
    text = initials(name)
    draw.text((7.2 * u, 13.6 * u), text, font=font, anchor="mm", fill=(250, 246, 236))
    # The rim.
    draw.ellipse([0, 0, s - 1, s - 1], outline=_shade(base, -0.55), width=round(0.5 * u))
    out = io.BytesIO()
    image.resize((SIZE, SIZE), Image.Resampling.LANCZOS).save(out, "PNG")
    return out.getvalue()


# ---------------------------------------------------------------- emblems
# Each draws its sign centred on `c` within a radius `r`.


def _line(draw, points, width, fill):
    draw.line(points, fill=fill, width=round(width), joint="curve")


def _sword(draw, c, r, ink):
    x, y = c
    _line(draw, [(x - 0.7 * r, y + 0.7 * r), (x + 0.75 * r, y - 0.75 * r)], r * 0.22, ink)
    _line(draw, [(x - 0.75 * r, y + 0.15 * r), (x - 0.15 * r, y + 0.75 * r)], r * 0.18, ink)


def _dagger(draw, c, r, ink):
    x, y = c
    draw.polygon(
        [(x, y - 0.9 * r), (x + 0.2 * r, y + 0.2 * r), (x - 0.2 * r, y + 0.2 * r)], fill=ink
    )
    _line(draw, [(x - 0.5 * r, y + 0.25 * r), (x + 0.5 * r, y + 0.25 * r)], r * 0.16, ink)
    _line(draw, [(x, y + 0.25 * r), (x, y + 0.85 * r)], r * 0.18, ink)


def _star(draw, c, r, ink):
    x, y = c
    points = []
    for k in range(10):
        a = -math.pi / 2 + k * math.pi / 5
        d = r * (0.9 if k % 2 == 0 else 0.38)
        points.append((x + d * math.cos(a), y + d * math.sin(a)))
    draw.polygon(points, fill=ink)


def _skull(draw, c, r, ink):
    x, y = c
    draw.ellipse([x - 0.7 * r, y - 0.8 * r, x + 0.7 * r, y + 0.45 * r], fill=ink)
    draw.rectangle([x - 0.4 * r, y + 0.2 * r, x + 0.4 * r, y + 0.75 * r], fill=ink)
    paper = (250, 246, 236)
    for dx in (-0.3, 0.3):
        draw.ellipse(
            [x + (dx - 0.2) * r, y - 0.35 * r, x + (dx + 0.2) * r, y + 0.05 * r], fill=paper
        )
    for dx in (-0.15, 0.15):
        _line(draw, [(x + dx * r, y + 0.45 * r), (x + dx * r, y + 0.75 * r)], r * 0.08, paper)


def _bow(draw, c, r, ink):
    x, y = c
    draw.arc(
        [x - 1.3 * r, y - 0.9 * r, x + 0.5 * r, y + 0.9 * r],
        -70,
        70,
        fill=ink,
        width=round(r * 0.18),
    )
    _line(draw, [(x + 0.1 * r, y - 0.85 * r), (x + 0.1 * r, y + 0.85 * r)], r * 0.06, ink)
    _line(draw, [(x - 0.8 * r, y), (x + 0.85 * r, y)], r * 0.1, ink)
    draw.polygon(
        [(x + 0.95 * r, y), (x + 0.6 * r, y - 0.2 * r), (x + 0.6 * r, y + 0.2 * r)], fill=ink
    )


def _leaf(draw, c, r, ink):
    x, y = c
    draw.chord([x - 0.9 * r, y - 0.9 * r, x + 0.5 * r, y + 0.5 * r], -45, 135, fill=ink)
    draw.chord([x - 0.5 * r, y - 0.5 * r, x + 0.9 * r, y + 0.9 * r], 135, 315, fill=ink)
    _line(
        draw, [(x - 0.7 * r, y + 0.7 * r), (x + 0.55 * r, y - 0.55 * r)], r * 0.08, (250, 246, 236)
    )


def _crosshair(draw, c, r, ink):
    x, y = c
    draw.ellipse(
        [x - 0.7 * r, y - 0.7 * r, x + 0.7 * r, y + 0.7 * r], outline=ink, width=round(r * 0.14)
    )
    for a, b in (
        ((x - r, y), (x - 0.25 * r, y)),
        ((x + 0.25 * r, y), (x + r, y)),
        ((x, y - r), (x, y - 0.25 * r)),
        ((x, y + 0.25 * r), (x, y + r)),
    ):
        _line(draw, [a, b], r * 0.14, ink)


def _cross(draw, c, r, ink):
    x, y = c
    draw.rectangle([x - 0.25 * r, y - 0.8 * r, x + 0.25 * r, y + 0.8 * r], fill=(190, 40, 40))
    draw.rectangle([x - 0.8 * r, y - 0.25 * r, x + 0.8 * r, y + 0.25 * r], fill=(190, 40, 40))


def _gear(draw, c, r, ink):
    x, y = c
    for k in range(8):
        a = k * math.pi / 4
        _line(draw, [(x, y), (x + 0.9 * r * math.cos(a), y + 0.9 * r * math.sin(a))], r * 0.3, ink)
    draw.ellipse([x - 0.65 * r, y - 0.65 * r, x + 0.65 * r, y + 0.65 * r], fill=ink)
    draw.ellipse([x - 0.25 * r, y - 0.25 * r, x + 0.25 * r, y + 0.25 * r], fill=(250, 246, 236))


def _wrench(draw, c, r, ink):
    x, y = c
    _line(draw, [(x - 0.6 * r, y + 0.6 * r), (x + 0.3 * r, y - 0.3 * r)], r * 0.25, ink)
    draw.ellipse([x + 0.05 * r, y - 0.85 * r, x + 0.85 * r, y - 0.05 * r], fill=ink)
    draw.polygon(
        [(x + 0.45 * r, y - 0.45 * r), (x + 0.95 * r, y - 0.75 * r), (x + 0.75 * r, y - 0.95 * r)],
        fill=(250, 246, 236),
    )


def _fist(draw, c, r, ink):
    x, y = c
    draw.rounded_rectangle(
        [x - 0.65 * r, y - 0.55 * r, x + 0.6 * r, y + 0.45 * r], radius=r * 0.25, fill=ink
    )
    draw.rectangle([x - 0.4 * r, y + 0.3 * r, x + 0.35 * r, y + 0.9 * r], fill=ink)
    for k in range(1, 4):
        kx = x - 0.65 * r + k * 0.31 * r
        _line(draw, [(kx, y - 0.5 * r), (kx, y - 0.1 * r)], r * 0.06, (250, 246, 236))


def _eye(draw, c, r, ink):
    x, y = c
    draw.chord([x - r, y - 0.9 * r, x + r, y + 0.5 * r], 20, 160, fill=ink)
    draw.chord([x - r, y - 0.5 * r, x + r, y + 0.9 * r], 200, 340, fill=ink)
    draw.ellipse([x - 0.32 * r, y - 0.32 * r, x + 0.32 * r, y + 0.32 * r], fill=(250, 246, 236))
    draw.ellipse([x - 0.14 * r, y - 0.14 * r, x + 0.14 * r, y + 0.14 * r], fill=ink)


_EMBLEMS = {
    "sword": _sword, "star": _star, "skull": _skull, "bow": _bow, "leaf": _leaf,
    "dagger": _dagger, "crosshair": _crosshair, "cross": _cross, "gear": _gear,
    "wrench": _wrench, "fist": _fist, "eye": _eye,
}  # fmt: skip
