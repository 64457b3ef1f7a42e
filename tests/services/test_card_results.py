"""Each board's result is stored when its round goes through, and a player's card
record reads it without scoring a board again (issue 22).

The reference is the record as the player page worked it out before: every board of
every round the player set cards in scored again with the engine, on every load
(``rescored_card_record``, kept here only to check the stored results against).
"""

import random
import sys
from itertools import groupby

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper import ofc
from scorekeeper.models import Entry, Group, User, parse_board, player_board
from scorekeeper.ofc import DECK, PRESETS, OFCError, score_board, score_table
from scorekeeper.reads.records import CardRecord, HeadToHead, card_record
from scorekeeper.services.boards import record_board
from scorekeeper.services.card_results import store_card_results
from scorekeeper.services.round_fixes import edit_round, undo_last_round
from scorekeeper.services.seats import add_seat
from scorekeeper.table.people import person_key
from scorekeeper.terms import row_description
from tests.helpers import enter, finish, open_round, play, play_two_nights, seats_of

# The reference: the player page's card record before the results were stored.


def _rescored_rounds(group: Group, user: User) -> list[Entry]:
    theirs = Entry.objects.filter(
        seat__user=user,
        board__isnull=False,
        round__recorded_at__isnull=False,
        round__night__group=group,
        round__night__ended_at__isnull=False,
    ).values("round_id")
    return list(
        Entry.objects.filter(round_id__in=theirs, board__isnull=False)
        .select_related("seat", "round__night")
        .order_by("round__night__started_at", "round__night_id", "round__number", "seat__position")
    )


def _rescore(entries, mine):
    round_ = entries[0].round
    game = round_.night.game_rules
    boards = round_.player_boards(entries)
    if len(entries) >= 2:
        try:
            table = score_table(game, boards)
        except OFCError:
            pass
        else:
            pairs = []
            for pair in table.pairs:
                if mine in pair.seats:
                    other = pair.seats[1] if pair.seats[0] == mine else pair.seats[0]
                    points = pair.points if pair.seats[0] == mine else -pair.points
                    pairs.append((entries[other], points))
            return table.players[mine], pairs
    try:
        return score_board(game, boards[mine]), []
    except OFCError:
        return None


def rescored_card_record(group: Group, user: User) -> CardRecord:
    from scorekeeper.reads.records import BEST_HANDS, BestHand

    record = CardRecord()
    rivals: dict[str, HeadToHead] = {}
    rows = []
    for _round_id, in_round in groupby(_rescored_rounds(group, user), key=lambda e: e.round_id):
        entries = list(in_round)
        mine = next(i for i, entry in enumerate(entries) if entry.seat.user_id == user.pk)
        scored = _rescore(entries, mine)
        if scored is None:
            continue
        result, pairs = scored
        round_ = entries[0].round
        night = round_.night
        record.hands += 1
        record.fouls += result.fouled
        record.royalties += result.royalties
        if round_.fantasyland_seats.get(entries[mine].seat_id) is not None:
            record.in_fantasyland += 1
            record.stayed += result.fantasyland is not None
        elif night.game_rules.fantasyland:
            record.could_make += 1
            record.made += result.fantasyland is not None
        if not result.fouled:
            rows += [
                BestHand(row.key, row_description(row), row.row, night, round_.number)
                for row in result.rows
                if not row.low
            ]
        for other, points in pairs:
            seat = other.seat
            rival = rivals.setdefault(person_key(seat), HeadToHead(seat.name, seat.user_id))
            rival.hands += 1
            rival.won += points > 0
            rival.lost += points < 0
            stake = (night.currency, night.point_cents)
            rival.points[stake] = rival.points.get(stake, 0) + points
    record.best_hands = sorted(rows, key=lambda hand: -hand.key)[:BEST_HANDS]
    record.head_to_head = sorted(rivals.values(), key=lambda rival: (-rival.hands, rival.name))
    return record


# A played group: every game, random deals, mixed rounds, a late arrival, an undo.

GAMES = ("standard", "standard-nofl", "pineapple", "progressive", "ultimate", "jokers", "deuce")


