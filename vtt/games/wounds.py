"""Wound tracks: what a character's wounds mean at the table.

Every game answers one question the same way: given a character's resources
and the campaign's settings, which state is the character in, is it out of
the fight (incapacitated or worse: skipped when the turn passes) and is it
dead. A track declares the campaign settings it reads (its state names and
thresholds, with defaults; docs/rules.md "Wound tracks" says where each
default comes from) and the resources it reads. The answer is pure: no
database, no clock.

- `ConditionTrack`: Artifice's Condition, a named step on the campaign's
  track; the second to last is Incapacitated, the last Dead.
- `Ladder`: a damage counter that grows (Fantasy Ground Rules, Rd6,
  Apocalyptia wounds); every `wounds_per_state` points is one state down a
  list of names whose second to last is out and last is dead.
A game with a track of its own (Xero Sum's Dying) keeps it in its package,
built on WoundTrack and the helpers here."""

from dataclasses import dataclass

from vtt.core import shapes
from vtt.core.errors import ServiceError

from .kit import Setting, count, flag

# Shared by every track: whether the turn order passes over the fallen.
SKIP_FALLEN = flag(True, "Skip the incapacitated and the dead when the turn passes")


@dataclass(frozen=True)
class WoundState:
    state: str
    out: bool  # incapacitated or worse: cannot act, skipped in the turn order
    dead: bool
    hurt: bool  # past the track's first state: the map's badge shows it

    def data(self) -> dict:
        return {"state": self.state, "out": self.out, "dead": self.dead, "hurt": self.hurt}


def _at(track: list, index: int) -> WoundState:
    """The index-th state of a track whose second to last is out and last dead."""
    index = max(0, min(index, len(track) - 1))
    return WoundState(track[index], index >= len(track) - 2, index == len(track) - 1, index > 0)


class WoundTrack:
    """No track: the game says nothing about what wounds do."""

    settings: dict = {}
    # The resources the state is read from: a change to one of them changes
    # the state, and shows nothing else about the character.
    reads: tuple = ()

    kind = "none"

    def state(self, resources: dict, settings: dict) -> WoundState | None:
        return None

    def browser(self) -> dict:
        """The kind of track and its resource (the room config's)."""
        return {"kind": self.kind, "reads": self.reads[0] if self.reads else None}

    def declaration(self) -> dict:
        """How the room page reads the state again after a change and says
        it (static/js/room/wounds.js, roster.js), as data, so a track of any
        kind is drawn without a script that knows it (the tray spec's
        `wound_track`):

        - `kind` (a name only) and `reads`, the resource the state is read from;
        - `states`: the state names, from the campaign setting `setting` or
          else `default`, and the fewest a track must have (`least`);
        - `index`: how the resource picks a state: `{"by": "name"}` (the
          resource is a state's name), `{"by": "step", "per": ref}` (one state
          down every `per` points), `{"by": "below", "full": ref}` (points
          that damage takes away: the first state at `full`, the second below
          it, the last at 0), `{"by": "thresholds", "at": [n...]}` (one state
          down at each number reached); a ref is `{"setting", "default"}`;
        - `out`: how many of the last states are out of the fight, and
          `dead`: whether the last is dead;
        - the words: `amount` the resource after a hurt state ("WP {value}"),
          `mark` the map's badge for a resource that counts before the first
          step down ("Wounds {value}", when above `mark_above`)."""
        return self.browser() | {
            "states": {"setting": None, "default": [], "least": 1},
            "index": {"by": "name"},
            "out": 2,
            "dead": True,
            "amount": None,
            "mark": None,
            "mark_above": 0,
        }

    def rescue(self, resources: dict, settings: dict) -> dict:
        """The resources after the game's way back from dying, or a refusal."""
        raise ServiceError("no_rescue", "this game has no way to be saved from dying", "character")


class ConditionTrack(WoundTrack):
    """Artifice: the Condition on the campaign's `condition_track` (declared
    with the kit's other settings, since sheets and attacks read it too)."""

    kind = "condition"
    settings = {"skip_fallen": SKIP_FALLEN}
    reads = ("condition",)

    def __init__(self, default_track: list):
        self.default_track = default_track

    def state(self, resources, settings):
        track = settings.get("condition_track") or self.default_track
        condition = resources.get("condition", track[0])
        return _at(track, track.index(condition) if condition in track else 0)

    def declaration(self):
        states = {"setting": "condition_track", "default": list(self.default_track), "least": 1}
        return super().declaration() | {"states": states, "mark": "{value}"}


def clean_states(lo: int, hi: int):
    return lambda value, path: shapes.distinct_names(value, path, lo, hi)


class Ladder(WoundTrack):
    """A counter that damage adds to: `wounds_per_state` points a state."""

    kind = "ladder"

    def __init__(self, counter: str, states: list, per_state: int):
        self.counter = counter
        self.reads = (counter,)
        self.settings = {
            "wound_states": Setting(
                list(states),
                clean_states(3, 12),
                "Wound states, best to worst (one per line)",
                "The second to last is out of the fight, the last is dead.",
            ),
            "wounds_per_state": count(per_state, 1, 999, "Wounds for each state down the track"),
            "skip_fallen": SKIP_FALLEN,
        }

    def state(self, resources, settings):
        track = settings.get("wound_states") or self.settings["wound_states"].default
        step = settings.get("wounds_per_state") or self.settings["wounds_per_state"].default
        wounds = resources.get(self.counter, 0)
        return _at(track, wounds // step if type(wounds) is int else 0)

    def declaration(self):
        default = self.settings["wounds_per_state"].default
        return super().declaration() | {
            "states": {
                "setting": "wound_states",
                "default": self.settings["wound_states"].default,
                "least": 3,
            },
            "index": {"by": "step", "per": {"setting": "wounds_per_state", "default": default}},
            "amount": "{value} wounds",
            "mark": "Wounds {value}",
        }
