"""What a night looks like right now: everything the night page shows, in a fixed
number of queries however many rounds have been played."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.db import transaction
from django.utils.translation import gettext, ngettext

from scorekeeper.i18n import listed
from scorekeeper.models import Entry, Night, Round, RoundEdit, Seat, User
from scorekeeper.reads.night_state import NightState, SeatLine, night_state
from scorekeeper.reads.results import night_chart
from scorekeeper.table.chart_shapes import Chart
from scorekeeper.table.formatting import signed


@dataclass(frozen=True)
class NightPage:
    """The night page for one person: the night, their seat, whose total the form is for."""

    state: NightState
    mine: SeatLine | None  # their own seat this round, if they play it
    target: SeatLine | None  # whose total the entry form is for
    enterable: set[int]  # the other seats whose total they may enter or change
    at_table: bool  # may change the table itself (services check it too)
    seated: bool  # has a seat tonight (maybe from the next hand), not left
    # What every phone shows alike at the same moment (its news, standings and chart),
    # unless the page was read without it: the phone has it already (views/shared_parts.py).
    shown: "NightShown | None"

    @property
    def to_enter_for(self) -> list[SeatLine]:
        """Other seats still without a total that this person may enter for."""
        return [
            line
            for line in self.state.missing
            if line is not self.mine and line.seat.pk in self.enterable
        ]

    @property
    def entry_initial(self) -> dict | None:
        """The entry form's values for the target seat, or None when there is no form."""
        if self.state.round is None or self.target is None:
            return None
        initial: dict = {"round": self.state.round.number, "seat": self.target.seat.pk}
        entry = self.target.entry
        if entry is not None:
            initial["points"] = entry.points
            initial["fantasyland"] = (
                "stayed" if entry.fantasyland_stayed else entry.fantasyland_made
            )
        return initial


@dataclass(frozen=True)
class Moment:
    """One thing that happened at the table since the last round went through, as
    every phone says it at the top of the night page: read from what the database
    keeps anyway (the round's ``recorded_at``, a :class:`RoundEdit`, a seat's first
    or last round), never stored twice. ``key`` tells the same moment on the next
    poll (the phone hides those its owner has seen); ``by_id`` is whoever made it
    happen, when known, so their own phone does not buzz for it."""

    key: str
    kind: str  # "round", "fix", "undo", "seat" or "leave"
    text: str
    by_id: int | None = None


@dataclass(frozen=True)
class News:
    moments: list[Moment]
    button: str  # why the button stays where it is this hand, in words, or ""


def _round_moment(round_: Round, entries: list[Entry], seats: dict[int, Seat]) -> Moment:
    results = " · ".join(
        f"{seats[entry.seat_id].name} {signed(entry.points)}"
        for entry in sorted(entries, key=lambda entry: seats[entry.seat_id].position)
    )
    last = max(entries, key=lambda entry: entry.updated_at, default=None)
    text = gettext("Round %(number)d went through · %(results)s") % {
        "number": round_.number,
        "results": results,
    }
    stamp = round_.recorded_at.timestamp() if round_.recorded_at else 0
    return Moment(f"round-{round_.number}-{stamp:.6f}", "round", text, last and last.entered_by_id)


def _edit_moment(edit: RoundEdit) -> Moment:
    number = edit.round.number
    name = edit.edited_by.name if edit.edited_by is not None else ""
    if edit.kind == RoundEdit.Kind.UNDO:
        if name:
            text = gettext("%(name)s undid round %(number)d.") % {"name": name, "number": number}
        else:
            text = gettext("Round %(number)d was undone.") % {"number": number}
        return Moment(f"edit-{edit.pk}", "undo", text, edit.edited_by_id)
    changes = listed(
        f"{seat} {signed(before)} → {signed(after)}" for seat, before, after in edit.changes
    )
    values = {"name": name, "number": number, "changes": changes}
    if name:
        text = gettext("%(name)s fixed round %(number)d: %(changes)s.") % values
    else:
        text = gettext("Round %(number)d was fixed: %(changes)s.") % values
    return Moment(f"edit-{edit.pk}", "fix", text, edit.edited_by_id)