# Kings on top make Fantasyland (in 2-7 too, with a 2-7 middle); queens trips on
# top stay in it where trips stay.
KINGS = parse_board({"top": "Kc Kd 7s", "middle": "As Ad 9c 6d 2s", "bottom": "Ts Td 4s 4c Js"})
DEUCE_KINGS = parse_board(
    {"top": "Ks Kh 3h", "middle": "8d 6h 4h 3c 2h", "bottom": "As Ad Ah Tc Td"}
)
TRIPS = parse_board({"top": "Qh Qc Qd", "middle": "2h 5h 7h 9h Jh", "bottom": "8c 8d 8s 4c 4d"})


def _deal(rng: random.Random, game_id: str, count: int, set_one: dict | None) -> list[dict]:
    """``count`` boards dealt from one deck (with the game's jokers): ``set_one``
    first if given, the others placed at random (most of them foul) or weakest cards
    on top (most of them stand)."""
    taken = {card for row in set_one.values() for card in row} if set_one else set()
    deck = [card for card in DECK if str(card) not in taken]
    deck += [ofc.JOKER] * PRESETS[game_id].jokers
    rng.shuffle(deck)
    boards = [set_one] if set_one else []
    for index in range(count - len(boards)):
        cards = deck[13 * index : 13 * index + 13]
        if rng.random() < 0.6:
            cards.sort(key=lambda card: card.rank)
        text = [str(card) for card in cards]
        boards.append(parse_board({"top": text[:3], "middle": text[3:8], "bottom": text[8:]}))
    return boards


def _card_round(rng, night, game_id: str, *, mixed: bool = False, set_one=None, at=0) -> None:
    """A round of cards dealt; the seat at ``at`` gets ``set_one`` if given. In a mixed
    round only that seat sets cards (and types a total), the others type theirs."""
    number = open_round(night).number
    seats = night.playing_seats(number)
    seats = seats[at:] + seats[:at]
    boards = _deal(rng, game_id, len(seats), set_one)
    if mixed:
        points = [rng.randint(-9, 9) for _ in seats[1:]]
        seat = seats[0]
        by = seat.user or night.started_by
        record_board(
            night=night,
            round_number=number,
            seat=seat,
            board=boards[0],
            entered_by=by,
            points=-sum(points),
        )
        for other, value in zip(seats[1:], points, strict=True):
            enter(night, other.name, value)
        return
    for seat, board in zip(seats, boards, strict=True):
        by = seat.user or night.started_by
        record_board(night=night, round_number=number, seat=seat, board=board, entered_by=by)


def _fix_cards(night) -> None:
    """In the reopened round, the first seat's middle and bottom were set the wrong
    way round: set again, the round goes through at once when that changed a total,
    else once the others confirmed theirs."""
    number = open_round(night).number
    entry = Entry.objects.select_related("seat").filter(round__number=number, round__night=night)
    board = entry.order_by("seat__position").first()
    fixed = {**board.board, "middle": board.board["bottom"], "bottom": board.board["middle"]}
    points = None if board.awaiting_total else board.points
    saved = record_board(
        night=night,
        round_number=number,
        seat=board.seat,
        board=fixed,
        entered_by=board.seat.user,
        points=points,
    )
    if not saved.round_recorded:
        others = entry.exclude(pk=board.pk)
        confirms = [enter(night, other.seat.name, other.points) for other in others]
        assert not saved.entry.awaiting_total and confirms[-1].round_recorded


def played_group(make_night) -> Group:
    """The two nights counted by hand in tests.helpers, then a night of every game:
    card rounds dealt at random, a mixed round and a totals round; a guest at the
    four-seat tables; at the standard table a round undone and its cards set again,
    and a guest who sits down late (the seats after them move up one); and a night
    still running."""
    group, _first, _second = play_two_nights(make_night)
    rng = random.Random(2212)
    anna = User.objects.get(name="Anna")
    for game_id in GAMES:
        # Four seats where the game takes four; at the standard table the fourth sits late.
        four = PRESETS[game_id].max_players >= 4 and game_id != "standard"
        guests = ("Gus",) if four else ()
        night = make_night(("Anna", "Bram", "Chris"), game=game_id, guests=guests, group=group)
        at = GAMES.index(game_id) % 3  # who makes Fantasyland and plays in it
        kings = DEUCE_KINGS if game_id == "deuce" else KINGS
        _card_round(rng, night, game_id, set_one=kings, at=at)
        _card_round(rng, night, game_id, set_one=TRIPS, at=at)
        _card_round(rng, night, game_id)
        _card_round(rng, night, game_id, mixed=True)
        if game_id == "standard":
            undo_last_round(night=night, by=anna)
            _fix_cards(night)
            add_seat(night=night, by=anna, guest_name="Dee", position=1)
            play(night, {"Anna": 1, "Bram": -1, "Chris": 0})  # the hand on the table, without Dee
            _card_round(rng, night, game_id)
        players = night.playing_seats(open_round(night).number)
        totals = [rng.randint(-5, 5) for _ in players[1:]]
        play(night, dict(zip([s.name for s in players], [-sum(totals), *totals], strict=True)))
        finish(night)
    _card_round(rng, make_night(("Anna", "Bram"), game="pineapple", group=group), "pineapple")
    return group


