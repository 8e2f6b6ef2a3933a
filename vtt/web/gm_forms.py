"""Forms of the GM console. They parse; the services decide."""

import math
import re

from django import forms

from vtt.spectators.models import MAX_DELAY
from vtt.spectators.services import MAX_LABEL, MAX_MINUTES
from vtt.tabletop.models import Role

WALLS_HELP = (
    "One segment per line: x1 y1 x2 y2 in squares (0 0 is the top-left corner), then "
    "nothing for a wall, or window, door, door open, door locked."
)


class InviteForm(forms.Form):
    role = forms.ChoiceField(
        label="Joins as",
        choices=[(Role.PLAYER, Role.PLAYER.label), (Role.OBSERVER, Role.OBSERVER.label)],
    )
    max_uses = forms.IntegerField(label="Uses (empty: unlimited)", required=False, min_value=1)
    expires_days = forms.IntegerField(
        label="Expires after days (empty: never)", required=False, min_value=1, max_value=365
    )


class SpectatorLinkForm(forms.Form):
    label = forms.CharField(
        label="Label (for you)", max_length=MAX_LABEL, required=False, strip=True
    )
    delay_seconds = forms.IntegerField(
        label="Delay (seconds, 0 to 600)",
        initial=0,
        min_value=0,
        max_value=MAX_DELAY,
        help_text="For a stream: spectators see the table this many seconds late.",
    )
    expires_minutes = forms.IntegerField(
        label="Expires after minutes (empty: never)",
        required=False,
        min_value=1,
        max_value=MAX_MINUTES,
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "spectator-%s")  # apart from the console's other forms
        super().__init__(*args, **kwargs)


class MemberRoleForm(forms.Form):
    user_id = forms.IntegerField(widget=forms.HiddenInput)
    role = forms.ChoiceField(label="Role", choices=[*Role.choices, ("remove", "Remove")])


class SceneForm(forms.Form):
    name = forms.CharField(label="Scene name", max_length=120)
    width = forms.IntegerField(label="Width (squares)", initial=20)
    height = forms.IntegerField(label="Height (squares)", initial=20)
    fog = forms.BooleanField(
        label="Fog of war",
        required=False,
        help_text="Players see only what their tokens see.",
    )
    lit = forms.BooleanField(
        label="Lit",
        required=False,
        initial=True,
        help_text="Unticked, the scene is dark: tokens see only their own sight and lights.",
    )


# The words after the four numbers, and the item of the list each makes.
KINDS = {
    (): [],
    ("wall",): [],
    ("window",): ["window"],
    ("door",): ["door"],
    ("door", "closed"): ["door"],
    ("door", "open"): ["door", "open"],
    ("door", "locked"): ["door", "locked"],
}
COORDINATES = ("x1", "y1", "x2", "y2")
ITEM_PARTS = (*COORDINATES, "its kind", "its state")  # walls[i][j] said to the GM
NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?", re.IGNORECASE | re.ASCII)


def read_walls(text: str) -> list:
    """The walls list of the scene contract from the text, one segment per
    line. A line that cannot be read is refused with its number and what is
    wrong with it; whether the segment fits the map is the service's to say."""
    walls = []
    for n, line in enumerate(text.splitlines(), start=1):
        parts = line.replace(",", " ").split()
        if parts:
            walls.append(_read_line(n, parts))
    return walls


def _read_line(n: int, parts: list) -> list:
    numbers = []
    for name, part in zip(COORDINATES, parts, strict=False):
        if _is_number(part):
            numbers.append(_number(part))
        elif part.lower() in ("wall", "window", "door"):
            break  # a kind too soon: a number is missing
        else:
            raise forms.ValidationError(f"line {n}: {name} is {part!r}, not a number")
    if len(numbers) < 4:
        raise forms.ValidationError(
            f"line {n}: a segment starts with four numbers x1 y1 x2 y2, not {' '.join(parts)!r}"
        )
    words = tuple(word.lower() for word in parts[4:])
    if words in KINDS:
        return numbers + KINDS[words]
    if words[0] == "door" and len(words) == 2:
        raise forms.ValidationError(f"line {n}: a door is closed, open or locked, not {parts[5]!r}")
    if words[0] in ("wall", "window", "door"):
        raise forms.ValidationError(
            f"line {n}: unexpected {' '.join(parts[5:])!r} after {parts[4]!r}"
        )
    raise forms.ValidationError(
        f"line {n}: {parts[4]!r} is not a kind; write nothing for a wall, "
        "or window, door, door open, door locked"
    )


def _is_number(text: str) -> bool:
    # Plain decimals only (no 0x10, 1_000 or other scripts' digits), as the
    # editor's reader (static/js/gm/wall_text.js) takes them.
    return bool(NUMBER.fullmatch(text)) and math.isfinite(float(text))


