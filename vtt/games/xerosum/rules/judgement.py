"""Xero Sum's judgement of a roll: the outcome bands and the Moments of Insight.

Kept apart from the dice so the adjudicator, the reroll and the odds all read
a roll the same way."""

DIRE_FAILURE = "dire_failure"
FAILURE = "failure"
SUCCESS = "success"
WILD_SUCCESS = "wild_success"
OUTCOMES = (DIRE_FAILURE, FAILURE, SUCCESS, WILD_SUCCESS)

LOW = "low"
HIGH = "high"

INSIGHT_CMOD = 3  # an Insight Die spent before the roll as a Conditional Modifier


def band(total: int) -> str:
    """The outcome a total earns on its own, before any Moment of Insight."""
    if total <= 3:
        return DIRE_FAILURE
    if total <= 8:
        return FAILURE
    if total <= 13:
        return SUCCESS
    return WILD_SUCCESS


def moment_of_insight(ones: int, sixes: int) -> str | None:
    """Two or more dice showing 1 (or 6) among those counted. With at most
    three dice both cannot happen at once."""
    if ones >= 2:
        return LOW
    if sixes >= 2:
        return HIGH
    return None


def moment_in(faces) -> str | None:
    return moment_of_insight(faces.count(1), faces.count(6))


def outcome(total: int, moment: str | None) -> str:
    """A Moment of Insight overrides the band whatever the modifiers."""
    if moment == LOW:
        return DIRE_FAILURE
    if moment == HIGH:
        return WILD_SUCCESS
    return band(total)


def judge(faces: list, modifier: int) -> dict:
    """The result fields every single roll shares."""
    dice_total = sum(faces)
    total = dice_total + modifier
    moment = moment_in(faces)
    return {
        "dice_total": dice_total,
        "modifier": modifier,
        "total": total,
        "moment_of_insight": moment,
        "outcome": outcome(total, moment),
    }