def _seat_moments(state: NightState) -> list[Moment]:
    """Who sat down for the next hand, or left, while the open round is played."""
    if state.round is None:
        return []
    number = state.round.number
    moments = []
    for line in sorted(state.seats, key=lambda line: line.seat.position):
        seat = line.seat
        if seat.last_round is not None and seat.last_round == number - 1:
            text = gettext("%(name)s left after round %(number)d.") % {
                "name": seat.name,
                "number": seat.last_round,
            }
            moments.append(Moment(f"seat-{seat.pk}-left-{seat.last_round}", "leave", text))
        elif seat.first_round > 1 and seat.first_round >= number and seat.last_round is None:
            text = gettext("%(name)s plays from round %(number)d.") % {
                "name": seat.name,
                "number": seat.first_round,
            }
            moment = Moment(f"seat-{seat.pk}-from-{seat.first_round}", "seat", text, seat.user_id)
            moments.append(moment)
    return moments


def _cards(count: int) -> str:
    return ngettext("%(count)d card", "%(count)d cards", count) % {"count": count}


def _button_words(state: NightState, previous: Round | None) -> str:
    """Why the button stays with this hand's dealer, when it stayed: read from the
    rounds themselves (the dealer the button rule gave each, table/button.py), never
    worked out again here."""
    round_ = state.round
    if round_ is None or previous is None or previous.dealer_id != round_.dealer_id:
        return ""
    dealer = round_.dealer.name
    playing = state.in_fantasyland
    if playing:
        counts = {line.fantasyland.cards for line in playing}
        if len(counts) == 1:
            return ngettext(
                "The button stays with %(dealer)s: %(names)s plays Fantasyland (%(cards)s).",
                "The button stays with %(dealer)s: %(names)s play Fantasyland (%(cards)s).",
                len(playing),
            ) % {
                "dealer": dealer,
                "names": listed(line.seat.name for line in playing),
                "cards": _cards(counts.pop()),
            }
        players = listed(
            gettext("%(name)s (%(cards)s)")
            % {"name": line.seat.name, "cards": _cards(line.fantasyland.cards)}
            for line in playing
        )
        return gettext("The button stays with %(dealer)s: %(players)s play Fantasyland.") % {
            "dealer": dealer,
            "players": players,
        }
    if previous.fantasyland and state.game.hold_button:
        return gettext("The button stays with %(dealer)s for one hand after Fantasyland.") % {
            "dealer": dealer
        }
    return ""


def night_news(night: Night, state: NightState) -> News:
    """What happened at the table since the last round went through (that round's
    results first), and why the button stays: three queries, however long the night."""
    if night.is_over:
        return News([], "")
    seats = {line.seat.pk: line.seat for line in state.seats}
    last = (
        night.rounds.filter(recorded_at__isnull=False)
        .select_related("dealer")
        .order_by("-number")
        .first()
    )
    moments = []
    edits = RoundEdit.objects.filter(round__night=night).select_related("round", "edited_by")
    if last is not None:
        entries = list(last.entries.all())
        moments.append(_round_moment(last, entries, seats))
        changes = {entry.seat_id: entry.points for entry in entries}
        for line in state.seats:
            line.change = changes.get(line.seat.pk)
        edits = edits.filter(edited_at__gt=last.recorded_at)
    moments += [_edit_moment(edit) for edit in edits.order_by("edited_at", "pk")]
    moments += _seat_moments(state)
    previous = last if last is not None and state.round is not None else None
    if previous is not None and previous.number != state.round.number - 1:
        previous = None  # the round before this one was undone: no button to speak of
    return News(moments, _button_words(state, previous))


Read = TypeVar("Read")

