"""Properties over random legal tables of every game (hypothesis)."""

from dataclasses import replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.ofc import DECK, JOKER, PRESETS, FantasylandState, PlayerBoard, score_table
from scorekeeper.ofc.evaluate import hand_key
from scorekeeper.ofc.scoring import _score_checked


@st.composite
def tables(draw, games=tuple(PRESETS)):
    game = PRESETS[draw(st.sampled_from(games))]
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


SETTINGS = settings(max_examples=150, deadline=None)


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
        assert (other.scoop, other.royalties, other.points) == (
            -pair.scoop,
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


@settings(max_examples=100, deadline=None)
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
