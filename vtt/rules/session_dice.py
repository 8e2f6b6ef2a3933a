"""Dice anyone can check afterwards: commit and reveal (docs/dice.md).

A play session draws a secret 32-byte seed and publishes its SHA-256 digest
before any roll. Every die of the session's roll number `roll` is read from
the byte stream

    HMAC-SHA256(key=seed, msg=f"{session}:{roll}:{nonce}:{block}")

for block = 0, 1, 2, ... (each block's 32 bytes in order, block after
block). `session` and `roll` are decimal numbers, `nonce` the roller's
lower-case hex. A byte b below 252 is the face b % 6 + 1; bytes 252-255 are
skipped, so each face keeps exactly 42 of the 252 byte values. The dice of
a roll take the faces in the order the rules throw them (the result's
`dice`). When the session ends the seed is published and every roll can
be recomputed.

The seed alone does not decide a roll: the nonce comes from the roller's
browser after the digest is out, so neither side chooses the faces."""

import hashlib
import re
import secrets
from functools import lru_cache

from .errors import RulesError

SEED_BYTES = 32
NONCE_MIN_BYTES = 8
NONCE_MAX_BYTES = 64
SERVER_NONCE_BYTES = 16

# The same mapping as the secure source: byte b < 252 -> face b % 6 + 1.
BYTE_TO_FACE = bytes((b % 6) + 1 if b < 252 else 0 for b in range(256))
REJECTED = bytes(range(252, 256))

_HEX = re.compile(r"[0-9a-f]*")
_BLOCK_SIZE = 64  # SHA-256's block, for HMAC's key padding


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def new_nonce() -> str:
    """A nonce made by the server for a caller that sent none."""
    return secrets.token_hex(SERVER_NONCE_BYTES)


def commitment(seed: bytes) -> str:
    """What is published before the first roll: SHA-256 of the seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


def check_nonce(value, field: str = "nonce") -> str:
    """A roller's nonce: 16 to 128 lower-case hex digits (8 to 64 bytes)."""
    lo, hi = 2 * NONCE_MIN_BYTES, 2 * NONCE_MAX_BYTES
    if (
        not isinstance(value, str)
        or not lo <= len(value) <= hi
        or len(value) % 2
        or not _HEX.fullmatch(value)
    ):
        raise RulesError(
            "invalid", f"{field} must be {lo} to {hi} lower-case hex digits (whole bytes)", field
        )
    return value


def check_seed(value, field: str = "seed") -> bytes:
    """A revealed seed as bytes, from its 64 lower-case hex digits."""
    if not isinstance(value, str) or len(value) != 2 * SEED_BYTES or not _HEX.fullmatch(value):
        raise RulesError(
            "invalid", f"{field} must be {2 * SEED_BYTES} lower-case hex digits", field
        )
    return bytes.fromhex(value)


def message(session: int, roll: int, nonce: str, block: int) -> bytes:
    return f"{session}:{roll}:{nonce}:{block}".encode("ascii")


class _Keyed:
    """HMAC-SHA256 under one key with the padded key's two hash states made
    once (RFC 2104): a session's seed serves every roll of the session, and
    this halves the cost of each block."""

    __slots__ = ("inner", "outer")

    def __init__(self, key: bytes):
        if len(key) > _BLOCK_SIZE:
            key = hashlib.sha256(key).digest()
        key = key.ljust(_BLOCK_SIZE, b"\0")
        self.inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
        self.outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))

    def digest(self, msg: bytes) -> bytes:
        inner = self.inner.copy()
        inner.update(msg)
        outer = self.outer.copy()
        outer.update(inner.digest())
        return outer.digest()


@lru_cache(maxsize=64)
def _keyed(seed: bytes) -> _Keyed:
    return _Keyed(seed)


def hmac_sha256(key: bytes, msg: bytes) -> bytes:
    return _keyed(key).digest(msg)


class SessionDice:
    """The faces of one roll of a session, in the order they are thrown: a
    dice source for the rules engine (`roll()`), like the secure source."""

    __slots__ = ("_keyed", "_prefix", "_block", "_faces")

    def __init__(self, seed: bytes, session: int, roll: int, nonce: str):
        if type(seed) is not bytes or len(seed) != SEED_BYTES:
            raise ValueError(f"a session seed is {SEED_BYTES} bytes")
        self._keyed = _keyed(seed)
        self._prefix = f"{session}:{roll}:{nonce}:"
        self._block = 0
        # Block 0 now: most rolls need no other (it gives 31 faces or so).
        self._faces = iter(self._block_faces())

    def _block_faces(self) -> bytes:
        block = self._keyed.digest(f"{self._prefix}{self._block}".encode("ascii"))
        return block.translate(BYTE_TO_FACE, REJECTED)

    def roll(self) -> int:
        try:
            return next(self._faces)
        except StopIteration:
            while True:  # a block of 32 rejected bytes is possible, if never seen
                self._block += 1
                faces = self._block_faces()
                if faces:
                    self._faces = iter(faces[1:])
                    return faces[0]


def faces(seed: bytes, session: int, roll: int, nonce: str, count: int) -> list[int]:
    """The first `count` faces of a roll."""
    dice = SessionDice(seed, session, roll, nonce)
    return [dice.roll() for _ in range(count)]


def first_mismatch(seed: bytes, session: int, roll: int, nonce: str, shown: list) -> int | None:
    """The index of the first die in `shown` (faces, in order) that the seed
    does not give, or None when every one matches."""
    derived = faces(seed, session, roll, nonce, len(shown))
    for i, (face, expected) in enumerate(zip(shown, derived, strict=True)):
        if face != expected:
            return i
    return None
