"""What a row knows about itself: the docstring examples of the models' helpers."""

import doctest

from scorekeeper.models import nights


def test_the_docstring_examples_hold():
    outcome = doctest.testmod(nights)
    assert outcome.attempted > 0 and outcome.failed == 0