def _number(text: str):
    value = float(text)
    return int(value) if value.is_integer() else value


def walls_text(walls) -> str:
    """The text of a walls list, read back by `read_walls`."""
    lines = []
    for wall in walls or []:
        words = [str(v) for v in wall[:4]]
        words += [str(v) for v in wall[4:] if v != "closed"]
        lines.append(" ".join(words))
    return "\n".join(lines)


class WallsField(forms.CharField):
    """Walls, windows and doors as text (`read_walls`); the map editor
    writes the same text, so either way of drawing posts one thing."""

    widget = forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "autocomplete": "off"})

    def to_python(self, value):
        return read_walls(super().to_python(value) or "")


WALL_PATH = re.compile(r"^walls\[(\d+)\](?:\[(\d+)\])?(?::\s*)?")


class SceneEditForm(SceneForm):
    walls = WallsField(label="Walls, doors and windows", required=False, help_text=WALLS_HELP)

    def wall_error(self, field: str, message: str) -> str:
        """A service's refusal of walls[i][j] said as the line of the text
        it came from ("line 3, x2: must be ..."), which is what the GM sees."""
        found = WALL_PATH.match(field or "")
        if not found:
            return message
        index, part = int(found[1]), found[2]
        lines = [
            n
            for n, line in enumerate(self.data.get("walls", "").splitlines(), 1)
            if line.replace(",", " ").split()
        ]
        if index >= len(lines):
            return message
        said = WALL_PATH.sub("", message, count=1) if message.startswith("walls[") else message
        where = f"line {lines[index]}"
        if part is not None:
            where += f", {ITEM_PARTS[min(int(part), 5)]}"
        return f"{where}: {said}"


class BackgroundForm(forms.Form):
    image = forms.FileField(label="Background image (PNG, JPEG, GIF or WebP, up to 10 MB)")


class TokenForm(forms.Form):
    name = forms.CharField(label="Name", max_length=120)
    x = forms.IntegerField(label="Column (x)", initial=0)
    y = forms.IntegerField(label="Row (y)", initial=0)
    size = forms.IntegerField(label="Size (squares)", initial=1, min_value=1)
    color = forms.CharField(
        label="Colour", initial="#888888", widget=forms.TextInput(attrs={"type": "color"})
    )
    hidden = forms.BooleanField(label="Hidden from players", required=False)
    character_id = forms.TypedChoiceField(
        label="Character", coerce=int, empty_value=None, required=False, choices=()
    )
    # Fog of war (docs/vision.md); left empty, unchanged (a new token: 0).
    sight_ft = forms.IntegerField(
        label="Sees in the dark (ft)", required=False, min_value=0, max_value=1000
    )
    light_ft = forms.IntegerField(
        label="Carries light (ft)", required=False, min_value=0, max_value=1000
    )

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character_id"].choices = [("", "None")] + [(c.pk, c.name) for c in characters]

    def given(self) -> dict:
        """The cleaned fields, without the optional ones left empty."""
        return {
            name: value
            for name, value in self.cleaned_data.items()
            if not (name in ("sight_ft", "light_ft") and value is None)
        }


class TokenEditForm(TokenForm):
    """One token of the scene's list, edited in place. It carries the version
    it was drawn from, so a token moved in the room since is not put back."""

    version = forms.IntegerField(widget=forms.HiddenInput)

    @classmethod
    def of(cls, token, *, characters=(), data=None):
        """The form for `token`, named apart from the other tokens' forms."""
        initial = {field: getattr(token, field) for field in cls.base_fields}
        form = cls(data, prefix=f"token-{token.pk}", initial=initial, characters=characters)
        form.token_id = token.pk
        return form


class MapFileForm(forms.Form):
    """A Universal VTT map file: the first step of an import, counted and
    shown before anything is saved (docs/maps.md)."""

    file = forms.FileField(
        label="Map file (.dd2vtt, .uvtt or .df2vtt, from Dungeondraft, Dungeon Alchemist, "
        "DungeonFog...)"
    )
    name = forms.CharField(label="Scene name (empty: the file's)", max_length=120, required=False)
    simplify = forms.FloatField(
        label="Simplify walls (squares)",
        initial=0.05,
        help_text="How far a corner may stray from the straight wall that replaces it: "
        "0 merges only walls in a line.",
    )


class MapConfirmForm(forms.Form):
    """The import's second step: the staged file counted again at another
    tolerance, or imported; a scene's walls, doors and lights replaced
    only when `replace` is ticked."""

    simplify = forms.FloatField(label="Simplify walls (squares)")
    replace = forms.BooleanField(
        label="Replace this scene's walls, doors and lights (its tokens stay)", required=False
    )
