"""The viewer whom a read or a render is for. What a viewer may see and
control is decided in vtt.tabletop.policy."""

from dataclasses import dataclass

from .models import Role


@dataclass(frozen=True)
class Viewer:
    user_id: int
    role: str
    # The sight group the viewer sees a fog scene through (vtt.tabletop.vision):
    # the party unless the table gives each player their own.
    group: str = "party"

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM
