"""Card entry: a seat sets the 13 cards of its board and the rules engine counts.

How a board's total is decided (the rule for mixed rounds):

- A board saved while other seats are still out waits for its total
  (``Entry.awaiting_total``, points a 0 placeholder): one board alone does not
  say how many points it wins, and a waiting board never lets the round through.
- When every playing seat of the round has a board, the engine scores the table
  (the 1-6 count): every entry gets its points and its Fantasyland from the
  cards, and the round goes through as a totals round would. Cards win over any
  total typed before.
- A mixed round (some seats typed totals) is settled by totals: the seats with
  cards type their totals too, on the card page or the night page. Their cards
  stay: they show royalties and fouls, and say what the cards mean when the
  totals do not add up ("from the cards, Anna's royalties are 17").
- Fantasyland of a seat with cards always comes from the cards.

Every write goes through the night's door (:func:`.locks.night_change`) and finds
where it goes, or the earlier try it repeats, as the totals path does
(:func:`.entry_keys.slot_or_earlier_save`).
"""

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scorekeeper.i18n import clauses, listed, sentence, sentences, series
from scorekeeper.models import (
    Board,
    Change,
    Entry,
    Night,
    Round,
    RoundEdit,
    Seat,
    User,
    parse_board,
    player_board,
)
from scorekeeper.ofc import (
    ROWS,
    FantasylandState,
    Game,
    JokersNotDealt,
    OFCError,
    Place,
    PlayerResult,
    RepeatedCard,
    TableError,
    TooManyJokers,
    entry_option,
    score_board,
    score_table,
)
from scorekeeper.services.entry_keys import (
    KEY_USED,
    GoneThrough,
    NotOpen,
    save_entry,
    slot_or_earlier_save,
)
from scorekeeper.services.errors import Refused
from scorekeeper.services.locks import as_play, night_change, record
from scorekeeper.services.rounds import check_points, through_or_money_kept
from scorekeeper.terms import game_name, row_name


@dataclass(frozen=True)
class BoardSaved:
    entry: Entry
    result: PlayerResult  # the board on its own: rows, royalties, foul, Fantasyland
    round_recorded: bool


def _check_complete(board: Board) -> None:
    for row in ROWS:
        count = len(board.get(row.value, []))
        if count != row.size:
            text = ngettext(
                "The %(row)s needs %(size)d cards; it has %(count)d card.",
                "The %(row)s needs %(size)d cards; it has %(count)d cards.",
                count,
            )
            raise Refused(text % {"row": row_name(row), "size": row.size, "count": count})


def _claim(game: Game, current: FantasylandState | None, result: PlayerResult) -> tuple[str, bool]:
    """The entry's Fantasyland fields that say what the cards earned."""
    if result.fantasyland is None:
        return "", False
    if current is not None:
        return "", True
    option = entry_option(game, result)
    return (option.id if option is not None else ""), False


_TIMES = {2: gettext_lazy("twice"), 3: gettext_lazy("three times"), 4: gettext_lazy("four times")}


def _places(places: Iterable[Place]) -> str:
    """``Anna's top has 1 and Bram's top has 2``: how many of something each row holds."""
    counts = Counter((place.name, place.row) for place in places)
    parts = [
        _("%(name)s's %(row)s has %(count)d") % {"name": name, "row": row_name(row), "count": count}
        for (name, row), count in counts.items()
    ]
    return _and(parts)


def _and(parts: list[str]) -> str:
    """ "a, b and c" """
    if len(parts) == 1:
        return parts[0]
    return listed(parts)


def _row_of(place: Place) -> str:
    return _("%(name)s's %(row)s") % {"name": place.name, "row": row_name(place.row)}


