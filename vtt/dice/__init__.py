"""The dice thrown at the table: a roll adjudicated, spent for and logged
(`rolls.py`), the sheet read into its request (`character_rolls.py`), and the
campaign's play sessions whose committed seeds draw every throw, so anyone
can verify them afterwards (`sessions.py`; docs/dice.md)."""

from .rolls import roll_adjudicate, roll_record
from .sessions import session_end, session_start

__all__ = ["roll_adjudicate", "roll_record", "session_end", "session_start"]
