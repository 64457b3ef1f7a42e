"""What the pages show about boards: one board on its own, a round's count, the
cards already on the table, and the card page as a whole."""

from dataclasses import dataclass

from django.utils.translation import gettext

from scorekeeper.models import Entry, Night, Round, Seat
from scorekeeper.ofc import ROWS, PlayerResult, TableResult, score_board, score_table
from scorekeeper.terms import row_name


def board_result(night: Night, round_: Round, entry: Entry) -> PlayerResult:
    """One saved board on its own, jokers shown against the other boards of its round."""
    others = [
        other for other in round_.entries.all() if other.board and other.seat_id != entry.seat_id
    ]
    mine = entry.player_board(round_.fantasyland_seats.get(entry.seat_id))
    return score_board(night.game_rules, mine, round_.player_boards(others))


def round_table(night: Night, round_: Round) -> TableResult | None:
    """The engine's count of a round in which every seat set its cards, else None.

    Uses the round's prefetched entries (with their seats) when there are any.
    """
    entries = sorted(round_.entries.all(), key=lambda entry: entry.seat.position)
    if len(entries) < 2 or not all(entry.board for entry in entries):
        return None
    return score_table(night.game_rules, round_.player_boards(entries))


def table_cards(round_: Round, seat: Seat) -> tuple[dict[str, str], int]:
    """What other seats already set in this round: card -> whose row holds it, and
    how many jokers they hold."""
    used: dict[str, str] = {}
    jokers = 0
    others = round_.entries.filter(board__isnull=False).exclude(seat=seat).select_related("seat")
    for entry in others:
        for row in ROWS:
            for card in entry.board[row.value]:
                if card == "JK":
                    jokers += 1
                else:
                    used[card] = gettext("%(name)s's %(row)s") % {
                        "name": entry.seat.name,
                        "row": row_name(row),
                    }
    return used, jokers


@dataclass(frozen=True)
class RoundStatus:
    """Where a round stands, as one seat's card page says it."""

    entry: Entry | None  # the seat's own entry, if any
    typed: list[str]  # who typed a total instead of setting cards
    waiting: list[str]  # who else has not set cards yet


def round_status(night: Night, round_: Round, seat: Seat) -> RoundStatus:
    """The card page's status line, without the cards: what its poll renders (two queries)."""
    entries = list(round_.entries.select_related("seat", "entered_by"))
    boarded = {e.seat_id for e in entries if e.board}
    return RoundStatus(
        entry=next((e for e in entries if e.seat_id == seat.pk), None),
        typed=[e.seat.name for e in entries if not e.board],
        waiting=[
            s.name for s in night.playing_seats(round_.number) if s.pk not in boarded and s != seat
        ],
    )


@dataclass(frozen=True)
class BoardPage:
    """One seat's card page for one round: where the round stands and the cards."""

    status: RoundStatus
    result: PlayerResult | None  # the saved board on its own
    table: TableResult | None  # the round's count, once it went through on cards
    used: dict[str, str]  # cards on the other boards, and where
    jokers_used: int

    @property
    def entry(self) -> Entry | None:
        return self.status.entry


def board_page(night: Night, round_: Round, seat: Seat) -> BoardPage:
    status = round_status(night, round_, seat)
    entry = status.entry
    used, jokers_used = table_cards(round_, seat)
    return BoardPage(
        status=status,
        result=board_result(night, round_, entry) if entry and entry.board else None,
        table=round_table(night, round_) if round_.is_recorded else None,
        used=used,
        jokers_used=jokers_used,
    )
