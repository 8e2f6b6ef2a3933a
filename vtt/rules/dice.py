"""Where faces come from: a secure source for real rolls, the dice tape for
physical dice and pinned tests, and the Roller that records every die thrown."""

import os
import threading

from .errors import RulesError

# Map every byte to a face; bytes 252..255 are dropped so each face keeps
# exactly 42 of the 252 remaining values (rejection sampling, no modulo bias).
_BYTE_TO_FACE = bytes((b % 6) + 1 if b < 252 else 0 for b in range(256))
_REJECTED = bytes(range(252, 256))
_CHUNK = 4096


class SecureDice:
    """Cryptographically secure d6 faces from a per-thread buffer of os.urandom.

    Each thread keeps its own buffer, so no lock is needed; a forked child
    clears every buffer so parent and child never share faces."""

    def __init__(self):
        self._local = threading.local()
        os.register_at_fork(after_in_child=self._forget)

    def _forget(self):
        self._local = threading.local()

    def _refill(self) -> int:
        faces = iter(os.urandom(_CHUNK).translate(_BYTE_TO_FACE, _REJECTED))
        self._local.faces = faces
        return next(faces)

    def roll(self) -> int:
        # The hot path is one attribute read and one next() on a bytes iterator.
        try:
            return next(self._local.faces)
        except (AttributeError, StopIteration):
            return self._refill()


SECURE = SecureDice()


class DiceTape:
    """Faces given in tape order. Running past the end keeps going with a
    neutral face (2: no success in most pools, no explosion, no botch, no
    critical check) so we can tell how many more faces are needed at least."""

    NEUTRAL = 2

    def __init__(self, faces: list):
        if not isinstance(faces, list):
            raise RulesError("invalid", "faces must be a list of die faces 1-6", "faces")
        for i, face in enumerate(faces):
            if type(face) is not int or not 1 <= face <= 6:
                raise RulesError(
                    "bad_face",
                    f"faces[{i}] is {face!r}; a face is a whole number from 1 to 6",
                    "faces",
                )
        self._faces = faces
        self._pos = 0
        self.missing = 0

    def roll(self) -> int:
        if self._pos < len(self._faces):
            face = self._faces[self._pos]
            self._pos += 1
            return face
        self.missing += 1
        return self.NEUTRAL

    def finish(self) -> None:
        """Raise if the tape was too short or too long for the roll."""
        if self.missing:
            raise RulesError(
                "faces_exhausted",
                f"the dice tape ran out: at least {self.missing} more face(s) needed",
                "faces",
            )
        unused = len(self._faces) - self._pos
        if unused:
            raise RulesError(
                "faces_unused",
                f"{unused} face(s) left on the dice tape after the roll was complete",
                "faces",
            )


class Roller:
    """Throws dice from a source and records each one, in tape order, as the
    result's `dice` entry: {"pool", "role", "face", "value", "success"}.
    Callers may later set a die's `value` (pip modifiers) or `success`."""

    __slots__ = ("source", "dice")

    def __init__(self, source=None):
        self.source = source or SECURE
        self.dice: list[dict] = []

    def die(self, pool: str, role: str, success=None) -> dict:
        """Throw one die. `success` is None (not a counting die) or a callable
        face -> bool."""
        face = self.source.roll()
        d = {
            "pool": pool,
            "role": role,
            "face": face,
            "value": face,
            "success": None if success is None else success(face),
        }
        self.dice.append(d)
        return d
