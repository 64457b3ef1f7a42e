"""The parts of the live pages every phone shows alike (a night's page and its
settlement, a group's list of nights), rendered once per version and language and kept
in Django's cache ("default": each server process's memory, or the Redis every node
shares when one is configured) for every phone that asks.

Each change at a table used to cost one render of the same HTML per phone fetching
it. Now the first phone's fetch of a version renders the shared parts and the others
take them from the cache; what is a phone's own (its seat, the buttons offered to its
player, its 'you' markings, its entry form) is rendered per phone around them. The
shared parts are rendered without the request, so nothing of one person (a CSRF token,
a name's 'you', a button offered to some) can end up in them.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from scorekeeper.models import Group, Night, User
from scorekeeper.reads.groups import group_nights
from scorekeeper.reads.nights import Moment, NightShown, night_shown
from scorekeeper.reads.owed import Folded
from scorekeeper.reads.picture import night_picture
from scorekeeper.reads.polls import Person
from scorekeeper.reads.results import NightResults
from scorekeeper.reads.share import share_text
from scorekeeper.services.push import is_on as push_is_on

TEMPLATE = "scorekeeper/night.html"
SETTLEMENT = "scorekeeper/settlement.html"
GROUP_LIST = "scorekeeper/group.html#live"
# Every change moves the night's version on, so a version's parts are never changed,
# only no longer asked for: they go when the cache needs the room, or after this long.
KEEP_SECONDS = 10 * 60
# The phones asking for a version another request is rendering wait for it, asking the
# cache every few milliseconds: a render takes tens of them.
RENDERING_SECONDS = 0.5
WAIT_TURN_SECONDS = 0.005
Kept = TypeVar("Kept")


@dataclass(frozen=True)
class SharedLine:
    """A seat of the open round as every phone shows it."""

    seat_pk: int
    name: str
    entered: bool  # its total or its cards are in
    html: SafeString


@dataclass(frozen=True)
class OwnPart:
    """What one person's phone shows of the night besides the shared parts."""

    seat: int | None  # their seat in the open round
    change_buttons: frozenset[int]  # the saved totals of others they may change
    to_enter_for: tuple[tuple[int, str], ...]  # (seat id, name) still to enter, they may


@dataclass(frozen=True)
class SharedNight:
    """A night's live parts at one version: the HTML every phone shows, and what each
    person's own part is worked out from without a query."""

    version: int
    round_number: int | None
    rounds_played: int
    difference: bool  # the totals are all in and do not add up
    lines: tuple[SharedLine, ...]
    moments: tuple[Moment, ...]
    round_head: SafeString
    status_top: SafeString
    status_bottom: SafeString
    standings: SafeString
    seat_of: dict[int, int]  # player's id: their seat in the open round
    may_enter: dict[int, frozenset[int]]  # player's id: the other seats they may enter for
    missing: tuple[tuple[int, str], ...]  # (seat id, name) of the seats without a total

    def own(self, user: Person) -> OwnPart:
        """What ``user``'s phone shows as its own: the same rule as the service that
        saves (:meth:`~scorekeeper.models.Seat.entry_refusal`), read from this version."""
        seat = self.seat_of.get(user.pk) if user.pk is not None else None
        may_enter = self.may_enter.get(user.pk, frozenset()) if user.pk is not None else frozenset()
        return OwnPart(
            seat=seat,
            change_buttons=frozenset(
                line.seat_pk
                for line in self.lines
                if line.entered and line.seat_pk != seat and line.seat_pk in may_enter
            ),
            to_enter_for=tuple(
                (pk, name) for pk, name in self.missing if pk != seat and pk in may_enter
            ),
        )


def shared_night(night: Night, shown: NightShown | None = None) -> SharedNight:
    """``night``'s shared live parts at ``night.version``, from the cache or rendered
    and kept there. ``shown`` is what the caller read at that version already; without
    it a miss reads the night, and ``night.version`` is then the version it found."""

    def render() -> tuple[str, SharedNight]:
        read = night_shown(night) if shown is None else shown
        return _key(night), _render(night, read)  # the version the read found

    return kept(_key(night), SharedNight, render)


