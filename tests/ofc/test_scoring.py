"""The rulings and worked examples of the rules, and other programs' known mistakes."""

from dataclasses import replace

import pytest

from scorekeeper.ofc import PRESETS, OFCError, score_table

from .util import alone, board, filler, score, weak


def test_the_three_player_worked_example():
    a = board("A", "2c 3d 4h", "Qs Qd 5c 5d 9s", "Ah Jh 8h 6h 3h")  # flush bottom: 4
    b = board("B", "Kc Kd 7s", "As Ad 9c 6d 2s", "Ts Td 4s 4c Js")  # kings on top: 8
    c = board("C", "Qc Qh 2d", "7c 8d 9h Jd 2h", "6s 6c Kh Ks 3s")  # middle below the top
    result = score("pineapple", a, b, c)
    assert [p.royalties for p in result.players] == [4, 8, 0]
    assert [p.fouled for p in result.players] == [False, False, True]
    ab, ac, bc = result.pairs
    assert (ab.rows, ab.scoop, ab.royalties, ab.points) == ((-1, 1, 1), 0, -4, -3)
    assert (ac.rows, ac.scoop, ac.royalties, ac.points) == ((1, 1, 1), 3, 4, 10)
    assert bc.points == 14
    assert [p.points for p in result.players] == [7, 17, -24]
    assert result.players[1].fantasyland is not None
    assert result.players[0].fantasyland is None
    assert result.players[2].fantasyland is None


@pytest.mark.parametrize(
    ("top", "middle", "fouled"),
    [
        ("Ks Kc Ah", "Kh Kd Qc Js 9s", True),
        ("Ks Kc 9h", "Kh Kd Ac Qs Js", False),
        ("Ks Kc Qh", "Kh Kd Qc Js 9s", False),
    ],
)
def test_the_three_kicker_rulings(top, middle, fouled):
    assert alone("standard", board("P", top, middle, "2s 2d 2h 2c 3s")).fouled is fouled


def test_top_against_middle_is_not_the_middles_best_three_cards():
    # Judged by its best three cards (K-K-3) this middle would lose to K-K-4;
    # it is two pair, which beats any pair.
    assert not alone("standard", board("P", "Kh Kd 4c", "Ks Kc 2h 2d 3h", "As Ac Ad 7s 7c")).fouled
    # A straight beats a pair on top, though its best three cards are only K-Q-J.
    straight = alone("standard", board("P", "Ah Ad 3c", "9s Th Jd Qc Kh", "2s 2c 2h 2d 7c"))
    assert not straight.fouled


def test_a_middle_exactly_as_strong_as_the_bottom_is_legal():
    assert not alone("standard", board("P", "2c 3c 5d", "As Ks Qd Jh 9c", "Ad Kd Qh Jc 9s")).fouled


def test_a_foul_gives_the_reason_in_words():
    fouled = alone("standard", board("P", "9s 9h 9d", "Ks Kc 2h 2d 3h", "As Ac Ad 7s 7c"))
    assert fouled.foul_reason == "the middle, two pair, is weaker than the top, trips"
    close = alone("standard", board("P", "Ks Kc Ah", "Kh Kd Qc Js 9s", "2s 2d 2h 2c 3s"))
    assert close.foul_reason == (
        "the middle, pair of kings, queen-jack-nine kickers, is weaker than the top, "
        "pair of kings, ace kicker"
    )
    both = alone("standard", board("P", "Ks Kc Ah", "2s 2d 2h 7c 7d", "Qh Qd 4s 5c 9s"))
    assert both.foul_reason == ("the bottom, pair, is weaker than the middle, full house")


@pytest.mark.parametrize(
    ("top", "royalty"),
    [
        ("5s 5h Ad", 0),
        ("6s 6h Ad", 1),
        ("7s 7h Ad", 2),
        ("Ts Th Ad", 5),
        ("Qs Qh Ad", 7),
        ("Ks Kh Ad", 8),
        ("As Ah Kd", 9),
        ("2s 2h 2d", 10),
        ("3s 3h 3d", 11),
        ("Ts Th Td", 18),
        ("As Ah Ad", 22),
        ("As Kh Qd", 0),
    ],
)
def test_top_royalties(top, royalty):
    # A bottom of quad sevens keeps every one of these tops legal (middle quads too).
    p = board("P", top, "8s 8h 8d 8c 4c", "9s 9h 9d 9c 4d")
    result = alone("standard", p)
    assert not result.fouled
    assert result.top.royalty == royalty


