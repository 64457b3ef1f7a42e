"""Properties over random legal tables of every game, under random house rules:
the table's own royalty amounts and scoring system (hypothesis)."""

from dataclasses import replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.ofc import DECK, JOKER, PRESETS, FantasylandState, PlayerBoard, score_table
from scorekeeper.ofc.evaluate import hand_key
from scorekeeper.ofc.royalties import ROYALTY_KEYS, STANDARD_ROYALTIES
from scorekeeper.ofc.scoring import _score_checked
from scorekeeper.ofc.scoring_systems import Scoring
from tests.examples import examples

# A table's own royalties: any entries of any section changed to any allowed amount.
royalty_changes = st.fixed_dictionaries(
    {},
    optional={
        section: st.dictionaries(st.sampled_from(sorted(keys)), st.integers(0, 999))
        for section, keys in ROYALTY_KEYS.items()
    },
)
scorings = st.builds(Scoring, st.integers(0, 10), st.integers(0, 10))


@st.composite
def tables(draw, games=tuple(PRESETS)):
    game = PRESETS[draw(st.sampled_from(games))]
    # Half the time the preset as it is, else random house rules of the table's own.
    if draw(st.booleans()):
        royalties = STANDARD_ROYALTIES.with_changes(draw(royalty_changes))
        game = replace(game, royalties=royalties, scoring=draw(scorings))
    players = draw(st.integers(game.min_players, game.max_players))
    cards = draw(st.permutations(list(DECK) + [JOKER] * game.jokers))
    boards = []
    for seat in range(players):
        hand = list(cards[13 * seat : 13 * seat + 13])
        top, middle, bottom = hand[:3], hand[3:8], hand[8:]
        # Random boards mostly foul; put the stronger five at the bottom half the time.
        if JOKER not in hand and draw(st.booleans()) and hand_key(middle) > hand_key(bottom):
            middle, bottom = bottom, middle
        state = draw(
            st.none() | st.builds(FantasylandState, st.integers(13, 17), st.integers(0, 4))
        )
        boards.append(PlayerBoard(f"P{seat}", tuple(top), tuple(middle), tuple(bottom), state))
    return game, boards


SETTINGS = settings(max_examples=examples(150), deadline=None)


@SETTINGS
@given(tables())
def test_points_add_up_to_zero(table):
    result = score_table(*table)
    assert sum(p.points for p in result.players) == 0


@SETTINGS
@given(tables())
def test_each_pair_is_opposite_from_the_two_sides(table):
    game, boards = table
    forward = score_table(game, boards)
    backward = score_table(game, boards[::-1])
    by_names = {pair.players: pair for pair in backward.pairs}
    for pair in forward.pairs:
        other = by_names[pair.players[::-1]]
        assert other.rows == tuple(-r for r in pair.rows)
        assert (other.scoop, other.majority, other.royalties, other.points) == (
            -pair.scoop,
            -pair.majority,
            -pair.royalties,
            -pair.points,
        )
    for player in forward.players:
        assert player.points == sum(
            pair.points if pair.players[0] == player.name else -pair.points
            for pair in forward.pairs
            if player.name in pair.players
        )


@SETTINGS
@given(tables())
def test_a_fouled_board_has_no_royalties_and_no_fantasyland(table):
    for player in score_table(*table).players:
        if player.fouled:
            assert player.royalties == 0
            assert all(row.royalty == 0 for row in player.rows)
            assert player.fantasyland is None
            assert player.foul_reason
        else:
            assert player.foul_reason is None
            assert player.royalties == sum(row.royalty for row in player.rows)


@SETTINGS
@given(tables(), st.randoms(use_true_random=False))
def test_reordering_the_seats_changes_no_players_points(table, rng):
    game, boards = table
    shuffled = list(boards)
    rng.shuffle(shuffled)
    before = {p.name: (p.points, p.fantasyland) for p in score_table(game, boards).players}
    after = {p.name: (p.points, p.fantasyland) for p in score_table(game, shuffled).players}
    assert before == after


@settings(max_examples=examples(100), deadline=None)
@given(tables(games=("jokers",)))
def test_replacing_a_joker_by_the_card_it_became_scores_the_same(table):
    game, boards = table
    result = score_table(game, boards)
    assume(any(row.jokers for p in result.players for row in p.rows))
    replaced = [
        replace(board, top=p.top.cards, middle=p.middle.cards, bottom=p.bottom.cards)
        for board, p in zip(boards, result.players, strict=True)
    ]
    # A joker may copy a card held elsewhere, so skip the duplicate-card check.
    again = _score_checked(game, replaced)
    for before, after in zip(result.players, again.players, strict=True):
        assert after.fouled == before.fouled
        assert after.points == before.points
        assert after.royalties == before.royalties
        assert after.fantasyland == before.fantasyland
        assert [row.key for row in after.rows] == [row.key for row in before.rows]


@SETTINGS
@given(tables())
def test_a_pair_is_its_rows_its_bonuses_and_its_royalties(table):
    game, _ = table
    result = score_table(*table)
    bonus = game.scoring
    for pair in result.pairs:
        won, lost = pair.rows.count(1), pair.rows.count(-1)
        assert pair.scoop == bonus.scoop * ((won == 3) - (lost == 3))
        assert pair.majority == bonus.majority * ((won > lost) - (won < lost))
        assert pair.points == sum(pair.rows) + pair.scoop + pair.majority + pair.royalties


@SETTINGS
@given(tables(), royalty_changes)
def test_royalty_amounts_change_no_foul_no_hand_and_no_fantasyland(table, changes):
    game, boards = table
    own = replace(game, royalties=STANDARD_ROYALTIES.with_changes(changes))
    before, after = score_table(game, boards), score_table(own, boards)
    for old, new in zip(before.players, after.players, strict=True):
        assert (new.fouled, new.fantasyland) == (old.fouled, old.fantasyland)
        # Jokers become the strongest hand, never the best paid one.
        assert [row.cards for row in new.rows] == [row.cards for row in old.rows]
