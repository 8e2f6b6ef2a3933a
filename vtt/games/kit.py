"""What a game adds to the tabletop, in one object.

A kit holds a game's rules (`system`, from the Django-free vtt.rules) and
everything the table does with them: the campaign settings the rules leave
to the table, the sheet and a new character's counters, how a roll reads the
sheet and what it spends, the house rules laid over a request, the weapon's
damage and the unarmed blow, the combat chain, and the words and numbers the
browser shows. The base class gives the plain answer (nothing spent, no
house rule...); a game overrides what it does differently.

Every method takes the campaign's clean settings where the answer depends on
them, so a kit holds no state and one instance serves every campaign."""

from collections.abc import Callable
from dataclasses import dataclass, field

from vtt.core import shapes

from . import notation
from .log import attack_sentence, say

MAX_COUNTER = 9999


@dataclass(frozen=True)
class Setting:
    """One campaign setting: its default, how a new value is checked
    (value, path) -> clean value, and how the settings form shows it. A
    setting whose default is a dict of lists is one input per key, whose
    label is `label` with the key in place of {group}."""

    default: object
    check: Callable
    label: str = ""
    help: str = ""
    choices: tuple = ()


def choice(default, choices, label="", help=""):
    return Setting(default, lambda v, p: shapes.choice(v, p, choices), label, help, tuple(choices))


def count(default, lo=0, hi=99, label=""):
    return Setting(default, lambda v, p: shapes.whole(v, p, lo, hi), label)


def flag(default, label="", help=""):
    return Setting(default, shapes.boolean, label, help)


DIAGONALS = ("uniform", "alternating")
# Every game plays on the same battle map (RULES.md, range).
DIAGONAL = choice(
    "uniform",
    DIAGONALS,
    "Diagonals on the map",
    "uniform: every step 5 ft; alternating: 5-10-5 on diagonals.",
)

# The table's own settings, the same in every game: each kit has them after
# its game's (GameKit.__init_subclass__), so no game lists them.
PLAYERS_PLACE_TOKENS = flag(
    False,
    "Players may place their own characters on the map",
    "Off: only the GM places tokens. On: a player may put a token of their own "
    "character on the scene the room is on, controlled by them.",
)
OWN_VISION = flag(
    False,
    "Each player sees only through their own tokens",
    "Off: on a scene with fog, the players share the party's view (what any "
    "of their tokens sees). On: each player sees what their own tokens see.",
)
PLAYERS_OPEN_DOORS = flag(
    False,
    "Players may open and close doors next to their tokens",
    "Off: only the GM opens doors. On: a player whose token stands next to a "
    "door may open or close it (never a locked one).",
)
ATTACKS_ON_TURN = flag(
    False,
    "Attacks only on the attacker's turn",
    "Off: anyone may attack with their tokens at any time. On: while an encounter "
    "runs on the scene, a player attacks only with the token whose turn it is; "
    "the GM may act for NPCs at any time and overrule for a player's token.",
)
DRAWING = choice(
    "everyone",
    ("everyone", "gm"),
    "Who may draw on the map",
    "everyone: players draw on the shared layer too; gm: only the GM draws.",
)
TABLE_SETTINGS = {
    "players_place_tokens": PLAYERS_PLACE_TOKENS,
    "own_vision": OWN_VISION,
    "players_open_doors": PLAYERS_OPEN_DOORS,
    "attacks_on_turn": ATTACKS_ON_TURN,
    "drawing": DRAWING,
}


@dataclass(frozen=True)
class WeaponDamage:
    """How a weapon of this game carries its harm: the key on the weapon,
    its check (value, path) -> clean value, and what an unarmed blow has."""

    key: str
    check: Callable
    unarmed: object


NUMBER_DAMAGE = WeaponDamage("damage", lambda v, p: shapes.whole(v, p, 0, 50), 0)


@dataclass(frozen=True)
class CombatRole:
    """A part a skill plays in the game's combat (the melee attack, the
    dodge...): what the sheet editor calls it, and the skill names the
    chain looks for when the sheet maps no skill of its own to it."""

    label: str
    usual: tuple


def attack_roles(skills: dict) -> dict:
    """A melee, missile and spell attack role from a chain's usual skill
    names by weapon kind ({"melee": (...), ...})."""
    return {
        f"{kind}_attack": CombatRole(f"{kind.capitalize()} attack", names)
        for kind, names in skills.items()
    }