def test_the_stored_results_give_every_player_the_record_the_engine_gives(make_night):
    group = played_group(make_night)
    members = list(User.objects.filter(memberships__group=group).order_by("name"))
    records = {user.name: card_record(group, user) for user in members}

    for user in members:
        assert records[user.name] == rescored_card_record(group, user), user.name
    # What the comparison covered: fouls, stands, royalties, every way in and out of
    # Fantasyland, 2-7 middles and jokers, pairs with a guest.
    anna = records["Anna"]
    assert anna.hands > 20 and 0 < anna.fouls < anna.hands and anna.royalties > 0
    assert sum(record.made for record in records.values()) >= 3
    assert sum(record.stayed for record in records.values()) >= 3
    assert any(record.stayed < record.in_fantasyland for record in records.values())
    assert {rival.name for rival in anna.head_to_head} == {"Bram", "Chris", "Gus", "Dee"}
    assert len(anna.best_hands) == 3
    boards = Entry.objects.filter(card_result__isnull=False)
    assert any("JK" in entry.board["top"] + entry.board["middle"] for entry in boards)
    assert any(row["low"] for entry in boards for row in entry.card_result["rows"])


def test_a_record_calls_no_engine_function(make_night, monkeypatch):
    group, _, _ = play_two_nights(make_night)
    bram = User.objects.get(name="Bram")
    before = card_record(group, bram)

    def refuse(*args, **kwargs):
        raise AssertionError("a read scored a board")

    # Every name the scoring functions are bound to, in every module of the app.
    scoring = [ofc.score_table, ofc.score_board, ofc.scoring.evaluate_board]
    for name, module in list(sys.modules.items()):
        if name.startswith("scorekeeper"):
            for attribute, value in list(vars(module).items()):
                if any(value is function for function in scoring):
                    monkeypatch.setattr(module, attribute, refuse)
    with pytest.raises(AssertionError):
        ofc.score_board(PRESETS["standard"], None)

    assert card_record(group, bram) == before
    assert before.hands == 3


A = parse_board({"top": "2c 3d 4h", "middle": "Qs Qd 5c 5d 9s", "bottom": "Ah Jh 8h 6h 3h"})
B = parse_board({"top": "Kc Kd 7s", "middle": "As Ad 9c 6d 2s", "bottom": "Ts Td 4s 4c Js"})


def _set(night, name, board, **extra):
    seat = seats_of(night)[name]
    return record_board(
        night=night,
        round_number=open_round(night).number,
        seat=seat,
        board=board,
        entered_by=seat.user,
        **extra,
    )


def _stored(night) -> dict[str, dict | None]:
    entries = Entry.objects.filter(round__night=night, round__number=1).select_related("seat")
    return {entry.seat.name: entry.card_result for entry in entries}


def _engine(game_id: str, boards: dict[str, dict]) -> dict[str, tuple]:
    """(fouled, royalties, Fantasyland earned, row keys, pair points) per player, from
    the engine here."""
    names = list(boards)
    table = score_table(PRESETS[game_id], [player_board(n, b) for n, b in boards.items()])
    pairs: dict[str, list] = {name: [] for name in names}
    for pair in table.pairs:
        first, second = (names[seat] for seat in pair.seats)
        pairs[first].append({"against": second, "points": pair.points})
        pairs[second].append({"against": first, "points": -pair.points})
    return {
        name: (
            player.fouled,
            player.royalties,
            player.fantasyland is not None,
            [row.key for row in player.rows],
            pairs[name],
        )
        for name, player in zip(names, table.players, strict=True)
    }


def _writes_results(sql: str) -> bool:
    return sql.startswith("UPDATE") and "card_result" in sql