def _repeated(problem: RepeatedCard) -> str:
    count = len(problem.places)
    times = str(_TIMES.get(count, "")) or _("%(count)d times") % {"count": count}
    first = problem.places[0]
    if all(place == first for place in problem.places):
        text = _("%(card)s is in %(whose_row)s %(times)s")
        return text % {"card": problem.card, "whose_row": _row_of(first), "times": times}
    places = series(_row_of(place) for place in problem.places)
    text = _("%(card)s appears %(times)s: %(places)s")
    return text % {"card": problem.card, "times": times, "places": places}


def refusal(game: Game, error: OFCError) -> str:
    """An engine refusal in words for the person holding the phone.

    Every problem of the table is named, not just the first; the engine's
    wording (``player 2 (Bram), top: ...``) is for the ``score`` command.
    """
    if not isinstance(error, TableError):
        return sentence(capfirst(str(error)))
    # The clashing cards make one sentence, each other problem its own.
    clashes = [_repeated(p) for p in error.problems if isinstance(p, RepeatedCard)]
    said = []
    for problem in error.problems:
        if isinstance(problem, RepeatedCard):
            if clashes:
                said.append(clauses(clashes))
                clashes = []
        elif isinstance(problem, TooManyJokers):
            text = _("There are only %(count)d jokers in the deck; %(places)s")
            said.append(text % {"count": problem.limit, "places": _places(problem.places)})
        elif isinstance(problem, JokersNotDealt):
            places = list(dict.fromkeys(_row_of(place) for place in problem.places))
            text = ngettext(
                "%(game)s is played without jokers; take the joker out of %(whose_rows)s",
                "%(game)s is played without jokers; take the jokers out of %(whose_rows)s",
                len(problem.places),
            )
            said.append(text % {"game": game_name(game), "whose_rows": _and(places)})
        else:
            said.append(str(problem))
    return sentences(sentence(capfirst(words)) for words in said)


def _same_cards(board: Board) -> Callable[[Entry], bool]:
    """Whether an entry holds the cards of ``board`` (none do when it is not cards)."""
    try:
        cards = parse_board(board)
    except OFCError:
        return lambda entry: False
    return lambda entry: entry.board == cards


def _already_saved(night: Night, seat: Seat, entry: Entry) -> BoardSaved:
    if not entry.board:
        raise Refused(KEY_USED)  # the key's save was a typed total, not these cards
    result = score_board(night.game_rules, player_board(seat.name, entry.board))
    return BoardSaved(entry, result, round_recorded=False)


@transaction.atomic
def record_board(
    *,
    night: Night,
    round_number: int,
    seat: Seat,
    board: Board,
    entered_by: User,
    points: int | None = None,
    key: str = "",
) -> BoardSaved:
    """Save a seat's board for the open round; refused boards save nothing.

    ``points`` is the seat's typed total, for a mixed round; without it the board
    waits until every seat's cards are in. Then the engine counts the whole table
    and the round goes through. ``key``, made on the phone, makes a board sent
    again (saved offline, retried) count once, as for a total. Cards for a round
    that went through before they arrived save nothing and are refused in words,
    which say whether the round went through with these cards (:class:`NotOpen`).
    """
    if points is not None:
        check_points(points)
    with night_change(night, by=entered_by, may=None) as night:
        try:
            # Without a key, no board is taken for an earlier try: the words below say
            # whether the round went through with these very cards.
            slot = slot_or_earlier_save(
                night, round_number, seat, entered_by, key, repeats=lambda entry: False
            )
        except GoneThrough as gone:
            raise NotOpen(_cards_not_used(gone, seat, board, entered_by)) from None
        if isinstance(slot, Entry):  # this save's key: its earlier try went through
            return _already_saved(night, seat, slot)
        _check_complete(board)  # after the round's own refusal, which says more
        as_play()  # a board and the round going through; for someone else, recorded below
        round_, game = slot.round, slot.game
        fantasyland = round_.fantasyland_seats
        others = list(
            round_.entries.filter(board__isnull=False)
            .exclude(seat=seat)
            .select_related("seat")
            .order_by("seat__position")
        )
        try:
            cards = parse_board(board)
            mine = player_board(seat.name, cards, fantasyland.get(seat.pk))
            result = score_board(game, mine, round_.player_boards(others))
        except OFCError as error:
            raise Refused(refusal(game, error)) from error
        made, stayed = _claim(game, fantasyland.get(seat.pk), result)
        before = _totals(round_) if round_.reopened_by_id is not None else None
        entry = save_entry(
            slot,
            seat=seat,
            key=key,
            values={
                "board": cards,
                "points": points or 0,
                "awaiting_total": points is None,
                "fantasyland_made": made,
                "fantasyland_stayed": stayed,
                "entered_by": entered_by,
                "updated_at": timezone.now(),
            },
        )
        if seat.user_id != entered_by.pk:
            record(Change.Kind.BOARD_FOR, name=seat.name, round=round_.number)
        if len(others) + 1 == len(slot.playing):
            _count_the_table(round_, game, fantasyland)
            entry.refresh_from_db()
        if before is not None:
            _keep_changed_totals(round_, before, entered_by)
        # Read again: counting the table may have rewritten the other seats' entries.
        recorded = through_or_money_kept(night, round_, slot.playing, game)
        return BoardSaved(entry, result, round_recorded=recorded)


