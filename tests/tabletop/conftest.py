import pytest

from .table import make_table


@pytest.fixture
def table(db):
    return make_table()
