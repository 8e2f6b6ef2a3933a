"""Xero Sum's wound track: Wound Points, which damage takes away; at 0 the
character is Dying, and spending every Insight Die saves them."""

from vtt.core.errors import ServiceError

from ..kit import MAX_COUNTER, Setting
from ..wounds import SKIP_FALLEN, WoundState, WoundTrack, clean_states


class Dying(WoundTrack):
    """Xero Sum: below the campaign's starting Wound Points a character is
    hurt; at 0 Wound Points Dying. Giving up every Insight Die recovers one
    Wound Point and one Resilience Point per die and saves them."""

    kind = "dying"
    reads = ("wound_points",)
    settings = {
        "wound_states": Setting(
            ["Unhurt", "Wounded", "Dying"],
            clean_states(3, 3),
            "Wound states (three, one per line)",
            "At full Wound Points, below them, and at 0 Wound Points.",
        ),
        "skip_fallen": SKIP_FALLEN,
    }

    def state(self, resources, settings):
        names = settings.get("wound_states") or self.settings["wound_states"].default
        points = resources.get("wound_points", 0)
        full = settings.get("starting_wound_points", 10)
        if type(points) is not int or points <= 0:
            return WoundState(names[2], True, False, True)
        hurt = points < full
        return WoundState(names[1] if hurt else names[0], False, False, hurt)

    def declaration(self):
        return super().declaration() | {
            "states": {
                "setting": "wound_states",
                "default": self.settings["wound_states"].default,
                "least": 3,
            },
            "index": {"by": "below", "full": {"setting": "starting_wound_points", "default": 10}},
            "out": 1,
            "dead": False,
            "amount": "WP {value}",
        }

    def rescue(self, resources, settings):
        state = self.state(resources, settings)
        if not state.out:
            raise ServiceError(
                "not_dying",
                f"only a Dying character can be saved this way (this one is {state.state})",
                "character",
            )
        dice = resources.get("insight_dice", 0)
        if dice <= 0:
            raise ServiceError(
                "insufficient_insight_dice",
                "saving a Dying character costs every Insight Die, and there are none",
                "character",
            )

        def plus(key):
            return min(MAX_COUNTER, resources.get(key, 0) + dice)

        return {
            **resources,
            "insight_dice": 0,
            "wound_points": plus("wound_points"),
            "resilience_points": plus("resilience_points"),
        }
