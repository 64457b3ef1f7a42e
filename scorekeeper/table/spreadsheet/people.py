"""Who each name of a file is: a member, a guest the group has had, or a new guest."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from scorekeeper.table.names import look_alike_key, name_key


def match_people(
    names: Iterable[str], members: Mapping[int, str], guests: Iterable[str] = ()
) -> dict[str, int | str]:
    """Who each name of a file is: a member's id when a member has that name (in other
    capitals, or looking just like it), else the name a guest of the group's nights
    already has that looks like it, else the name itself, as a new guest.

    >>> match_people(["ANNA", "\u0412ram", "gus", "Zoe"], {1: "Anna", 2: "Bram"}, ["Gus"])
    {'ANNA': 1, '\u0412ram': 2, 'gus': 'Gus', 'Zoe': 'Zoe'}
    """
    same = {name_key(name): pk for pk, name in members.items()}
    keyed = {look_alike_key(name): pk for pk, name in members.items()}
    known_guests = {look_alike_key(name): name for name in guests}
    found: dict[str, int | str] = {}
    for name in names:
        key = look_alike_key(name)
        member = same.get(name_key(name), keyed.get(key))
        found[name] = member if member is not None else known_guests.get(key, name)
    return found