def _said(stored: dict[str, dict | None]) -> dict[str, tuple]:
    return {
        name: (
            result["fouled"],
            result["royalties"],
            result["fantasyland"],
            [row["key"] for row in result["rows"]],
            result["pairs"],
        )
        for name, result in stored.items()
    }


def test_undoing_a_round_clears_its_results_and_a_board_set_again_is_scored_again(
    make_night,
):
    night = make_night(("Anna", "Bram"), game="pineapple")
    _set(night, "Anna", A)
    assert _stored(night) == {"Anna": None}  # waiting for Bram's cards: not recorded
    _set(night, "Bram", B)
    assert _said(_stored(night)) == _engine("pineapple", {"Anna": A, "Bram": B})
    assert _stored(night)["Bram"]["fantasyland"]  # kings on top

    undo_last_round(night=night, by=User.objects.get(name="Anna"))
    assert _stored(night) == {"Anna": None, "Bram": None}

    weaker = {**B, "top": ["Kc", "Jd", "7s"]}  # no kings on top: no Fantasyland
    _set(night, "Bram", weaker)
    assert _said(_stored(night)) == _engine("pineapple", {"Anna": A, "Bram": weaker})
    assert not _stored(night)["Bram"]["fantasyland"]


@pytest.mark.database
def test_a_fixed_total_leaves_the_card_results_and_nothing_unchanged_is_written(make_night):
    night = make_night(("Anna", "Bram"), game="pineapple")
    _set(night, "Anna", A)
    _set(night, "Bram", B)
    before = _stored(night)
    seats = seats_of(night)
    anna = User.objects.get(name="Anna")
    with CaptureQueriesContext(connection) as fixing:
        edit_round(
            night=night,
            number=1,
            edited_by=anna,
            points={seats["Anna"].pk: 2, seats["Bram"].pk: -2},
        )
    assert _stored(night) == before  # the pair results come from the cards
    assert not any(_writes_results(query["sql"]) for query in fixing.captured_queries)

    round_ = night.rounds.get(number=1)
    with CaptureQueriesContext(connection) as again:
        store_card_results([round_.pk])
    assert [query["sql"].split()[0] for query in again.captured_queries] == ["SELECT"]
    assert _stored(night) == before


def test_in_a_mixed_round_the_board_is_scored_alone_and_a_total_has_no_result(make_night):
    night = make_night(("Anna", "Bram"), game="pineapple")
    _set(night, "Bram", B, points=5)
    enter(night, "Anna", -5)
    alone = score_board(PRESETS["pineapple"], player_board("Bram", B))
    bram = _stored(night)["Bram"]
    assert (bram["fouled"], bram["royalties"], bram["fantasyland"], bram["pairs"]) == (
        alone.fouled,
        alone.royalties,
        alone.fantasyland is not None,
        [],
    )
    assert [row["key"] for row in bram["rows"]] == [row.key for row in alone.rows]
    assert _stored(night)["Anna"] is None


def _as_read(record: CardRecord) -> tuple:
    """A record as the page says it, without the rows' keys (a copy has new ones)."""
    return (
        (record.hands, record.fouls, record.royalties, record.made, record.stayed),
        [(hand.description, hand.row, hand.round_number) for hand in record.best_hands],
        [(r.name, r.hands, r.won, r.lost, r.stake_lines) for r in record.head_to_head],
    )


def test_a_copied_group_reads_the_same_card_records(make_night, tmp_path):
    # The pair results name the other seat as the copy does too (every key is new).
    from scorekeeper.copies.group_copy import import_group, write_group

    group, _, _ = play_two_nights(make_night)
    write_group(tmp_path / "group.json", group.pk)
    copy, renamed, _ = import_group(tmp_path / "group.json")

    for name in ("Anna", "Bram", "Chris"):
        original = card_record(group, User.objects.get(name=name))
        copied = card_record(copy, User.objects.get(name=renamed[name]))
        assert _as_read(copied) == _as_read(original)
        assert {rival.user_id for rival in copied.head_to_head} <= {
            None,
            *User.objects.filter(name__in=renamed.values()).values_list("pk", flat=True),
        }


@pytest.mark.database
def test_a_player_who_only_typed_totals_costs_one_query(make_night, django_assert_num_queries):
    night = finish(play(make_night(("Anna", "Bram")), {"Anna": 3, "Bram": -3}))
    group, anna = night.group, User.objects.get(name="Anna")
    with django_assert_num_queries(1):
        record = card_record(group, anna)
    assert record == CardRecord()
