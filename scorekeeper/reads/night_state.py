"""A night as it stands: each seat's line (total, money, this round's entry, cards,
Fantasyland) and the open round's sum, in four queries however many rounds were
played. The night page (reads/nights.py) and the big screen read it."""

from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.utils.translation import gettext

from scorekeeper.i18n import difference
from scorekeeper.models import Entry, Night, Round, Seat, User, player_board
from scorekeeper.ofc import FantasylandState, Game, PlayerResult, score_board
from scorekeeper.terms import foul_reason


@dataclass
class SeatLine:
    seat: Seat
    total: int = 0
    playing: bool = False
    entry: Entry | None = None
    fantasyland: FantasylandState | None = None
    is_dealer: bool = False
    board: PlayerResult | None = None  # the seat's cards on their own, if it set them
    money_cents: int = 0  # what the total is worth, after the night's loss cap
    change: int | None = None  # what the last round that went through gave the seat


@dataclass
class NightState:
    night: Night
    game: Game
    seats: list[SeatLine]
    round: Round | None
    rounds_played: int
    lines: list[SeatLine] = field(default_factory=list)  # the seats in this round
    # Reopened with undo and not changed since: the seats yet to save their total again.
    to_confirm: list[SeatLine] = field(default_factory=list)

    @property
    def missing(self) -> list[SeatLine]:
        return [line for line in self.lines if line.entry is None]

    @property
    def entered_sum(self) -> int:
        return sum(line.entry.points for line in self.lines if line.entry is not None)

    @property
    def all_in(self) -> bool:
        return bool(self.lines) and not self.missing

    @property
    def difference(self) -> str:
        """ "3 points too many" once everyone is in and the sum is off, else ""."""
        if self.all_in and not self.awaiting and self.entered_sum != 0:
            return difference(self.entered_sum)
        return ""

    @property
    def awaiting(self) -> list[SeatLine]:
        """Seats whose cards are in but whose total is not known yet."""
        return [line for line in self.lines if line.entry and line.entry.awaiting_total]

    @property
    def typed(self) -> list[SeatLine]:
        """Seats that typed a total instead of setting cards."""
        return [line for line in self.lines if line.entry and not line.entry.board]

    @property
    def card_notes(self) -> list[str]:
        """What the cards say, for a mixed round whose totals do not add up."""
        if not (self.difference and self.typed):
            return []
        notes = []
        for line in self.lines:
            if line.board is None:
                continue
            name = line.seat.name
            if line.board.fouled:
                text = gettext("From the cards, %(name)s fouled: %(reason)s.")
                notes.append(text % {"name": name, "reason": foul_reason(line.board)})
            else:
                text = gettext("From the cards, %(name)s's royalties are %(royalties)d.")
                notes.append(text % {"name": name, "royalties": line.board.royalties})
        return notes

    @property
    def last_saved(self) -> SeatLine | None:
        """The seat whose entry was saved or changed last: where to look first when
        the totals do not add up."""
        entered = [line for line in self.lines if line.entry is not None]
        return max(entered, key=lambda line: line.entry.updated_at, default=None)

    @property
    def reopened_by(self) -> User | None:
        """Who took this round back with "undo", while it waits to go through again."""
        return self.round.reopened_by if self.round is not None else None

    @property
    def dealer(self) -> Seat | None:
        return self.round.dealer if self.round else None

    @property
    def in_fantasyland(self) -> list[SeatLine]:
        return [line for line in self.lines if line.fantasyland is not None]

    def enterable_by(self, user: User) -> set[int]:
        """The other seats of this round whose total ``user`` may enter or change:
        the same rule the service applies when they save."""
        playing = [line.seat for line in self.lines]
        return {
            line.seat.pk
            for line in self.lines
            if line.seat.user_id != user.pk
            and not line.seat.entry_refusal(user, playing, line.entry)
        }

    def line_for_user(self, user: User) -> SeatLine | None:
        for line in self.lines:
            if line.seat.user_id == user.pk:
                return line
        return None

    @property
    def standings(self) -> list[SeatLine]:
        return sorted(self.seats, key=lambda line: (-line.total, line.seat.position))


def night_state(night: Night) -> NightState:
    """The night as its page shows it now: four queries, however many rounds were played."""
    # Each seat's points and money so far are stored with every change to the night.
    seats = list(night.seats.select_related("user"))
    counts = night.rounds.aggregate(played=Count("pk", filter=Q(recorded_at__isnull=False)))
    round_ = night.open_round()
    entries: dict[int, Entry] = {}
    fantasyland: dict[int, FantasylandState] = {}
    if round_ is not None:
        entries = {entry.seat_id: entry for entry in round_.entries.select_related("entered_by")}
        fantasyland = round_.fantasyland_seats
    game = night.game_rules
    lines = []
    for seat in seats:
        line = SeatLine(seat=seat, total=seat.points, money_cents=seat.cents)
        if round_ is not None and seat.plays(round_.number):
            line.playing = True
            line.entry = entries.get(seat.pk)
            line.fantasyland = fantasyland.get(seat.pk)
            line.is_dealer = seat.pk == round_.dealer_id
            if line.entry is not None and line.entry.board:
                cards = player_board(seat.name, line.entry.board, line.fantasyland)
                line.board = score_board(game, cards)
        lines.append(line)
    waiting: list[Entry] = []
    if round_ is not None and round_.reopened_by_id is not None:  # only an undo sets it
        _how, waiting = round_.since_undo(entries.values())
    return NightState(
        night=night,
        game=game,
        seats=lines,
        round=round_,
        rounds_played=counts["played"],
        lines=[line for line in lines if line.playing],
        to_confirm=[line for line in lines if line.entry in waiting],
    )
