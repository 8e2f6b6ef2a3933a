"""Battle-map backgrounds drawn with Pillow: a canvas measured in grid
squares, a few textures (noise made from a seeded random source, so the same
map is drawn the same way every time) and the features a map is made of.

Everything is placed in squares, the unit the scene's walls use, so a map's
painter draws its walls from the very list it stores and the two line up."""

import io
import math
import random

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageOps

PX = 70  # pixels a square: a 24 x 16 map is 1680 x 1120


def mix(a: tuple, b: tuple, t: float) -> tuple:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))


class Canvas:
    """A map of `width` x `height` squares. Coordinates are in squares
    (floats allowed); `seed` makes every texture and scatter repeatable."""

    def __init__(self, width: int, height: int, seed: str, px: int = PX):
        self.width, self.height, self.px = width, height, px
        self.size = (width * px, height * px)
        self.rng = random.Random(seed)
        self.image = Image.new("RGB", self.size)
        self.draw = ImageDraw.Draw(self.image)

    # ------------------------------------------------------------ geometry

    def p(self, x: float, y: float) -> tuple[int, int]:
        return round(x * self.px), round(y * self.px)

    def box(self, x1: float, y1: float, x2: float, y2: float) -> list[int]:
        return [*self.p(x1, y1), *self.p(x2, y2)]

    def mask(self) -> tuple[Image.Image, ImageDraw.ImageDraw]:
        mask = Image.new("L", self.size, 0)
        return mask, ImageDraw.Draw(mask)

    def rect_mask(self, *boxes) -> Image.Image:
        mask, draw = self.mask()
        for box in boxes:
            draw.rectangle(self.box(*box), fill=255)
        return mask

    def polygon_mask(self, points) -> Image.Image:
        mask, draw = self.mask()
        draw.polygon([self.p(x, y) for x, y in points], fill=255)
        return mask

    # ------------------------------------------------------------ textures

    def noise(self, cells: float, octaves: int = 3) -> Image.Image:
        """Value noise over the whole map, grey 0-255: random values on a
        coarse lattice (`cells` a square), smoothed up to full size, with
        finer octaves added at half the weight each."""
        total = None
        weight, sum_weights = 1.0, 0.0
        for octave in range(octaves):
            step = max(1, round(self.px / (cells * 2**octave)))
            w, h = self.size[0] // step + 2, self.size[1] // step + 2
            small = Image.frombytes("L", (w, h), self.rng.randbytes(w * h))
            layer = small.resize((w * step, h * step), Image.Resampling.BICUBIC)
            layer = layer.crop((0, 0, *self.size))
            if total is None:
                total = layer
            else:
                total = Image.blend(total, layer, weight / (sum_weights + weight))
            sum_weights += weight
            weight /= 2
        return ImageOps.autocontrast(total, cutoff=1)

    def texture(self, dark: tuple, light: tuple, cells: float = 1.0, octaves: int = 3):
        return ImageOps.colorize(self.noise(cells, octaves), dark, light)

    def paint(self, layer: Image.Image, mask: Image.Image | None = None):
        """Lay `layer` (a full-size picture) over the map where `mask` is white."""
        if mask is None:
            self.image.paste(layer)
        else:
            self.image.paste(layer, (0, 0), mask)
        self.draw = ImageDraw.Draw(self.image)

    def fill(self, dark, light, mask=None, cells: float = 1.0, octaves: int = 3):
        self.paint(self.texture(dark, light, cells, octaves), mask)

    def grain(self, strength: float, cells: float = 2.0, mask=None):
        """Mottle what is drawn: darken it by up to `strength` (0-1) in a
        noise pattern, so flat fills read as stone, wood or earth."""
        lo = round(255 * (1 - strength))
        shade = self.noise(cells, 3).point(lambda v: lo + (255 - lo) * v // 255)
        self.paint(ImageChops.multiply(self.image, Image.merge("RGB", [shade] * 3)), mask)

    def shade(self, mask: Image.Image, radius: float, strength: float):
        """Darken the map around the white of `mask` (a soft shadow)."""
        blur = mask.filter(ImageFilter.GaussianBlur(radius * self.px))
        shadow = blur.point(lambda v: round(255 - v * strength))
        self.paint(ImageChops.multiply(self.image, Image.merge("RGB", [shadow] * 3)))

    def grid(self, colour=(0, 0, 0), alpha: int = 28):
        """Faint square lines, so the picture reads as a battle map on its own."""
        overlay = Image.new("RGBA", self.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(overlay)
        for x in range(1, self.width):
            draw.line([self.p(x, 0), self.p(x, self.height)], fill=(*colour, alpha), width=1)
        for y in range(1, self.height):
            draw.line([self.p(0, y), self.p(self.width, y)], fill=(*colour, alpha), width=1)
        self.image = Image.alpha_composite(self.image.convert("RGBA"), overlay).convert("RGB")
        self.draw = ImageDraw.Draw(self.image)

    # ------------------------------------------------------------ surfaces

    def flagstones(self, box, base, mortar, size: float = 1.0, wobble: float = 0.08):
        """Stone slabs in staggered rows over `box` (squares), each its own
        tint, on a bed of `mortar` that shows where they part."""
        x1, y1, x2, y2 = box
        self.draw.rectangle(self.box(*box), fill=mortar)
        rows = max(1, round((y2 - y1) / size))
        row_h = (y2 - y1) / rows
        for row in range(rows):
            top = y1 + row * row_h
            x = x1 - (size / 2 if row % 2 else 0)
            while x < x2:
                slab = size * self.rng.uniform(0.8, 1.3)
                tint = mix(base, (255, 255, 255), self.rng.uniform(-0.12, 0.12))
                if self.rng.random() < 0.5:
                    tint = mix(base, (0, 0, 0), self.rng.uniform(0, 0.18))
                left, right = max(x, x1), min(x + slab, x2)
                if right - left > 2 * wobble:
                    j = wobble
                    slab_box = (
                        left + self.rng.uniform(0, j),
                        top + self.rng.uniform(0, j),
                        right - self.rng.uniform(0, j),
                        top + row_h - self.rng.uniform(0, j),
                    )
                    self.draw.rectangle(self.box(*slab_box), fill=tint, outline=mortar, width=2)
                x += slab

    def planks(self, box, base, seam, width: float = 0.5, vertical: bool = False):
        """Deck boards over `box`, running along x (or y when `vertical`)."""
        x1, y1, x2, y2 = box
        start, end = (x1, x2) if vertical else (y1, y2)
        along = (y1, y2) if vertical else (x1, x2)
        pos = start
        while pos < end - 1e-6:
            tint = mix(base, (0, 0, 0), self.rng.uniform(0, 0.2))
            cut = along[0] - self.rng.uniform(0, 3)
            while cut < along[1]:
                length = self.rng.uniform(2.5, 5)
                a, b = max(cut, along[0]), min(cut + length, along[1])
                rect = (pos, a, pos + width, b) if vertical else (a, pos, b, pos + width)
                if b > a:
                    self.draw.rectangle(self.box(*rect), fill=tint, outline=seam)
                cut += length
                tint = mix(base, (0, 0, 0), self.rng.uniform(0, 0.2))
            pos += width

    def cracks(self, box, colour, count: int, length: float = 1.2):
        x1, y1, x2, y2 = box
        for _ in range(count):
            x, y = self.rng.uniform(x1, x2), self.rng.uniform(y1, y2)
            angle = self.rng.uniform(0, 2 * math.pi)
            points = [(x, y)]
            for _ in range(4):
                angle += self.rng.uniform(-0.8, 0.8)
                step = length / 4
                x = min(max(x + math.cos(angle) * step, x1), x2)
                y = min(max(y + math.sin(angle) * step, y1), y2)
                points.append((x, y))
            self.draw.line([self.p(*pt) for pt in points], fill=colour, width=2)

    def scatter(self, box, colours, count: int, radius=(0.03, 0.1), keep_out=()):
        """Pebbles, leaves, litter: small blobs over `box`, none inside `keep_out` boxes."""
        x1, y1, x2, y2 = box
        for _ in range(count):
            x, y = self.rng.uniform(x1, x2), self.rng.uniform(y1, y2)
            if any(a <= x <= c and b <= y <= d for a, b, c, d in keep_out):
                continue
            r = self.rng.uniform(*radius)
            self.draw.ellipse(
                self.box(x - r, y - r * 0.8, x + r, y + r * 0.8), fill=self.rng.choice(colours)
            )

    # ------------------------------------------------------------ features

    def walls(self, segments, fill, edge, thickness: float = 0.3):
        """The scene's walls, each [x1, y1, x2, y2] in squares, drawn as
        thick strokes with rounded joints exactly along the stored lines."""
        w = max(2, round(thickness * self.px))
        for colour, width in ((edge, w + 4), (fill, w)):
            r = width / 2
            for x1, y1, x2, y2 in segments:
                a, b = self.p(x1, y1), self.p(x2, y2)
                self.draw.line([a, b], fill=colour, width=width)
                for cx, cy in (a, b):
                    self.draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=colour)

    def wall_mask(self, segments, thickness: float = 0.3) -> Image.Image:
        mask, draw = self.mask()
        w = max(2, round(thickness * self.px))
        for x1, y1, x2, y2 in segments:
            draw.line([self.p(x1, y1), self.p(x2, y2)], fill=255, width=w)
        return mask

    def tree(self, x, y, r, leaf, dark):
        """A tree seen from above: a shadowed crown of overlapping leaf clumps."""
        self.draw.ellipse(
            self.box(x - r + 0.15, y - r + 0.2, x + r + 0.15, y + r + 0.2),
            fill=mix(dark, (0, 0, 0), 0.5),
        )
        self.draw.ellipse(self.box(x - r, y - r, x + r, y + r), fill=dark)
        for _ in range(7):
            a = self.rng.uniform(0, 2 * math.pi)
            d = self.rng.uniform(0, r * 0.55)
            cr = r * self.rng.uniform(0.35, 0.55)
            cx, cy = x + math.cos(a) * d, y + math.sin(a) * d
            tint = mix(leaf, (255, 255, 190), self.rng.uniform(0, 0.25))
            self.draw.ellipse(self.box(cx - cr, cy - cr, cx + cr, cy + cr), fill=tint)

    def crate(self, x, y, w, h, wood, edge):
        self.draw.rectangle(self.box(x, y, x + w, y + h), fill=wood, outline=edge, width=3)
        self.draw.line([self.p(x, y), self.p(x + w, y + h)], fill=edge, width=3)
        self.draw.line([self.p(x + w, y), self.p(x, y + h)], fill=edge, width=3)

    def glow(self, x, y, radius, colour, strength: float = 0.5, within=None):
        """A pool of light (torch, lamp): the map brightened towards `colour`,
        only inside the white of `within` when given (light stops at walls)."""
        mask, draw = self.mask()
        draw.ellipse(self.box(x - radius, y - radius, x + radius, y + radius), fill=255)
        mask = mask.filter(ImageFilter.GaussianBlur(radius * self.px / 2.5))
        mask = mask.point(lambda v: round(v * strength))
        if within is not None:
            mask = ImageChops.multiply(mask, within)
        self.paint(Image.blend(self.image, Image.new("RGB", self.size, colour), 0.6), mask)

    def jpeg(self) -> bytes:
        return encode(self.image)


def encode(image: Image.Image) -> bytes:
    """The map as a JPEG: a painted texture is a photograph to a
    compressor, and a JPEG of it is a third of the bytes of a PNG."""
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85, optimize=True)
    return out.getvalue()
