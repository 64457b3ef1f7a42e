"""The dealer button: pure functions over seat positions, no database.

Seats go clockwise in position order. The button stays while a hand continues in
Fantasyland, and with the "hold" house rule also for the first regular hand after it.
"""

from collections.abc import Sequence


def next_clockwise(positions: Sequence[int], after: int) -> int:
    """The first position strictly after `after`, wrapping round; `positions` is non-empty.

    >>> next_clockwise([1, 2, 4], 2)
    4
    >>> next_clockwise([1, 2, 4], 4)
    1
    """
    ordered = sorted(positions)
    for position in ordered:
        if position > after:
            return position
    return ordered[0]


def at_or_after(positions: Sequence[int], position: int) -> int:
    """`position` if someone sits there, else the next one clockwise: the button skips
    empty seats."""
    return position if position in positions else next_clockwise(positions, position)


def next_dealer(
    positions: Sequence[int],
    dealer: int,
    *,
    fantasyland_next: bool,
    fantasyland_this: bool,
    hold: bool,
) -> int:
    """Where the button goes for the next hand.

    `positions` are the seats dealt into the next hand, `dealer` the position that
    dealt the hand just played, `fantasyland_this` whether anyone played that hand in
    Fantasyland, `fantasyland_next` whether anyone plays the next one in it.

    >>> next_dealer([1, 2, 3], 1, fantasyland_next=True, fantasyland_this=False, hold=False)
    1
    >>> next_dealer([1, 2, 3], 1, fantasyland_next=False, fantasyland_this=True, hold=True)
    1
    >>> next_dealer([1, 2, 3], 1, fantasyland_next=False, fantasyland_this=True, hold=False)
    2
    """
    if fantasyland_next or (hold and fantasyland_this):
        return at_or_after(positions, dealer)
    return next_clockwise(positions, dealer)
