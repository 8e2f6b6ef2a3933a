"""What each social check's outcome means, as result fields the server and the
table can act on. A Moment of Insight counts as its band, so only the four
outcomes are needed."""

from .judgement import DIRE_FAILURE, FAILURE, SUCCESS, WILD_SUCCESS

CONSEQUENCES = {
    # The CMod on every future interaction with this NPC.
    "first_impression": {
        WILD_SUCCESS: {"consequence": "favorable", "future_cmod": 1},
        SUCCESS: {"consequence": "no_strong_feeling", "future_cmod": 0},
        FAILURE: {"consequence": "terrible", "future_cmod": -1},
        DIRE_FAILURE: {"consequence": "threatening", "future_cmod": -5},
    },
    # What the character reads in the NPC; the GM narrates it.
    "gut_instinct": {
        WILD_SUCCESS: {"consequence": "understands_motivations"},
        SUCCESS: {"consequence": "gets_a_read"},
        FAILURE: {"consequence": "no_read"},
        DIRE_FAILURE: {"consequence": "takes_at_face_value"},
    },
    # The CMod the other side's Rebuttal takes, or the end of the talks.
    "gambit": {
        WILD_SUCCESS: {
            "consequence": "overwhelming",
            "rebuttal_cmod": -3,
            "negotiation_over": False,
        },
        SUCCESS: {"consequence": "intrigued", "rebuttal_cmod": -1, "negotiation_over": False},
        FAILURE: {"consequence": "falls_short", "rebuttal_cmod": 1, "negotiation_over": False},
        DIRE_FAILURE: {"consequence": "rejected", "rebuttal_cmod": None, "negotiation_over": True},
    },
    # How the negotiation resolves.
    "rebuttal": {
        WILD_SUCCESS: {"consequence": "very_likely_to_consider", "negotiation_over": False},
        SUCCESS: {"consequence": "may_consider", "negotiation_over": False},
        FAILURE: {"consequence": "poorly_received", "negotiation_over": True},
        DIRE_FAILURE: {"consequence": "turns_hostile", "negotiation_over": True},
    },
}


def consequence(action: str, outcome: str) -> dict:
    """The extra result fields of `action` for `outcome` (none for a plain check)."""
    table = CONSEQUENCES.get(action)
    return dict(table[outcome]) if table else {}