@dataclass(frozen=True)
class Words:
    """What a player of the game calls the tray's actions and fields, by
    action id and by field name or dotted path, and the values a choice
    takes (`values`, by value id: "cancel_highest"); `widgets` names fields
    the tray draws with a widget of its own, as data ({"type": "pick",
    "from": "condition_track"}: one of a list setting's names). The browser shows these and
    never a field's name (vtt.web.tray_spec)."""

    actions: dict = field(default_factory=dict)
    fields: dict = field(default_factory=dict)
    values: dict = field(default_factory=dict)
    hints: dict = field(default_factory=dict)
    widgets: dict = field(default_factory=dict)
    counters: dict = field(default_factory=dict)
    # The log's words: a result's or request's field by name (`labels`:
    # "insight_cmod" -> "Insight Die as CMod") and an id a result carries
    # as its value (`said`); added to the words every game shares.
    labels: dict = field(default_factory=dict)
    said: dict = field(default_factory=dict)
    # A die's role in a result ("wild") as the log says it ("Wild Die").
    dice: dict = field(default_factory=dict)

    def counter(self, key: str) -> str:
        """A counter's name as the game writes it ("Insight Dice")."""
        return self.counters.get(key) or key.replace("_", " ").title()


# Field names every game's results and requests share, as the log says them;
# a kit adds its own (Words.labels). A name no table has is still said in
# words (static/js/room/words.js).
LOG_LABELS = {
    "action": "Action",
    "successes": "Successes",
    "margin": "Margin",
    "outcome": "Outcome",
    "total": "Total",
    "modifier": "Modifier",
    "pool": "Dice",
    "difficulty": "Difficulty",
    "automatic": "Taken automatically",
    "critical_success": "Critical Success",
    "critical_failure": "Critical Failure",
    "actor_successes": "Successes",
    "opponent_successes": "Successes against",
    "actor": "Roller",
    "opponent": "Against",
    "kind": "Kind",
    "modifier_dice": "Help or hindrance dice",
    "skill": "Skill",
}
# Dice roles every game may give a die, as the log says them (Words.dice
# adds a game's).
DIE_ROLES = {"regular": "die", "explosion": "explosion", "reroll": "re-roll"}
# Values that are ids, as every game says them (Words.said adds a game's).
LOG_VALUES = {
    "actor": "the roller",
    "opponent": "the other side",
    "draw": "a draw",
}


def read_entries(read, sheet: dict, entries: list, path: str) -> list:
    """Each entry read from the sheet; the field at `path` is refused by
    name when the sheet lacks one."""
    values = []
    for entry in entries:
        value = read(sheet, entry)
        if value is None:
            raise shapes.invalid(path, f"the sheet has no entry {entry!r}")
        values.append(value)
    return values


