"""The campaign settings form, drawn from the settings the game's kit
declares (vtt.games): a choice where the setting names its choices, a
checkbox for a flag, a number for a count, one name per line for a list,
and, for a dict of lists (Artifice's names per attribute), one line of
names per key, labelled by the setting's label with the key as {group}."""

from django import forms

from vtt import games


def _label(key, setting):
    return setting.label or key.replace("_", " ").capitalize()


class SettingsForm(forms.Form):
    def __init__(self, *args, game: str, current: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        self.dict_keys = {}
        for key, setting in games.kit(game).settings.items():
            default = setting.default
            value = current.get(key, default)
            label, help_text = _label(key, setting), setting.help
            if setting.choices:
                # Left out of a post (a form from before the setting was
                # added): it keeps its value (`settings`).
                self.fields[key] = forms.ChoiceField(
                    label=label,
                    help_text=help_text,
                    choices=[(c, c) for c in setting.choices],
                    initial=value,
                    required=False,
                )
            elif isinstance(default, bool):
                self.fields[key] = forms.BooleanField(
                    label=label, help_text=help_text, required=False, initial=value
                )
            elif isinstance(default, int):
                self.fields[key] = forms.IntegerField(label=label, initial=value)
            elif isinstance(default, list):
                self.fields[key] = forms.CharField(
                    label=label,
                    widget=forms.Textarea(attrs={"rows": len(default) + 1}),
                    initial="\n".join(value),
                )
            elif isinstance(default, dict):
                # One line per group, names separated by commas.
                self.dict_keys[key] = list(default)
                for group in default:
                    name = f"{key}__{group}"
                    self.fields[name] = forms.CharField(
                        label=f"{label.format(group=group)} (comma separated)",
                        initial=", ".join(value.get(group, default[group])),
                    )

    def settings(self) -> dict:
        """The cleaned form as the settings service takes them."""
        data = {}
        for key, value in self.cleaned_data.items():
            if "__" in key:
                continue
            if isinstance(self.fields[key], forms.ChoiceField) and value == "":
                continue
            if isinstance(self.fields[key].widget, forms.Textarea):
                value = [line.strip() for line in value.splitlines() if line.strip()]
            data[key] = value
        for key, groups in self.dict_keys.items():
            data[key] = {
                group: [
                    n.strip() for n in self.cleaned_data[f"{key}__{group}"].split(",") if n.strip()
                ]
                for group in groups
            }
        return data

    def field_for(self, service_field: str | None) -> str | None:
        """The form field a service error (`settings.<key>.Strength`) belongs to."""
        if not service_field:
            return None
        parts = service_field.removeprefix("settings.").split(".")
        key = parts[0].split("[")[0]
        if key in self.dict_keys and len(parts) > 1:
            name = f"{key}__{parts[1]}"
            return name if name in self.fields else None
        return key if key in self.fields else None
