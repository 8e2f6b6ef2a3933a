"""The character sheet editor of every game, drawn from the sheet's own
shape rather than a form per game.

A sheet is nested dicts, lists and scalars (vtt.games.sheets). The editor
walks the stored sheet over the game's blank one and draws:
- a dict whose keys the blank sheet fixes (Xero Sum attributes) as one
  input per key;
- a dict of named entries (skills, Rd6 attributes) as rows of a table whose
  first column is the name, plus a few empty rows to add more;
- a list of names (Artifice skills) as a text area, one per line;
- numbers as number inputs, words as text inputs, known choices as selects;
- and, for a game whose combat reads skills by name, one select per combat
  role (melee attack, dodge...) offering the sheet's skills (sheet key
  `combat`; empty: the game's usual names).

Every input is named by its path, and carries the path the services use in
their errors (`sheet.skills.Climb.level`), so a refusal lands on its input.
Parsing turns the posted form back into the same shape; the service then
validates it and is the only judge."""

from dataclasses import dataclass, field

from vtt import games
from vtt.games import sheets

NEW_ROWS = 3


def _choices(game: str, settings: dict) -> dict:
    """Inputs that take one of a few values, by their path with names as *."""
    return games.kit(game).sheet_choices(settings) | {"weapons.*.kind": sheets.WEAPON_KINDS}


@dataclass
class Input:
    name: str  # the form field name
    error_path: str  # the path a service names in its errors
    label: str
    value: object
    kind: str  # number | text | choice | lines | check
    choices: tuple = ()
    error: str = ""
    help: str = ""
    node = "input"


@dataclass
class Table:
    name: str
    label: str
    columns: list
    rows: list = field(default_factory=list)  # lists of Input
    error: str = ""
    node = "table"


@dataclass
class Section:
    name: str
    label: str
    items: list = field(default_factory=list)  # Input | Table | Section
    node = "section"


def _pattern(path: str, names: set) -> str:
    parts = path.split(".")
    return ".".join("*" if i in names else p for i, p in enumerate(parts))


def _scalar_kind(value) -> str:
    if isinstance(value, bool):
        return "check"
    if isinstance(value, int):
        return "number"
    return "text"


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize() if key.islower() else key