class GameKit:
    system = None  # vtt.rules.systems.System
    # name -> Setting, the diagonal included; TABLE_SETTINGS are added to
    # every game's by __init_subclass__.
    settings: dict = {}
    counters: tuple = ()  # resources a character spends or earns, all start at 0
    damage: WeaponDamage = NUMBER_DAMAGE
    chain = None  # the combat chain (see vtt.games.combat)
    # What wounds mean (vtt.games.wounds); None: the game says nothing.
    wound_track = None
    # The parts skills play in combat, by role id ("melee_attack"): a sheet
    # may map a role to one of its own skills (sheet key `combat`).
    combat_roles: dict = {}
    words = Words()
    # How the room's log says a result: a module with sentence(request, result).
    log = None
    # What a new row of a named map on the sheet starts as (the sheet editor
    # draws named maps as tables), by the map's key.
    new_entries: dict = {}
    # Request fields a sheet entry fills in the tray, and the field that
    # takes the entry's pips.
    fillable: tuple = ()
    pips_field: str | None = None
    # A later roll that replaces dice of an earlier one, offered in the log
    # under the roller's own result: {"action", "of": [actions], "spend"}.
    reroll: dict | None = None
    # The defences a GM may choose for the target of an attack.
    defenses: tuple = ()
    # The sheet's numbers a roll may read, as (map, key in an entry or None
    # for a plain number, how the tray shows it): ("skills", "level",
    # "{name} {value}") reads sheet["skills"]["Climb"]["level"].
    sheet_numbers: tuple = ()
    # What the GM's one click takes a hit's damage off, as the log says it
    # ("wounds"); None: "the target".
    damage_to: str | None = None
    # Steps a player may take for their own character outside a roll
    # (vtt.games.reactions): spending a resource against a hit, a way back
    # from dying. One service, endpoint and intent carry out any of them;
    # the room draws them from their declarations.
    reactions: tuple = ()
    # What a weapon the chain breaks is in an attack's changes, and its
    # words (vtt.games.combat.WeaponChange); None: the chain breaks none.
    weapon_change = None
    # Request fields the tray presets from a campaign setting of another
    # name ({"result_dice": "result_points_to_damage"}); a field named as
    # a setting is preset from it without being listed.
    request_settings: dict = {}
    # The sheet's named maps whose names the attack form offers as the skill
    # to attack with, in order.
    skill_maps: tuple = ("skills",)
    # The status markers the game names (vtt.games.conditions.Condition),
    # with the effect each has on a roll where the rules give one.
    conditions: tuple = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # The game's own settings first, then the table's (see TABLE_SETTINGS).
        cls.settings = {**cls.settings, **TABLE_SETTINGS}

    @property
    def id(self) -> str:
        return self.system.id

    @property
    def name(self) -> str:
        return self.system.name

    # ---- the sheet

    def clean_sheet(self, sheet: dict, settings: dict) -> dict:
        raise NotImplementedError

    def sheet_choices(self, settings: dict) -> dict:
        """Sheet inputs that take one of a few values, by path with names as *."""
        return {}

    def starting_resources(self, settings: dict) -> dict:
        """A new character's counters (and any named state)."""
        return dict.fromkeys(self.counters, 0)

    def clean_resource(self, key: str, value, path: str, settings: dict):
        return shapes.whole(value, path, 0, MAX_COUNTER)

    def skill_names(self, sheet: dict) -> list[str]:
        """The skills a sheet may map a combat role to."""
        skills = sheet.get("skills", {})
        return list(skills) if isinstance(skills, dict) else []

    def clean_combat(self, value, skills) -> dict:
        """The sheet's `combat` key: role -> one of the sheet's own skills.
        An empty name leaves the role to the usual names (and is not kept)."""
        if value is None:
            return {}
        shapes.obj(value, "sheet.combat", allowed=self.combat_roles)
        clean = {}
        for role, name in value.items():
            path = f"sheet.combat.{role}"
            if name is None or name == "":
                continue
            name = shapes.text(name, path, 60)
            if name not in skills:
                known = ", ".join(skills) or "none yet"
                raise shapes.invalid(path, f"must name one of the sheet's skills ({known})")
            clean[role] = name
        return clean

    def wounds(self, resources: dict, settings: dict) -> dict | None:
        """{"state", "out", "dead"} from the character's resources, or None
        when the game has no wound track."""
        if self.wound_track is None:
            return None
        found = self.wound_track.state(resources or {}, settings or {})
        return found.data() if found else None

    def cannot_act(self, resources: dict, settings: dict) -> str | None:
        """The state that keeps the character from acting (attacking, being
        rolled for), by its name on the campaign's track, or None. The rules
        put it where the wound track has them out of the fight:
        Incapacitated and Dead on a ladder or Artifice's Condition track,
        Dying in Xero Sum (see docs/combat.md, "Who may act")."""
        found = self.wounds(resources, settings)
        return found["state"] if found and found["out"] else None

    def number(self, sheet: dict, entry: str) -> int | None:
        """One sheet entry as a number, or None when the sheet has none."""
        for map_name, key, _ in self.sheet_numbers:
            found = sheet.get(map_name, {}).get(entry)
            if found is not None:
                return found if key is None else found[key]
        return None

    def fill(self, holder: dict, name: str, sheet: dict, entries: list, path: str) -> None:
        """Set request field `name` of `holder` from the sheet entries added up."""
        holder[name] = sum(read_entries(self.number, sheet, entries, path))

    def entries(self, sheet: dict) -> list[dict]:
        """What the tray offers from a sheet: {"label", "value"[, "pips"]}."""
        offered = []
        for map_name, key, label in self.sheet_numbers:
            for name, found in sheet.get(map_name, {}).items():
                value = found if key is None else found[key]
                offered.append({"label": label.format(name=name, value=value), "value": value})
        return offered

    # ---- rolls

    def spends(self, action: str, fields: dict) -> dict[str, int]:
        """What a clean request of `action` takes from the rolling character."""
        return {}

    def gains(self, result: dict) -> dict[str, int]:
        """What a result gives back to the rolling character."""
        return {}

    def parse_roll(self, text: str, settings: dict) -> dict:
        """A rules request from the chat's dice notation ("/r 3D diff 2"
        less the command), or a ServiceError (`bad_roll`, field `text`)
        that says how this game's rolls are written. A game without a
        notation of its own takes its actions' fields by name."""
        return notation.generic_parse(self.system, text)

    def roll_help(self, settings: dict) -> str:
        """The chat's dice notation for this game, a few lines for /help."""
        return notation.generic_help(self.system)

    def request_defaults(self, settings: dict) -> dict:
        """Request fields whose default the campaign's settings change."""
        return {}

    def check_request(self, settings: dict, request: dict) -> None:
        """Refuse (ServiceError) what the table does not allow."""

    def sentence(self, request: dict, result: dict, who: str | None = None) -> str:
        """The result in the log's words, said of `who` (the character's or
        the roller's name): "Tenrec rolls 3D+1 against Difficulty Moderate
        (2): ..."."""
        if self.log is not None:
            return self.log.sentence(request, result, who=who)
        return say({}, self.words.actions, {}, request, result, who=who)

    def attack_sentence(self, attack: dict, state: str | None = None) -> str:
        """An attack (vtt.combat's attack data) in the log's words: who hits
        whom, the dice as the game says them, the damage and the wound state
        reached (`state`, None when not known)."""
        step = next(
            (
                s
                for s in attack.get("steps") or []
                if isinstance(s, dict) and s.get("step") == "attack"
            ),
            {},
        )
        detail = ""
        speak = getattr(self.log, "attack_detail", None)
        if speak is not None:
            try:
                detail = speak(step.get("request") or {}, step.get("result") or {}) or ""
            except (TypeError, ValueError, KeyError, AttributeError):
                detail = ""  # an attack stored in an older shape: say less
        return attack_sentence(attack, detail, state, self.reaction_on("attack"))

    # ---- the campaign

    def settings_changed(self, before: dict, after: dict, characters: list) -> list:
        """Carry a settings change over to the characters; the changed ones."""
        return []

    def unarmed(self) -> dict:
        weapon = {"name": "Unarmed", "kind": "melee", "range_ft": None}
        return weapon | {self.damage.key: self.damage.unarmed}

    def condition(self, condition_id) -> object | None:
        """The declared condition of that id, or None."""
        return next((c for c in self.conditions if c.id == condition_id), None)

    def reaction(self, reaction_id) -> object | None:
        """The declared reaction of that id, or None."""
        return next((r for r in self.reactions if r.id == reaction_id), None)

    def reaction_on(self, on: str) -> object | None:
        """The first reaction taken on an attack or on a character, or None."""
        return next((r for r in self.reactions if r.on == on), None)

    def _declared(self, on: str) -> list[dict]:
        return [r.declaration() for r in self.reactions if r.on == on]

    def browser(self) -> dict:
        """What the browser needs besides the tray's fields."""
        return {
            "fillable": list(self.fillable),
            "pips_field": self.pips_field,
            "protected": list(getattr(self.chain, "PROTECTED", ())),
            "reroll": self.reroll,
            "defenses": list(self.defenses),
            # Choice values a request may carry, as the game says them.
            "values": dict(self.words.values),
            # The counters the sheet tab shows and spends, in the kit's order.
            "counters": [{"key": key, "label": self.words.counter(key)} for key in self.counters],
            # The log's words for field names and for ids given as values.
            "labels": LOG_LABELS | self.words.labels,
            "said": LOG_VALUES | self.words.said,
            "dice": DIE_ROLES | self.words.dice,
            "damage_to": self.damage_to,
            # The reaction drawn under an attack that waits for its
            # defender, and those the turn order offers for a character.
            "reaction": self._declared("attack")[0] if self._declared("attack") else None,
            "turn_actions": self._declared("character"),
            "weapon_change": self.weapon_change.declaration() if self.weapon_change else None,
            "request_settings": dict(self.request_settings),
            "skill_maps": list(self.skill_maps),
            "wound_track": self.wound_track.declaration() if self.wound_track else None,
            "conditions": [c.declaration() for c in self.conditions],
        }