@pytest.mark.parametrize(
    ("cards", "middle", "bottom", "name"),
    [
        ("7s 7h 7d 2c 3c", 2, 0, "trips"),
        ("As 2h 3d 4c 5c", 4, 2, "straight"),
        ("2s 3h 4d 5c 6c", 4, 2, "straight"),
        ("Ts Jh Qd Kc Ac", 4, 2, "straight"),
        ("2h 5h 7h 9h Jh", 8, 4, "flush"),
        ("7s 7h 7d 2c 2d", 12, 6, "full house"),
        ("7s 7h 7d 7c 2d", 20, 10, "quads"),
        ("5h 6h 7h 8h 9h", 30, 15, "straight flush"),
        ("Ah 2h 3h 4h 5h", 30, 15, "straight flush"),
        ("Th Jh Qh Kh Ah", 50, 25, "royal flush"),
        ("Ks Kh 2d 2c 3d", 0, 0, "two pair"),
    ],
)
def test_middle_and_bottom_royalties_including_the_royal_flush(cards, middle, bottom, name):
    game = PRESETS["standard"]
    # The same hand in both rows: middle == bottom is legal.
    as_middle = board("P", "2s 3s 4s", cards, cards)
    # Duplicate cards would be refused, so ask the pieces directly.
    from scorekeeper.ofc.board import row_royalties
    from scorekeeper.ofc.evaluate import hand_key, hand_name

    key = hand_key(as_middle.middle)
    assert hand_name(key) == name
    low_top = hand_key(as_middle.top)
    assert row_royalties(game, (low_top, key, key))[1:] == (middle, bottom)


def test_a_royal_flush_pays_the_royal_royalty_in_a_real_hand():
    p = board("P", "2s 3s 4d", "9c 9d 9h 5c 5d", "Th Jh Qh Kh Ah")
    result = alone("standard", p)
    assert result.bottom.hand == "royal flush"
    assert result.bottom.royalty == 25
    assert result.middle.royalty == 12


def test_winning_all_three_rows_pays_the_scoop():
    strong = board("S", "Ah Ac 2c", "Ks Kd Kh 3c 4c", "Qs Qd Qh Qc 5c")
    result = score("standard-nofl", strong, weak())
    pair = result.pairs[0]
    assert (pair.rows, pair.scoop) == ((1, 1, 1), 3)
    assert pair.points == 6 + (9 + 2 + 10)


def test_a_tied_row_means_no_scoop():
    # Both tops are 2-3-4 high; the other rows are won.
    a = board("A", "2s 3s 4d", "Ks Kd Kh 3c 4c", "Qs Qd Qh Qc 5c")
    result = score("standard-nofl", a, weak())
    pair = result.pairs[0]
    assert pair.rows == (0, 1, 1)
    assert pair.scoop == 0
    assert pair.points == 2 + (2 + 10)


def test_three_equal_rows_from_both_sides_are_all_ties():
    a = board("A", "2c 3c 5d", "As Ks Qd Jh 9c", "Ad Kd Qh Jc 9s")
    b = board("B", "2s 3h 5h", "Ac Kc Qs Js 9d", "Ah Kh Qc Jd 9h")
    pair = score("standard", a, b).pairs[0]
    assert (pair.rows, pair.scoop, pair.points) == ((0, 0, 0), 0, 0)


def test_a_fouled_player_collects_no_royalties_and_pays_the_others():
    # The fouler has a flush bottom and queens on top, but a middle below the top.
    fouler = board("F", "Qs Qh 2d", "3c 4d 7h 9s Jd", "Ac Kc Tc 6c 5c")
    other = board("O", "6s 6h 3d", "7s 7d 7c 2c 2s", "8s 8h 8d 8c 4h")  # 1 + 12 + 10
    result = score("standard", fouler, other)
    f, o = result.players
    assert f.fouled and f.royalties == 0
    assert all(row.royalty == 0 for row in f.rows)
    assert o.royalties == 23
    assert result.pairs[0].points == -(6 + 23)
    assert (f.points, o.points) == (-29, 29)


def test_two_fouled_players_settle_nothing_between_them():
    f1 = board("F1", "Qs Qh 2d", "3c 4d 7h 9s Jd", "Ac Kc 8c 6c 5c")
    f2 = board("F2", "As Ah 3d", "4c 5d 8h Ts Qd", "Kh Ks Kd 6d 6h")
    pair = score("standard", f1, f2).pairs[0]
    assert (pair.rows, pair.scoop, pair.royalties, pair.points) == ((0, 0, 0), 0, 0, 0)


def test_a_group_can_set_its_own_royalty_table():
    standard = PRESETS["standard"]
    royalties = replace(standard.royalties, top_pair={**standard.royalties.top_pair, 6: 5})
    game = replace(standard, royalties=royalties)
    p = board("P", "6s 6h 3d", "7s 7d 7c 2c 2s", "8s 8h 8d 8c 4h")
    assert score_table(game, [p, filler(p)]).players[0].top.royalty == 5