def _cards_not_used(gone: GoneThrough, seat: Seat, board: Board, entered_by: User) -> str:
    """Why cards set for a round that went through before they arrived were not used
    (or that they were, when the round went through with these very cards), and where
    the table is now: the words a total gets (``rounds._total_not_used``)."""
    if gone.open_number is None:
        return str(gone)
    stored = Entry.objects.filter(
        round__night=seat.night_id, round__number=gone.number, seat=seat
    ).first()
    same = stored is not None and _same_cards(board)(stored)
    own = seat.user_id == entered_by.pk
    if same and own:
        text = _("Round %(number)d already went through, with your cards. Round %(open)d is open.")
    elif same:
        text = _(
            "Round %(number)d already went through, with these cards for %(name)s. "
            "Round %(open)d is open."
        )
    elif own:
        text = _(
            "Round %(number)d already went through: your cards were not used. "
            "Round %(open)d is open."
        )
    else:
        text = _(
            "Round %(number)d already went through: these cards for %(name)s were not used. "
            "Round %(open)d is open."
        )
    return text % {"number": gone.number, "open": gone.open_number, "name": seat.name}


def _totals(round_: Round) -> dict[str, int]:
    return dict(round_.entries.values_list("seat__name", "points"))


def _keep_changed_totals(round_: Round, before: dict[str, int], by: User) -> None:
    """A reopened round's history keeps every total its new cards changed, as for a
    total typed again (:func:`~scorekeeper.services.rounds.record_entry`): it is also
    what lets the round go through again (:meth:`Round.since_undo`)."""
    after = _totals(round_)
    changes = [
        [name, before[name], points]
        for name, points in after.items()
        if name in before and before[name] != points
    ]
    if changes:
        RoundEdit.objects.create(round=round_, edited_by=by, changes=changes)
        record(Change.Kind.ROUND_FIXED, round=round_.number, changes=changes)


def _count_the_table(round_: Round, game: Game, fantasyland: dict[int, FantasylandState]) -> None:
    """Every seat set its cards: the engine's totals and Fantasyland replace any typed."""
    entries = list(round_.entries.select_related("seat").order_by("seat__position"))
    table = score_table(game, round_.player_boards(entries))
    for entry, player in zip(entries, table.players, strict=True):
        entry.points = player.points
        entry.awaiting_total = False
        current = fantasyland.get(entry.seat_id)
        entry.fantasyland_made, entry.fantasyland_stayed = _claim(game, current, player)
        entry.save(
            update_fields=["points", "awaiting_total", "fantasyland_made", "fantasyland_stayed"]
        )