# Reads of a night page that may each find a change saved in between before the page is
# read under the night's lock instead (a busy table: saves every few milliseconds).
UNLOCKED_TRIES = 3


def night_page(
    night: Night, user: User, *, for_seat: int | None = None, shown: bool = True
) -> NightPage:
    """What ``user`` sees of ``night``, every part of it from one moment: the night's
    ``version`` it shows (refreshed here) and its standings, chart, round, sum and form.
    ``for_seat`` picks another seat's total to enter; ``shown=False`` leaves out what
    every phone shows alike (:class:`NightShown`: the news, the chart), for a phone that
    has it already."""
    return _one_moment(night, lambda: _night_page(night, user, for_seat=for_seat, shown=shown))


@dataclass(frozen=True)
class NightShown:
    """What every phone of a night shows alike at one moment, no one's own part: the
    round, its totals and news, the standings and the chart."""

    state: NightState
    news: News
    chart: Chart | None


def night_shown(night: Night) -> NightShown:
    """The part of ``night``'s page every phone shares, from one moment: the night's
    ``version`` it shows is refreshed here, as :func:`night_page` does."""
    return _one_moment(night, lambda: _night_shown(night))


def _one_moment(night: Night, read: Callable[[], Read]) -> Read:
    """``read()`` of ``night``, every query of it from the moment ``night.version`` says.

    Each of the page's queries sees what was committed when it ran, so a save landing
    between two of them would give a page drawn from two moments ("Round 10" beside
    the standings after 8 rounds). Every change to a night bumps its version in the
    same transaction (:func:`~scorekeeper.services.locks.night_change`), so a page read
    while the version stayed the same saw no change: it is read again when the version
    moved, and read under the night's lock, where no save can land, when it keeps
    moving.
    """
    for _try in range(UNLOCKED_TRIES):
        page = read()
        seen = night.version
        night.refresh_from_db()
        if night.version == seen:
            return page
    with transaction.atomic():
        Night.objects.select_for_update().filter(pk=night.pk).first()
        night.refresh_from_db()
        return read()


def _night_shown(night: Night) -> NightShown:
    return _shown_from(night, night_state(night))


def _shown_from(night: Night, state: NightState) -> NightShown:
    return NightShown(state=state, news=night_news(night, state), chart=night_chart(night))


def _night_page(night: Night, user: User, *, for_seat: int | None, shown: bool) -> NightPage:
    state = night_state(night)
    mine = state.line_for_user(user)
    target = mine
    if for_seat is not None:
        target = next((line for line in state.lines if line.seat.pk == for_seat), mine)
    return NightPage(
        state=state,
        mine=mine,
        target=target,
        enterable=state.enterable_by(user),
        at_table=night.is_at_table(user, [line.seat for line in state.seats]),
        seated=any(
            line.seat.user_id == user.pk and line.seat.last_round is None for line in state.seats
        ),
        shown=_shown_from(night, state) if shown else None,
    )


# Rounds the rounds page shows at a time; the older ones load as you scroll.
ROUNDS_PER_PAGE = 30


@dataclass(frozen=True)
class RoundsPage:
    """Recorded rounds, newest first, from just before ``before`` (or the newest)."""

    rounds: list[Round]
    older_than: int | None  # the number to ask for the next, older page with, if any


def recorded_rounds(
    night: Night, *, before: int | None = None, count: int = ROUNDS_PER_PAGE
) -> RoundsPage:
    """The recorded rounds numbered below ``before`` (all, when None), newest first,
    ``count`` at a time with entries, seats and corrections: four queries on the
    night's own index, wherever in the night the page starts."""
    rounds = night.rounds.filter(recorded_at__isnull=False)
    if before is not None:
        rounds = rounds.filter(number__lt=before)
    found = list(
        rounds.select_related("dealer")
        .prefetch_related("entries__seat", "edits__edited_by")
        .order_by("-number")[: count + 1]
    )
    shown = found[:count]
    return RoundsPage(shown, shown[-1].number if len(found) > count else None)
