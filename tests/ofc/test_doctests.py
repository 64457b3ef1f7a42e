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
    royalties,
    rule_values,
    scoring,
    scoring_systems,
)


@pytest.mark.parametrize(
    "module",
    [
        scorekeeper.ofc,
        cards,
        evaluate,
        rule_values,
        royalties,
        scoring_systems,
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
