"""The viewer whom a read or a render is for, and the sight group they see
a fog scene through. What a viewer may see and control is decided in
vtt.tabletop.policy; what each group sees, in vtt.fog.vision."""

from dataclasses import dataclass

from .models import Role

PARTY = "party"


def group_of(role: str, user_id: int, settings) -> str | None:
    """The group a member sees through: None for a GM (everything)."""
    if role == Role.GM:
        return None
    if role == Role.PLAYER and (settings or {}).get("own_vision"):
        return own_group(user_id)
    return PARTY


def own_group(user_id: int) -> str:
    """The group of a player who sees only through their own tokens."""
    return f"u{user_id}"


@dataclass(frozen=True)
class Viewer:
    user_id: int
    role: str
    # The sight group the viewer sees a fog scene through (vtt.fog.vision):
    # the party unless the table gives each player their own.
    group: str = PARTY

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM
