"""The test settings with the throttle's counts where `make run` keeps them: the
database's cache (tests/test_front_attacks.py)."""

from tests.settings import *  # noqa: F403
from tests.settings import CACHES, THROTTLE_IN_THE_DATABASE

CACHES = {**CACHES, "throttle": THROTTLE_IN_THE_DATABASE}