class SheetEditor:
    def __init__(self, game: str, settings: dict):
        self.game = game
        self.settings = settings
        self.choices = _choices(game, settings)
        self.kit = games.kit(game)
        self.new_entries = self.kit.new_entries
        self.blank_sheet = sheets.clean_sheet(game, {}, settings)
        self.blank_resources = sheets.resource_defaults(game, settings)
        self.weapon_template = sheets.clean_weapons(game, [{"name": "x"}])[0] | {"name": ""}

    # ---- drawing

    def sections(self, character=None, errors: dict | None = None, *, gm: bool) -> list:
        sheet = (character.sheet if character else None) or self.blank_sheet
        out = [self._dict("sheet", "Sheet", self.blank_sheet, sheet, set())]
        if self.kit.combat_roles:
            out.append(self._combat(sheet))
        out.append(self._weapons(character.weapons if character else []))
        if gm:
            resources = (character.resources if character else None) or self.blank_resources
            out.append(self._dict("resources", "Resources", self.blank_resources, resources, set()))
        if errors:
            self._attach(out, errors)
        return out

    def _dict(self, path: str, label: str, blank: dict, value: dict, names: set):
        if _uniform_records(blank):
            return self._records(path, label, blank, value or {})
        section = Section(path, label)
        for key, blank_value in blank.items():
            child = f"{path}.{key}"
            current = value.get(key, blank_value) if isinstance(value, dict) else blank_value
            section.items.append(self._node(child, key, blank_value, current, names))
        return section

    def _node(self, path: str, key: str, blank, value, names: set):
        top = path.split(".")[1] if path.count(".") == 1 else None
        template = self.new_entries.get(top) if top else None
        if isinstance(blank, dict) and (blank or template is not None):
            if not blank and template is not None:
                return self._named_map(path, key, template, value or {})
            return self._dict(path, _label(key), blank, value or {}, names)
        if isinstance(blank, list):
            text = "\n".join(str(v) for v in (value or []))
            return Input(path, path, _label(key), text, "lines")
        return self._input(path, path, _label(key), value, blank, names)

    def _input(self, name, error_path, label, value, blank, names: set) -> Input:
        options = self.choices.get(_pattern(error_path, names))
        if options:
            return Input(name, error_path, label, value, "choice", tuple(options))
        return Input(name, error_path, label, value, _scalar_kind(blank))

    def _combat(self, sheet: dict) -> Section:
        """One select per combat role: the sheet's skills, or empty for the usual names."""
        # In name order: a stored map's order is the database's (jsonb sorts keys).
        skills = tuple(sorted(self.kit.skill_names(sheet), key=str.casefold))
        chosen = sheet.get("combat") or {}
        section = Section("sheet.combat", "Combat skills")
        for role, spec in self.kit.combat_roles.items():
            path = f"sheet.combat.{role}"
            current = chosen.get(role, "")
            usual = ", ".join(spec.usual[:3]) + (", …" if len(spec.usual) > 3 else "")
            section.items.append(
                Input(
                    path,
                    path,
                    spec.label,
                    current,
                    "choice",
                    ("", *skills, *((current,) if current and current not in skills else ())),
                    help=f"Empty: the first of {usual} the sheet has.",
                )
            )
        return section

    def _records(self, path: str, label: str, blank: dict, value: dict) -> Table:
        """Entries the blank sheet fixes, all of one shape (Artifice's): one row each."""
        subkeys = list(next(iter(blank.values())))
        table = Table(path, label, ["", *[_label(k) for k in subkeys]])
        depth = path.count(".") + 1
        for key, blank_entry in blank.items():
            current = value.get(key) if isinstance(value.get(key), dict) else blank_entry
            row = [Input(f"{path}.{key}", f"{path}.{key}", key, key, "label")]
            for sub in subkeys:
                child = f"{path}.{key}.{sub}"
                row.append(
                    self._input(
                        child, child, f"{key} {sub}", current.get(sub), blank_entry[sub], {depth}
                    )
                )
            table.rows.append(row)
        return table

    def _named_map(self, path: str, key: str, template, value: dict) -> Table:
        subkeys = list(template) if isinstance(template, dict) else ["value"]
        table = Table(path, _label(key), ["Name", *[_label(k) for k in subkeys]])
        entries = list(value.items()) + [("", template)] * NEW_ROWS
        depth = path.count(".") + 1
        for i, (entry_name, entry) in enumerate(entries):
            row_path = f"{path}[{i}]"
            entry_path = f"{path}.{entry_name or '?'}"
            where = f" (row {i + 1})"
            row = [
                Input(
                    f"{row_path}.name", f"{path}.{entry_name}", "Name" + where, entry_name, "text"
                )
            ]
            for sub in subkeys:
                if isinstance(template, dict):
                    current = entry.get(sub) if isinstance(entry, dict) else template[sub]
                    error_path = f"{entry_path}.{sub}"
                    blank = template[sub]
                else:
                    current, error_path, blank = entry, entry_path, template
                if not entry_name:
                    current = "" if not isinstance(blank, bool) else False
                row.append(
                    self._input(
                        f"{row_path}.{sub}",
                        error_path,
                        _label(sub) + where,
                        current,
                        blank,
                        {depth},
                    )
                )
            table.rows.append(row)
        return table

    def _weapons(self, weapons: list) -> Table:
        keys = list(self.weapon_template)
        table = Table("weapons", "Weapons", [_label(k) for k in keys])
        rows = list(weapons or []) + [dict(self.weapon_template)] * NEW_ROWS
        for i, weapon in enumerate(rows):
            row = []
            new = i >= len(weapons or [])
            for key in keys:
                current = "" if new and key != "kind" else weapon.get(key)
                if key == "range_ft" and current is None:
                    current = ""
                blank = self.weapon_template[key]
                kind = "text" if key in ("range_ft", "damage") else _scalar_kind(blank)
                options = self.choices.get(f"weapons.*.{key}")
                path = f"weapons[{i}].{key}"
                label = f"{_label(key)} (weapon {i + 1})"
                if options:
                    row.append(Input(path, path, label, current, "choice", tuple(options)))
                else:
                    row.append(Input(path, path, label, current, kind))
            table.rows.append(row)
        return table

    def _attach(self, nodes: list, errors: dict) -> None:
        def walk(node):
            if isinstance(node, Section):
                for item in node.items:
                    walk(item)
            elif isinstance(node, Table):
                for row in node.rows:
                    for cell in row:
                        walk(cell)
                if node.name in errors:
                    node.error = errors.pop(node.name)
            elif node.error_path in errors:
                node.error = errors.pop(node.error_path)

        for node in nodes:
            walk(node)

    # ---- parsing

    def parse(self, post, *, gm: bool) -> dict:
        """{"sheet", "weapons"[, "resources"]} from a posted form."""
        out = {
            "sheet": self._parse_dict("sheet", self.blank_sheet, post),
            "weapons": self._parse_weapons(post),
        }
        combat = {
            role: post.get(f"sheet.combat.{role}", "").strip() for role in self.kit.combat_roles
        }
        if any(combat.values()):
            out["sheet"]["combat"] = {role: name for role, name in combat.items() if name}
        if gm:
            out["resources"] = self._parse_dict("resources", self.blank_resources, post)
        return out

    def _parse_dict(self, path: str, blank: dict, post) -> dict:
        out = {}
        for key, blank_value in blank.items():
            child = f"{path}.{key}"
            top = child.split(".")[1] if child.count(".") == 1 else None
            template = self.new_entries.get(top) if top else None
            if isinstance(blank_value, dict) and not blank_value and template is not None:
                out[key] = self._parse_named_map(child, template, post)
            elif isinstance(blank_value, dict):
                out[key] = self._parse_dict(child, blank_value, post)
            elif isinstance(blank_value, list):
                lines = post.get(child, "").splitlines()
                out[key] = [line.strip() for line in lines if line.strip()]
            elif child in post or isinstance(blank_value, bool):
                out[key] = _coerce(post.get(child, ""), blank_value)
        return out

    def _parse_named_map(self, path: str, template, post) -> dict:
        out = {}
        i = 0
        while f"{path}[{i}].name" in post:
            row = f"{path}[{i}]"
            name = post.get(f"{row}.name", "").strip()
            i += 1
            if not name:
                continue
            if isinstance(template, dict):
                out[name] = {k: _coerce(post.get(f"{row}.{k}", ""), v) for k, v in template.items()}
            else:
                out[name] = _coerce(post.get(f"{row}.value", ""), template)
        return out

    def _parse_weapons(self, post) -> list:
        out = []
        i = 0
        while f"weapons[{i}].name" in post:
            row = f"weapons[{i}]"
            i += 1
            name = post.get(f"{row}.name", "").strip()
            if not name:
                continue
            weapon = {}
            for key, blank in self.weapon_template.items():
                raw = post.get(f"{row}.{key}", "")
                if key == "range_ft":
                    raw = raw.strip()
                    weapon[key] = None if raw == "" else (_int_or_text(raw))
                else:
                    weapon[key] = _coerce(raw, blank)
            out.append(weapon)
        return out


def _uniform_records(blank: dict) -> bool:
    """A dict of two or more dicts of scalars, all with the same keys."""
    values = list(blank.values())
    if len(values) < 2 or not all(isinstance(v, dict) and v for v in values):
        return False
    keys = list(values[0])
    return all(
        list(v) == keys and not any(isinstance(x, dict | list) for x in v.values()) for v in values
    )


def _int_or_text(raw: str):
    try:
        return int(raw)
    except ValueError:
        return raw


def _coerce(raw, blank):
    """The posted text as the blank value's type; text that is not a number
    stays text so the service names the field in its refusal."""
    if isinstance(blank, bool):
        return raw in ("on", "true", "1", True)
    if isinstance(blank, int):
        raw = str(raw).strip()
        return _int_or_text(raw) if raw else blank
    return str(raw).strip()
