import pytest

from .battle import ARTIFICE_SHEETS, ARTIFICE_WEAPONS, make_battle


@pytest.fixture
def battle(db):
    return make_battle("artifice", sheets=ARTIFICE_SHEETS, weapons=ARTIFICE_WEAPONS)
