"""Forms of the GM console. They parse; the services decide."""

from django import forms

from vtt.tabletop.models import Role

WALLS_HELP = "One wall per line: x1 y1 x2 y2 in squares (0 0 is the top-left corner)."


class InviteForm(forms.Form):
    role = forms.ChoiceField(
        label="Joins as",
        choices=[(Role.PLAYER, Role.PLAYER.label), (Role.OBSERVER, Role.OBSERVER.label)],
    )
    max_uses = forms.IntegerField(label="Uses (empty: unlimited)", required=False, min_value=1)
    expires_days = forms.IntegerField(
        label="Expires after days (empty: never)", required=False, min_value=1, max_value=365
    )


class MemberRoleForm(forms.Form):
    user_id = forms.IntegerField(widget=forms.HiddenInput)
    role = forms.ChoiceField(label="Role", choices=[*Role.choices, ("remove", "Remove")])


class SceneForm(forms.Form):
    name = forms.CharField(label="Scene name", max_length=120)
    width = forms.IntegerField(label="Width (squares)", initial=20)
    height = forms.IntegerField(label="Height (squares)", initial=20)


class WallsField(forms.CharField):
    """Walls as text, one `x1 y1 x2 y2` per line; the map editor writes the
    same text, so either way of drawing posts one thing."""

    widget = forms.Textarea(attrs={"rows": 6, "spellcheck": "false"})

    def to_python(self, value):
        text = super().to_python(value) or ""
        walls = []
        for n, line in enumerate(text.splitlines(), start=1):
            parts = line.replace(",", " ").split()
            if not parts:
                continue
            if len(parts) != 4:
                raise forms.ValidationError(f"line {n}: a wall is four numbers x1 y1 x2 y2")
            try:
                walls.append([_number(p) for p in parts])
            except ValueError:
                raise forms.ValidationError(
                    f"line {n}: {line.strip()} is not four numbers"
                ) from None
        return walls


def _number(text):
    value = float(text)
    return int(value) if value.is_integer() else value


def walls_text(walls) -> str:
    return "\n".join(" ".join(str(v) for v in wall) for wall in walls or [])


class SceneEditForm(SceneForm):
    walls = WallsField(label="Walls", required=False, help_text=WALLS_HELP)


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

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character_id"].choices = [("", "None")] + [(c.pk, c.name) for c in characters]


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
