"""The fixtures every test may ask for: thin wrappers over `tests.helpers`."""

import pytest
from django.test import Client
from hypothesis import settings

from tests import helpers

# Speed is measured by the benchmarks, not here: on a loaded CI machine hypothesis's
# 200 ms deadline per example failed a correct brute-force check.
settings.register_profile("ofcboard", deadline=None)
settings.load_profile("ofcboard")


@pytest.fixture
def make_user(db):
    return helpers.make_user


@pytest.fixture
def make_group(db):
    return helpers.make_group


@pytest.fixture
def make_night(db):
    return helpers.make_night


@pytest.fixture
def login(client):
    """``login(who)`` logs the test's ``client`` in as a user (or the name of one) and
    returns it; ``login(who, csrf_checks=True)`` a new client that checks CSRF tokens
    as a browser's requests are checked."""

    def log_in(who, *, csrf_checks=False):
        return helpers.log_in(Client(enforce_csrf_checks=True) if csrf_checks else client, who)

    return log_in


@pytest.fixture(autouse=True)
def _fresh_throttle_counts():
    from django.core.cache import caches

    caches["throttle"].clear()


@pytest.fixture(autouse=True)
def _english_again_after_each_test():
    # A request in another language leaves it active in the thread (LocaleMiddleware
    # does not undo it), which made the next test's numbers come out as "+3,8".
    yield
    from django.utils import translation

    translation.deactivate()
