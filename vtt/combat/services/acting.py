"""Who may act now: the rules kept at the table before an attack is made.

- A token whose character is in a state that forbids acting (its game's
  kit says which: Incapacitated and Dead on a ladder or Artifice's
  Condition track, Dying in Xero Sum) does not attack (`cannot_act`).
- With the campaign's `attacks_on_turn` on, while an encounter runs on the
  scene and it is somebody's turn, a player attacks only with the token
  whose turn it is (`not_your_turn`). The GM acts for NPCs at any time.

A GM may overrule both for one attack (`options.overrule`): a zombie that
does not stop at Incapacitated, a reaction the rules give out of turn."""

from vtt.dice.rolls import check_can_act
from vtt.tabletop import policy
from vtt.tabletop.models import Character, Token
from vtt.tabletop.services.errors import ServiceError

__all__ = ["check_can_act", "check_turn"]

from ..models import Encounter


def _players_token(token: Token) -> bool:
    character = token.character
    return bool(token.controller_ids) or (
        character is not None and character.kind == Character.Kind.PC
    )


def check_turn(campaign, token: Token, name: str, who, field: str) -> None:
    """Refuse an attack by a token whose turn it is not, when the campaign
    keeps attacks to turns and an encounter runs on the token's scene."""
    if not (campaign.settings or {}).get("attacks_on_turn"):
        return
    if policy.runs_table(who) and not _players_token(token):
        return  # the GM acts for the NPCs whenever the story needs them
    encounter = (
        Encounter.objects.filter(scene_id=token.scene_id, ended_at__isnull=True)
        .select_related("current")
        .first()
    )
    if encounter is None:
        return
    current = encounter.current
    if current is None:
        raise ServiceError(
            "not_your_turn",
            f"the encounter has begun but it is nobody's turn yet: {name} waits",
            field,
        )
    if current.token_id != token.pk:
        raise ServiceError(
            "not_your_turn", f"it is {current.name}'s turn: {name} cannot attack now", field
        )
