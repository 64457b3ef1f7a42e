"""Who a seat is across nights: a member by account, a guest by name (by its
:func:`~scorekeeper.table.names.name_key`: "Émile" and "ÉMILE" are one guest).

A person's key is what the history, the records, what is owed and the payment forms
name a person by; :func:`person_key` writes it and :func:`user_id_of_key` reads it
back, so its shape is known in this one place.
"""

from typing import Protocol

from scorekeeper.table.names import name_key


class SeatLike(Protocol):
    """What a key is made of: a seat's account (None for a guest) and its name."""

    @property
    def user_id(self) -> int | None: ...

    @property
    def name(self) -> str: ...


_MEMBER, _GUEST = "user:", "guest:"


def person_key(seat: SeatLike) -> str:
    """Who a seat is across nights: ``user:<id>`` for a member, ``guest:<name>`` for a
    guest, its name as :func:`~scorekeeper.table.names.name_key` has it (read back
    with :func:`user_id_of_key`).

    >>> from types import SimpleNamespace as Seat
    >>> person_key(Seat(user_id=3, name="Anna")), person_key(Seat(user_id=None, name="Gus"))
    ('user:3', 'guest:gus')
    >>> person_key(Seat(user_id=None, name="Straße"))
    'guest:strasse'
    """
    return f"{_MEMBER}{seat.user_id}" if seat.user_id else f"{_GUEST}{name_key(seat.name)}"


def user_id_of_key(key: str) -> int | None:
    """The account a :func:`person_key` names; None for a guest, or for text that is
    no member's key.

    >>> user_id_of_key("user:3"), user_id_of_key("guest:eve"), user_id_of_key("user:x")
    (3, None, None)
    """
    number = key.removeprefix(_MEMBER)
    if number == key or not (number.isascii() and number.isdecimal()):
        return None
    return int(number)
