"""Data built once for a module or a class of tests, as Django's TestCase.setUpTestData does."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction


@contextmanager
def built_once(django_db_blocker) -> Iterator[None]:
    """A module- or class-scoped fixture's database work, in one transaction that is rolled back
    when the fixture ends: what it builds is there for every test of its scope, and each test (its
    `db` fixture) runs in a savepoint inside it, so what one test writes the next does not see.

        @pytest.fixture(scope="module")
        def world(django_db_setup, django_db_blocker):
            with built_once(django_db_blocker):
                yield build_the_world()

    For read-only worlds: the instances it yields are shared, so a test that changes one in memory
    (not only in the database) changes it for the tests after it.
    """
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
