import os
from collections import Counter

import pytest

from vtt.rules.dice import DiceTape, Roller, SecureDice
from vtt.rules.errors import RulesError


def test_secure_dice_gives_every_face_and_only_faces():
    dice = SecureDice()
    counts = Counter(dice.roll() for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    # Each face near 10,000 (sd ~91): a modulo bias or a stuck buffer would show.
    assert all(9_400 < n < 10_600 for n in counts.values()), counts


def test_secure_dice_child_after_fork_does_not_repeat_parent_faces():
    dice = SecureDice()
    dice.roll()  # fill the buffer before forking
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: report the next 32 faces
        os.write(write, bytes(dice.roll() for _ in range(32)))
        os._exit(0)
    os.waitpid(pid, 0)
    child = os.read(read, 64)
    parent = bytes(dice.roll() for _ in range(32))
    assert child != parent


def test_tape_gives_faces_in_order_and_records_them():
    roller = Roller(DiceTape([3, 6, 1]))
    dice = [roller.die("actor", "regular", lambda f: f >= 4) for _ in range(3)]
    assert [d["face"] for d in dice] == [3, 6, 1]
    assert [d["success"] for d in dice] == [False, True, False]
    assert [d["face"] for d in roller.dice] == [3, 6, 1]


@pytest.mark.parametrize("faces", [[0], [7], [2, "3"], [True], [1.0]])
def test_tape_refuses_bad_faces(faces):
    with pytest.raises(RulesError) as err:
        DiceTape(faces)
    assert err.value.code == "bad_face"
    assert err.value.field == "faces"


def test_tape_that_runs_out_says_how_many_more():
    tape = DiceTape([4])
    for _ in range(3):
        tape.roll()
    with pytest.raises(RulesError) as err:
        tape.finish()
    assert err.value.code == "faces_exhausted"
    assert "2 more" in err.value.message


def test_tape_with_faces_left_over_is_refused():
    tape = DiceTape([4, 5, 6])
    tape.roll()
    with pytest.raises(RulesError) as err:
        tape.finish()
    assert err.value.code == "faces_unused"
