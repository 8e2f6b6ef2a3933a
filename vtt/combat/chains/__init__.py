"""Each game's combat chain: which rules requests an attack makes, how the
pools come from the two characters' sheets and the weapon, and what the
results change on the target. One module per game, found by system id.

A chain module defines:
- attack_request(ctx) -> the first rules request (before the GM's overrides);
- resolve(ctx, result, roll) -> Resolution, rolling any further step with
  roll(step, request) -> result;
- DAMAGE: (resource, sign) the GM's one-click damage changes, or None;
- PROTECTED: request fields (dotted) the server decides and no override may set;
- initiative_request(sheet, settings) and initiative_value(result).
"""

from . import apocalyptia, artifice, fgr, rd6, xerosum
from .base import Context, Resolution, Side

CHAINS = {
    "artifice": artifice,
    "apocalyptia": apocalyptia,
    "fgr": fgr,
    "rd6": rd6,
    "xerosum": xerosum,
}

__all__ = ["CHAINS", "Context", "Resolution", "Side"]
