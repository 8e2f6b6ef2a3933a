"""How the dice came up: each face's count against the n/6 a fair die
gives, per player and per character, with a chi-square goodness-of-fit test
said in plain words (docs/dice.md, "Dice statistics").

The dice counted are the play sessions' throws as one viewer saw them in
the log: what the policy (event_view) shows them, so a roll hidden from a
player is not in their figures, and each throw counts once (an attack shows
again in its damage entry, a hidden roll in its reveal). Dice the server
threw and dice a person entered (physical dice) are counted apart: only the
first say anything about the server's dice."""

import math

from django.contrib.auth import get_user_model

from vtt.tabletop import policy
from vtt.tabletop.models import RoomEvent
from vtt.tabletop.serialize import user_data
from vtt.tabletop.visibility import Viewer

from . import draws

FACES = (1, 2, 3, 4, 5, 6)
DEGREES_OF_FREEDOM = len(FACES) - 1
# Below this many dice a face expects fewer than 5: the chi-square test's
# usual condition for its p-value to mean what it says.
FEWEST_DICE = 30
FAIR, CHANCE = 0.05, 0.01

TOO_FEW = "too few dice to say"
LOOK_FAIR = "these dice look fair"
A_LITTLE_UNEVEN = "a little uneven, within what chance does"
UNEVEN = "these dice look uneven"


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with `df` degrees of freedom: the
    closed form of the survival function (an even df a finite Poisson sum,
    an odd df the normal tail erfc plus a finite sum)."""
    if df < 1:
        raise ValueError("df must be at least 1")
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term = total = math.exp(-half)
        for i in range(1, df // 2):
            term *= half / i
            total += term
    else:
        total = math.erfc(math.sqrt(half))
        term = math.sqrt(2 * x / math.pi) * math.exp(-half)
        for r in range(1, (df + 1) // 2):
            total += term
            term *= x / (2 * r + 1)
    return min(1.0, max(0.0, total))


def verdict(dice: int, p: float | None) -> str:
    if dice < FEWEST_DICE or p is None:
        return TOO_FEW
    if p >= FAIR:
        return LOOK_FAIR
    if p >= CHANCE:
        return A_LITTLE_UNEVEN
    return UNEVEN


def fit(counts: list[int]) -> dict:
    """Six faces' counts against a fair die: expected count, chi-square,
    its p-value and the words for it."""
    dice = sum(counts)
    expected = dice / len(FACES)
    if dice == 0:
        chi2 = p = None
    else:
        chi2 = sum((c - expected) ** 2 / expected for c in counts)
        p = chi_square_sf(chi2, DEGREES_OF_FREEDOM)
    return {
        "dice": dice,
        "counts": dict(zip(FACES, counts, strict=True)),
        "expected": expected,
        "chi_square": chi2,
        "p": p,
        "verdict": verdict(dice, p),
    }


class _Group:
    """The throws of one player or one character."""

    def __init__(self, name: str):
        self.name = name
        self.throws = self.physical_throws = 0
        self.server = [0] * len(FACES)
        self.physical = [0] * len(FACES)

    def add(self, throw: dict) -> None:
        self.throws += 1
        counts = self.physical if throw["physical"] else self.server
        self.physical_throws += throw["physical"]
        for face in throw["faces"]:
            if face in FACES:
                counts[face - 1] += 1

    def data(self) -> dict:
        return {
            "name": self.name,
            "throws": self.throws,
            "physical_throws": self.physical_throws,
            "physical_share": self.physical_throws / self.throws if self.throws else 0.0,
            "dice": fit(self.server),
            "physical": fit(self.physical),
        }


def seen_throws(campaign_id: int, viewer: Viewer, session: int | None = None) -> list[dict]:
    """The sessions' throws the viewer saw (of one session, or all), each
    once, in log order, each with `by` (who threw it) filled in."""
    events = RoomEvent.objects.filter(campaign_id=campaign_id, kind__in=draws.THROWING)
    seen: dict[tuple[int, int], dict] = {}
    for event in events.order_by("seq").iterator():
        view = policy.event_view(event, viewer)
        for throw in draws.throws(view["type"], view.get("data")):
            key = (throw["session"], throw["roll"])
            if key in seen or (session is not None and throw["session"] != session):
                continue
            if throw["by"] is None:
                # An initiative roll: whoever logged the entry threw it.
                throw["by_id"] = _thrower_id(event, view)
            seen[key] = throw
    _name_throwers(seen.values())
    return list(seen.values())


def _thrower_id(event, view) -> int | None:
    if view["type"] == event.kind:
        return event.actor_id
    # A reveal carries the hidden entry: its actor threw the dice, not the revealer.
    of_seq = view["data"]["of_seq"]
    original = RoomEvent.objects.filter(campaign_id=event.campaign_id, seq=of_seq)
    return original.values_list("actor_id", flat=True).first()


def _name_throwers(throws) -> None:
    wanted = {t["by_id"] for t in throws if t.get("by_id")}
    users = {u.pk: user_data(u) for u in get_user_model().objects.filter(pk__in=wanted)}
    for throw in throws:
        if "by_id" in throw:
            throw["by"] = users.get(throw.pop("by_id"))


def dice_stats(campaign_id: int, viewer: Viewer, session: int | None = None) -> dict:
    """Everyone's dice the viewer saw, per player and per character."""
    everyone = _Group("Everyone")
    players: dict[int, _Group] = {}
    characters: dict[str, _Group] = {}
    for throw in seen_throws(campaign_id, viewer, session):
        everyone.add(throw)
        if throw["by"]:
            user = throw["by"]
            players.setdefault(user["id"], _Group(user["name"])).add(throw)
        if throw["character"]:
            name = throw["character"]
            characters.setdefault(name, _Group(name)).add(throw)

    def listed(groups):
        return [g.data() for g in sorted(groups, key=lambda g: g.name.casefold())]

    return {
        "campaign_id": campaign_id,
        "session": session,
        "everyone": everyone.data(),
        "players": listed(players.values()),
        "characters": listed(characters.values()),
    }
