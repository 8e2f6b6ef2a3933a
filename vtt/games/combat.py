"""What every chain works with: the two sides, the attack's context, the
resolution it returns, and finding entries on a sheet by name."""

from dataclasses import dataclass, field


@dataclass
class Side:
    """One token in the fight and the character behind it (if any)."""

    token: object
    character: object | None
    name: str

    @property
    def sheet(self) -> dict:
        return self.character.sheet if self.character is not None else {}

    @property
    def resources(self) -> dict:
        return self.character.resources if self.character is not None else {}

    @property
    def weapons(self) -> list:
        return self.character.weapons if self.character is not None else []


@dataclass
class Context:
    game: str
    settings: dict
    attacker: Side
    target: Side
    weapon: dict
    measure: dict
    options: dict = field(default_factory=dict)
    # The sheet entries each side's pools came from, for the log:
    # {"attacker": [names], "defender": [names]}, filled by the chain.
    sources: dict = field(default_factory=dict)


@dataclass
class Resolution:
    outcome: str
    status: str
    damage: int | None = None
    # (side, resource, value after): applied by the attack service.
    changes: list = field(default_factory=list)
    # (side, weapon name): weapons a botch broke.
    broken: list = field(default_factory=list)


@dataclass(frozen=True)
class WeaponChange:
    """What a chain's broken weapons (Resolution.broken) are in an attack's
    changes, declared by the kit whose chain breaks them (GameKit.weapon_change):
    the change's `field` (with the weapon's name, `after` True when it broke
    and False when it is mended) and how the log says each."""

    field: str
    broke: str = "broke"
    mended: str = "is mended"

    def said(self, change: dict) -> str:
        state = self.broke if change.get("after") else self.mended
        return f"{change['character']}'s {change['weapon']} {state}"

    def declaration(self) -> dict:
        return {"field": self.field, "broke": self.broke, "mended": self.mended}


def find(entries: dict, names) -> str | None:
    """The key of `entries` matching the first of `names` present, ignoring case."""
    keys = {key.casefold(): key for key in entries}
    for name in names:
        if name and name.casefold() in keys:
            return keys[name.casefold()]
    return None


def mapped(sheet: dict, role: str) -> list:
    """The skill the sheet maps a combat role to (sheet key `combat`), as a
    list of names to look for first; empty when it maps none."""
    combat = sheet.get("combat") if isinstance(sheet, dict) else None
    name = combat.get(role) if isinstance(combat, dict) else None
    return [name] if name else []


def wanted(option: str | None, defaults, first=()) -> list:
    """The names to look for: the one asked for, else the sheet's own skill
    for the role (`first`), then the game's usual ones."""
    return [option] if option else [*first, *defaults]
