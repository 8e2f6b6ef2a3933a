"""Data laid once per test module, every test running in a savepoint inside
it (as Django's setUpTestData does): a module's hundreds of requests each
start from the same state, cheaply."""

import pytest
from django.db import transaction


def laid_once_per_module(lay, name: str):
    """The fixtures for a conftest: `laid_once`, what `lay()` returns, made
    in a transaction rolled back when the module ends, and `name`, the same
    object for a test, whose own changes the `db` savepoint undoes."""

    @pytest.fixture(scope="module", name="laid_once")
    def shared(django_db_setup, django_db_blocker):
        with django_db_blocker.unblock(), transaction.atomic():
            yield lay()
            transaction.set_rollback(True)

    # Depending on laid_once by argument sets it up before `db` opens the
    # test's savepoint.
    @pytest.fixture(name=name)
    def each(laid_once, db):
        return laid_once

    return shared, each
