"""The settings `make run` serves with, plus one bare view to measure against
(see bench/server.py)."""

from ofcboard.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
