"""The fixtures every test may ask for: thin wrappers over `tests.helpers`."""

import os
from pathlib import Path

import pytest
from django.test import Client
from hypothesis import settings

from tests import helpers
from tests.static_collected import collect_once

# Speed is measured by the benchmarks, not here: on a loaded CI machine hypothesis's
# 200 ms deadline per example failed a correct brute-force check.
settings.register_profile("ofcboard", deadline=None)
# make test (CI) draws the same examples every run, so that a submission passes or
# fails on its own code, not on a draw; make quick draws new ones each time, which is
# where a property finds what nobody thought of.
settings.register_profile("ci", parent=settings.get_profile("ofcboard"), derandomize=True)
# make quick, the working loop, draws a quarter of the examples (tests/examples.py).
settings.register_profile("quick", parent=settings.get_profile("ofcboard"), max_examples=25)
# A longer hunt by hand: ten times the examples, new ones each run.
settings.register_profile("deep", parent=settings.get_profile("ofcboard"), max_examples=1000)
settings.load_profile(os.environ.get("OFCBOARD_HYPOTHESIS", "ofcboard"))


def pytest_configure(config):
    """The static files collected as `make run` collects them (hashed and compressed),
    by the process that starts the run, into the folder tests/settings.py names; kept
    for the next run while what they are collected from is unchanged
    (tests/static_collected.py). pytest-xdist's workers start after this and find them."""
    if hasattr(config, "workerinput"):
        return
    import django
    from django.conf import settings as django_settings
    from django.core.management import call_command

    django.setup()
    folder = Path(django_settings.STATIC_ROOT)
    # Emptied first only when it is the runs' own: a folder given by hand is kept.
    ours = folder.name.startswith("ofcboard-test-static-")
    collect_once(
        folder, lambda: call_command("collectstatic", interactive=False, clear=ours, verbosity=0)
    )


# The tests that take seconds each (a server or a browser of their own, the benchmarks'
# scripts) start first, so that make test's workers are not left waiting at the end on
# one of them that was handed out last. The order within each part is kept. First of
# all the modules that set a server up once for all their tests: at the head of the
# first worker's share, which the others never steal (they take from its end), they
# run on that worker, and the server is set up once, not once a worker.
SLOW_FIRST = (
    "tests/test_deployed_site.py",
    "tests/test_server_front.py",
    "tests/test_front_attacks.py",
    "tests/e2e/",
    "tests/test_benchmarks.py",
    "tests/test_front.py",
    "tests/test_many_nodes.py",
    "tests/test_faults.py",
    "tests/test_serve.py",
)


def pytest_collection_modifyitems(items):
    def rank(item) -> int:
        return next(
            (n for n, part in enumerate(SLOW_FIRST) if item.nodeid.startswith(part)),
            len(SLOW_FIRST),
        )

    items.sort(key=rank)


@pytest.fixture(scope="session")
def live_server(request):
    """pytest-django's live server, serving the static files as `make run` does: the
    app's WhiteNoise from the collected folder, not Django's finders (which know no
    hashed names)."""
    from pytest_django.live_server_helper import LiveServer

    address = request.config.getvalue("liveserver") or os.getenv(
        "DJANGO_LIVE_TEST_SERVER_ADDRESS", "localhost"
    )
    server = LiveServer(address, start=False)
    server.thread.static_handler = lambda app: app
    server.start()
    yield server
    server.stop()


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
    # The nights' shared live parts, kept by night, version and language: the next
    # test's night has the same id and version as this one's.
    caches["default"].clear()


@pytest.fixture(autouse=True)
def _english_again_after_each_test():
    # A request in another language leaves it active in the thread (LocaleMiddleware
    # does not undo it), which made the next test's numbers come out as "+3,8".
    yield
    from django.utils import translation

    translation.deactivate()