def kept(key: str, kind: type[Kept], render: Callable[[], tuple[str, Kept]]) -> Kept:
    """What the cache keeps under ``key``, or ``render()``'s (the key to keep it under,
    and it), kept there.

    The phones at a table are told of a change at the same instant and ask for it
    together, each on a thread of its own: the first to find nothing renders, and the
    others wait for it (RENDERING_SECONDS at most, then render themselves), so a
    version is rendered once per process, or once for every node sharing a Redis.
    """
    found = cache.get(key)
    if isinstance(found, kind):
        return found
    if not cache.add(f"{key}:rendering", True, RENDERING_SECONDS):
        waited_until = time.monotonic() + RENDERING_SECONDS
        while time.monotonic() < waited_until:
            time.sleep(WAIT_TURN_SECONDS)
            found = cache.get(key)
            if isinstance(found, kind):
                return found
    try:
        kept_as, value = render()
        cache.set(kept_as, value, KEEP_SECONDS)
    finally:
        cache.delete(f"{key}:rendering")
    return value


def _key(night: Night) -> str:
    return f"night-shared:{night.pk}:{night.version}:{get_language()}"


def _render(night: Night, shown: NightShown) -> SharedNight:
    state = shown.state
    context = {
        "night": night,
        "state": state,
        "chart": shown.chart,
        "button_words": shown.news.button,
    }

    def part(name: str, **more: object) -> SafeString:
        return SafeString(render_to_string(f"{TEMPLATE}#{name}", {**context, **more}))

    # Only a player of this round may enter for another seat (Seat.entry_refusal).
    players = {line.seat.user_id for line in state.lines if line.seat.user_id is not None}
    return SharedNight(
        version=night.version,
        round_number=state.round.number if state.round else None,
        rounds_played=state.rounds_played,
        difference=bool(state.difference),
        lines=tuple(
            SharedLine(
                seat_pk=line.seat.pk,
                name=line.seat.name,
                entered=line.entry is not None,
                html=part("entry-line-shared", line=line),
            )
            for line in state.lines
        ),
        moments=tuple(shown.news.moments),
        round_head=part("round-head-shared"),
        status_top=part("status-top-shared") if state.round else SafeString(""),
        status_bottom=part("status-bottom-shared") if state.round else SafeString(""),
        standings=part("standings-shared"),
        seat_of={  # the first seat of theirs, as NightState.line_for_user finds it
            line.seat.user_id: line.seat.pk
            for line in reversed(state.lines)
            if line.seat.user_id is not None
        },
        may_enter={player: frozenset(state.enterable_by(User(pk=player))) for player in players},
        missing=tuple((line.seat.pk, line.seat.name) for line in state.missing),
    )


@dataclass(frozen=True)
class SharedSettlement:
    """A settlement's parts every phone shows alike: the standings, the chart, and
    the text and picture to share. Each phone's payments (which it may mark, its own
    lines first) and its forms are its own."""

    standings: SafeString
    chart: SafeString
    share: SafeString
    share_text: str


def shared_settlement(
    night: Night, results: NightResults, folded: Folded | None
) -> SharedSettlement:
    """``night``'s shared settlement parts at ``night.version``, from the cache or
    rendered from ``results`` and ``folded`` (what the phone read for its own part)
    and kept there. Folded in, the earlier nights' debts are in the shared text: their
    fingerprint is part of the key, as a payment on another night changes them."""
    fingerprint = folded.owed.fingerprint if folded is not None else ""
    key = f"settlement-shared:{night.pk}:{night.version}:{fingerprint}:{get_language()}"

    def render() -> tuple[str, SharedSettlement]:
        text = share_text(results, folded)
        context = {
            "night": night,
            "results": results,
            "share_text": text,
            "picture": night_picture(results, folded),  # "Share the night" draws it
        }

        def part(name: str) -> SafeString:
            return SafeString(render_to_string(f"{SETTLEMENT}#{name}", context))

        shared = SharedSettlement(
            standings=part("standings-shared"),
            chart=part("chart-shared"),
            share=part("share-shared"),
            share_text=text,
        )
        return key, shared

    return kept(key, SharedSettlement, render)


def shared_group_list(group: Group, version: str, through: int | None) -> str:
    """The group page's live list of nights (those running, and the finished ones down
    to ``through``, as far as the phone scrolled) at ``version``, the fingerprint of
    the group's nights read before them: the same for every member, so rendered once
    for all, without the request. Rows newer than ``version`` are kept under it, which
    only makes the next poll render again."""
    key = f"group-shared:{group.pk}:{version}:{through}:{get_language()}"

    def render() -> tuple[str, str]:
        nights = group_nights(group, through=through, version=version)
        context = {"group": group, "push_on": push_is_on(), **nights}
        return key, render_to_string(GROUP_LIST, context)

    return kept(key, str, render)
