"""The session dice (vtt/rules/session_dice.py, docs/dice.md): known answers,
an exact count of the faces each byte gives, and a changed die caught."""

import hashlib
import hmac
from collections import Counter

import pytest

from vtt.rules import adjudicate
from vtt.rules.errors import RulesError
from vtt.rules.session_dice import (
    BYTE_TO_FACE,
    REJECTED,
    SessionDice,
    check_nonce,
    check_seed,
    commitment,
    faces,
    first_mismatch,
    hmac_sha256,
    new_nonce,
    new_seed,
)

SEED = bytes(range(32))
NONCE = "00112233445566778899aabbccddeeff"

# Worked out with the standard library's hmac, byte by byte (docs/dice.md
# gives the same vectors). Roll 5's first block has a rejected byte (0xfe,
# its ninth); 40 faces take two blocks; the third vector takes three.
VECTORS = [
    (1, 1, NONCE, "241363413144"),
    (1, 5, NONCE, "1221264523665561114315446335632421262426"),
    (
        3,
        13,
        "ffffffffffffffff",
        "1232232312566423413415526111652614523466645163524656536366656254616145",
    ),
]


def reference(seed: bytes, session: int, roll: int, nonce: str, count: int) -> list[int]:
    """The construction written out plainly, on the standard library's hmac."""
    out, block = [], 0
    while len(out) < count:
        msg = f"{session}:{roll}:{nonce}:{block}".encode()
        for byte in hmac.digest(seed, msg, "sha256"):
            if byte < 252:
                out.append(byte % 6 + 1)
        block += 1
    return out[:count]


def test_the_commitment_is_the_sha256_of_the_seed():
    assert commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"


@pytest.mark.parametrize("session, roll, nonce, expected", VECTORS)
def test_known_answers(session, roll, nonce, expected):
    assert faces(SEED, session, roll, nonce, len(expected)) == [int(c) for c in expected]


def test_roll_5_skips_its_rejected_byte():
    block = hmac.digest(SEED, f"1:5:{NONCE}:0".encode(), "sha256")
    assert block[8] == 0xFE
    kept = [b % 6 + 1 for b in block if b < 252]
    assert len(kept) == 31
    assert faces(SEED, 1, 5, NONCE, 31) == kept


@pytest.mark.parametrize(
    "key, msg, expected",
    [  # RFC 4231, test cases 1, 2 and 6 (a key longer than the block)
        (
            b"\x0b" * 20,
            b"Hi There",
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
        ),
        (
            b"Jefe",
            b"what do ya want for nothing?",
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
        ),
        (
            b"\xaa" * 131,
            b"Test Using Larger Than Block-Size Key - Hash Key First",
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
        ),
    ],
)
def test_hmac_is_rfc_4231_hmac_sha256(key, msg, expected):
    assert hmac_sha256(key, msg).hex() == expected


def test_every_face_keeps_exactly_42_byte_values():
    accepted = bytes(range(256)).translate(BYTE_TO_FACE, REJECTED)
    assert len(accepted) == 252
    assert Counter(accepted) == {face: 42 for face in range(1, 7)}
    assert set(REJECTED) == {252, 253, 254, 255}


def test_the_source_gives_the_reference_stream_across_blocks():
    seed = new_seed()
    for roll in range(1, 30):
        nonce = new_nonce()
        assert faces(seed, 2, roll, nonce, 100) == reference(seed, 2, roll, nonce, 100)


def test_each_input_changes_the_stream():
    base = faces(SEED, 1, 1, NONCE, 24)
    assert faces(SEED, 2, 1, NONCE, 24) != base
    assert faces(SEED, 1, 2, NONCE, 24) != base
    assert faces(SEED, 1, 1, NONCE[:-1] + "0", 24) != base
    assert faces(bytes(32), 1, 1, NONCE, 24) != base


def test_an_adjudication_throws_the_stream_in_order():
    request = {
        "system": "artifice",
        "action": "test",
        "actor": {"pool": 9, "modifier": 1},
        "opponent": {"pool": 7, "modifier": 0},
    }
    result = adjudicate(request, SessionDice(SEED, 4, 9, NONCE))
    shown = [d["face"] for d in result["dice"]]
    assert len(shown) == 16
    assert shown == faces(SEED, 4, 9, NONCE, 16)
    assert adjudicate({**request, "faces": shown}) == result


def test_one_altered_die_is_caught_where_it_is():
    shown = faces(SEED, 1, 5, NONCE, 40)
    assert first_mismatch(SEED, 1, 5, NONCE, shown) is None
    altered = list(shown)
    altered[17] = altered[17] % 6 + 1
    assert first_mismatch(SEED, 1, 5, NONCE, altered) == 17
    assert first_mismatch(SEED, 1, 6, NONCE, shown) is not None  # another roll's number
    assert first_mismatch(bytes(32), 1, 5, NONCE, shown) is not None  # another seed
    assert first_mismatch(SEED, 1, 5, NONCE, []) is None


def test_seeds_are_32_fresh_bytes():
    seed = new_seed()
    assert len(seed) == 32
    assert seed != new_seed()
    with pytest.raises(ValueError):
        SessionDice(b"short", 1, 1, NONCE)
    assert hashlib.sha256(seed).hexdigest() == commitment(seed)


@pytest.mark.parametrize("nonce", [NONCE, "ab" * 8, "0f" * 64, "fresh"])
def test_good_nonces(nonce):
    if nonce == "fresh":  # drawn in the test: collection is the same in every process
        nonce = new_nonce()
    assert check_nonce(nonce) == nonce


@pytest.mark.parametrize(
    "nonce", ["", "ab" * 7, "0f" * 65, "abc" * 7, "AB" * 8, "zz" * 8, 12345678, None, "ab " * 8]
)
def test_bad_nonces_are_refused(nonce):
    with pytest.raises(RulesError) as err:
        check_nonce(nonce)
    assert err.value.code == "invalid"
    assert err.value.field == "nonce"


def test_a_revealed_seed_reads_back():
    assert check_seed(SEED.hex()) == SEED
    for bad in (SEED.hex()[:-2], SEED.hex().upper(), "g" * 64, None):
        with pytest.raises(RulesError):
            check_seed(bad)
