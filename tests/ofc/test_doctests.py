"""The examples in the engine's docstrings hold (they document rulings too)."""

import doctest

import pytest

import scorekeeper.ofc
from scorekeeper.ofc import (
    board,
    cards,
    contract,
    evaluate,
    fantasyland,
    games,
    jokers,
    problems,
    scoring,
)


@pytest.mark.parametrize(
    "module",
    [
        scorekeeper.ofc,
        cards,
        evaluate,
        games,
        jokers,
        fantasyland,
        board,
        problems,
        scoring,
        contract,
    ],
)
def test_the_docstring_examples_hold(module):
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0