class TestDeuce:
    def test_the_middle_must_be_a_ten_high_low(self):
        ace = alone("deuce", board("P", "Ks Kh 2d", "As 5h 4d 3c 2s", "Qs Qd Qh 8c 8d"))
        assert ace.fouled
        assert "aces are high" in ace.foul_reason

    def test_only_bottom_against_top_is_checked(self):
        # Queens on top over a 7-high middle is fine in 2-7.
        ok = board("P", "Qs Qh 2d", "7s 5h 4d 3c 2s", "Ks Kd Kh 8c 8d")
        result = alone("deuce", ok)
        assert not result.fouled
        assert result.middle.hand == "7-high"
        assert result.middle.royalty == 4
        weak_top = board("P", "Qs Qh 2d", "7s 5h 4d 3c 2s", "Js Jd 9h 8c 6d")
        assert alone("deuce", weak_top).foul_reason == (
            "the bottom, pair of jacks, nine-eight-six kickers, is weaker than the top, "
            "pair of queens, two kicker"
        )

    @pytest.mark.parametrize(
        ("middle", "hand", "royalty"),
        [
            ("7s 5h 4d 3c 2s", "7-high", 4),
            ("8s 5h 4d 3c 2s", "8-high", 2),
            ("9s 5h 4d 3c 2s", "9-high", 1),
            ("Ts 5h 4d 3c 2s", "10-high", 0),
        ],
    )
    def test_middle_royalties(self, middle, hand, royalty):
        result = alone("deuce", board("P", "Kc Jc 6d", middle, "Qs Qd Qh 8c 8d"))
        assert (result.middle.hand, result.middle.royalty) == (hand, royalty)

    def test_the_lower_middle_wins(self):
        a = board("A", "2c 3d 4h", "7s 5h 4d 3c 2s", "Qs Qd Qh 8c 8d")
        b = board("B", "2d 3h 4s", "7d 6h 4c 3s 2h", "Ks Kd Kh 9c 9d")
        pair = score("deuce", a, b).pairs[0]
        assert pair.rows == (0, 1, -1)


def test_bad_tables_are_refused_in_plain_words():
    with pytest.raises(OFCError, match=r"^pineapple takes 2 to 3 players, got 4$"):
        score("pineapple", weak("A"), weak("B"), weak("C"), weak("D"))
    with pytest.raises(OFCError, match=r"^player 1 \(A\), middle needs 5 cards, got 4$"):
        score("standard", board("A", "2s 3s 4s", "5s 6s 7s 8s", "9s Ts Js Qs Ks"), weak())
    with pytest.raises(OFCError, match=r"^2d appears twice: A top, W top$"):
        score("standard", board("A", "2d 3s 4h", "5c 6s 7s 8s 9h", "Ts Js Qs Ks As"), weak())
    with pytest.raises(OFCError, match=r"^2d appears twice: A top, A bottom$"):
        score("standard", board("A", "2d 3s 4h", "5c 6s 7s 8s 9h", "Ts Js Qs Ks 2d"), weak())
    with pytest.raises(OFCError, match=r"jokers are only dealt in the jokers game$"):
        score("ultimate", board("A", "JK 3s 4h", "5c 6s 7s 8s 9h", "Ts Js Qs Ks As"), weak())
    with pytest.raises(OFCError, match="two players are called Zed"):
        score("standard", weak("Zed"), weak("Zed"))


@pytest.mark.parametrize(
    ("middle", "hand", "reason"),
    [
        # Aces are high in 2-7: A-2-3-4-5 is ace high, not a straight ...
        ("As 2h 3d 4c 5c", "high card", "it has an ace, and aces are high in 2-7"),
        # ... and suited it is a flush, not a straight flush.
        ("As 2s 3s 4s 5s", "flush", "it is a flush"),
        ("6h 2h 3d 4c 5c", "straight", "it is a straight"),
        ("Js 2h 3d 4c 6c", "high card", "it is jack-high"),
        ("7s 7h 3d 4c 6c", "pair", "it has a pair"),
    ],
)
def test_a_fouled_deuce_middle_is_named_as_2_7_ranks_it(middle, hand, reason):
    result = alone("deuce", board("P", "Kc Kd 6d", middle, "Qh Qd Qc 8c 8d"))
    assert result.fouled
    assert result.middle.hand == hand
    assert reason in result.foul_reason
    assert result.middle.royalty == 0


def test_a_fouled_deuce_ace_to_five_middle_is_described_ace_high():
    result = alone("deuce", board("P", "Kc Kd 6d", "As 2h 3d 4c 5c", "Qh Qd Qc 8c 8d"))
    assert result.middle.description == "ace high, then five-four-three-two"
