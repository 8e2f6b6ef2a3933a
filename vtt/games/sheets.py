"""Character sheets, weapons and resources: what a valid sheet holds, with
the game's limits, and the normalised form that is stored (every default
filled in, so a reader never guesses). Each game's sheet and counters are in
its kit (vtt.games); the weapons' shape is shared.

Each clean_* function returns the clean value or raises ServiceError naming
the field (`sheet.skills.Climb.level`, `weapons[0].range_ft`...). The shapes
are described for people in docs/data-model.md."""

from vtt import games
from vtt.core import shapes


def clean_sheet(game: str, sheet, settings: dict) -> dict:
    if sheet is None:
        sheet = {}
    kit = games.kit(game)
    clean = kit.clean_sheet(sheet, settings)
    # A sheet may map the game's combat roles to its own skills: checked
    # here for every game, against the skills the kit just cleaned.
    combat = kit.clean_combat(sheet.get("combat"), kit.skill_names(clean))
    return clean | {"combat": combat} if combat else clean


# ---------------------------------------------------------------- weapons

WEAPON_KINDS = ("melee", "missile", "spell")
LINE_OF_SIGHT = "line_of_sight"
MAX_WEAPONS = 20
MAX_RANGE_FT = 5000


def _range_ft(value, kind, path):
    if value is None:
        return None  # no listed range: the rules' default bands
    if value == LINE_OF_SIGHT:
        if kind != "spell":
            raise shapes.invalid(path, "only a spell reaches by line of sight")
        return value
    return shapes.whole(value, path, 5, MAX_RANGE_FT)


def clean_weapons(game: str, weapons) -> list:
    if weapons is None:
        weapons = []
    shapes.items(weapons, "weapons", MAX_WEAPONS)
    # Artifice weapons carry Lethality, Rd6 a damage die code, the others a number.
    damage = games.kit(game).damage
    clean = []
    for i, weapon in enumerate(weapons):
        path = f"weapons[{i}]"
        shapes.obj(weapon, path, allowed=("name", "kind", "range_ft", damage.key))
        kind = shapes.choice(weapon.get("kind", "melee"), f"{path}.kind", WEAPON_KINDS)
        clean.append(
            {
                "name": shapes.text(weapon.get("name"), f"{path}.name", 60),
                "kind": kind,
                "range_ft": _range_ft(weapon.get("range_ft"), kind, f"{path}.range_ft"),
                damage.key: damage.check(
                    weapon.get(damage.key, damage.unarmed), f"{path}.{damage.key}"
                ),
            }
        )
    return clean


# ---------------------------------------------------------------- resources


def resource_defaults(game: str, settings: dict) -> dict:
    """A new character's counters (and Artifice's condition)."""
    return games.kit(game).starting_resources(settings)


def clean_resources(game: str, data, settings: dict, base: dict | None = None) -> dict:
    """`data` over `base` (the stored resources, or the game's starting ones)."""
    kit = games.kit(game)
    clean = dict(base) if base is not None else kit.starting_resources(settings)
    if data is None:
        return clean
    allowed = kit.starting_resources(settings)
    shapes.obj(data, "resources", allowed=allowed)
    for key, value in data.items():
        clean[key] = kit.clean_resource(key, value, f"resources.{key}", settings)
    return clean
