import random
from collections import Counter
from itertools import combinations

import pytest

from scorekeeper.ofc import DECK, Category, describe, hand_key, hand_name, parse_cards
from scorekeeper.ofc.evaluate import category_of, five_key, low_fault, low_name


def key(text: str) -> int:
    return hand_key(parse_cards(text))


@pytest.mark.slow
def test_every_five_card_hand_has_the_known_counts_and_7462_strengths():
    codes = [card.code for card in DECK]
    keys = Counter(map(five_key, combinations(codes, 5)))
    assert sum(keys.values()) == 2_598_960
    assert len(keys) == 7462
    by_category = Counter()
    for hand_key_, count in keys.items():
        by_category[category_of(hand_key_)] += count
    assert by_category == {
        Category.STRAIGHT_FLUSH: 40,
        Category.QUADS: 624,
        Category.FULL_HOUSE: 3744,
        Category.FLUSH: 5108,
        Category.STRAIGHT: 10200,
        Category.TRIPS: 54912,
        Category.TWO_PAIR: 123552,
        Category.PAIR: 1098240,
        Category.HIGH_CARD: 1302540,
    }
    royals = sum(count for k, count in keys.items() if hand_name(k) == "royal flush")
    assert royals == 4
    # Distinct strengths per category, as in any poker reference.
    classes = Counter(category_of(k) for k in keys)
    assert classes[Category.STRAIGHT_FLUSH] == 10
    assert classes[Category.QUADS] == 156
    assert classes[Category.FULL_HOUSE] == 156
    assert classes[Category.FLUSH] == 1277
    assert classes[Category.STRAIGHT] == 10
    assert classes[Category.TRIPS] == 858
    assert classes[Category.TWO_PAIR] == 858
    assert classes[Category.PAIR] == 2860
    assert classes[Category.HIGH_CARD] == 1277


def test_the_order_agrees_with_treys_on_random_hands():
    treys = pytest.importorskip("treys")
    evaluator = treys.Evaluator()
    rng = random.Random(7)
    seen: dict[int, int] = {}
    for _ in range(20_000):
        cards = rng.sample(DECK, 5)
        ours = hand_key(cards)
        theirs = evaluator.evaluate([treys.Card.new(str(c)) for c in cards], [])
        assert seen.setdefault(ours, theirs) == theirs  # same strength, same treys rank
    ordered = [seen[k] for k in sorted(seen)]
    # Our keys grow as treys' ranks fall (treys: 1 is the best hand).
    assert ordered == sorted(ordered, reverse=True)
    assert len(set(ordered)) == len(ordered)


def test_suits_never_break_ties():
    assert key("As Kd Qh Jc 9s") == key("Ad Ks Qc Jh 9d")
    assert key("Kh Kd 7c") == key("Ks Kc 7d")


def test_kickers_decide_within_a_category():
    assert key("Ks Kc Ad Qh Js") > key("Kh Kd Ac Qs Ts")
    assert key("9s 9c 4d 4h As") > key("9h 9d 4c 4s Ks")
    assert key("Kh Kd 9c") < key("Ks Kc Td")


def test_a_to_5_is_the_lowest_straight_and_the_ace_is_low_nowhere_else():
    wheel = key("As 2d 3h 4c 5s")
    assert hand_name(wheel) == "straight"
    assert wheel < key("2s 3d 4h 5c 6s")
    assert wheel > key("Ks Kd Kh 4c 2s")
    assert hand_name(key("Qs Kd Ah 2c 3s")) == "high card"  # no wrap-around
    assert hand_name(key("Js Qd Kh Ac 2s")) == "high card"
    assert key("Tc Jd Qh Kc As") > key("9c Td Jh Qc Ks")
    # On top the ace is high too: A-2-3 is ace high, above K-Q-J.
    assert key("As 2d 3h") > key("Ks Qd Jh")


def test_a_royal_flush_is_the_ace_high_straight_flush_and_named_apart():
    royal = key("Ts Js Qs Ks As")
    assert hand_name(royal) == "royal flush"
    assert category_of(royal) is Category.STRAIGHT_FLUSH
    assert hand_name(key("9s Ts Js Qs Ks")) == "straight flush"
    assert royal > key("9s Ts Js Qs Ks")
    assert hand_name(key("As 2s 3s 4s 5s")) == "straight flush"


def test_the_top_row_is_high_card_pair_or_trips_only():
    assert hand_name(key("Qs Ks As")) == "high card"  # three to a straight flush
    assert hand_name(key("9s 9h 2s")) == "pair"
    assert hand_name(key("9s 9h 9d")) == "trips"


def test_trips_on_top_rank_as_trips_not_as_a_full_house():
    trips = key("2s 2h 2d")
    assert trips < key("3s 4d 5h 6c 7s")  # any straight
    assert trips < key("Ts Td Th 4c 4s")  # a full house
    assert trips > key("As Ad Kc")
    assert trips < key("3s 3h 3d 4c 5s")


def test_top_against_middle_compares_kickers_and_a_shorter_top_is_weaker():
    # The three kicker rulings.
    assert key("Ks Kc Ah") > key("Kh Kd Qc Js 9s")
    assert key("Ks Kc 9h") <= key("Kh Kd Ac Qs Js")
    assert key("Ks Kc Qh") <= key("Kh Kd Qc Js 9s")
    assert key("Ks Kc Qh") < key("Kh Kd Qc Js 9s")
    # High card: the top runs out first, the middle is stronger.
    assert key("As Kd Qh") < key("Ah Kc Qd 3s 2s")


def test_descriptions_name_hands_in_words():
    assert describe(key("Kh Kd Ac")) == "pair of kings, ace kicker"
    assert describe(key("6s 6d 6c 2h 2s")) == "full house, sixes full of twos"
    assert describe(key("As 2d 3h 4c 5s")) == "five-high straight"
    assert describe(key("Ts Js Qs Ks As")) == "royal flush"
    assert describe(key("9s 9h 4d 4c Ah")) == "two pair, nines and fours, ace kicker"


@pytest.mark.parametrize(
    ("middle", "fault"),
    [
        ("7s 5h 4d 3c 2s", None),
        ("Ts 9h 8d 7c 5s", None),
        ("As 5h 4d 3c 2s", "it has an ace, and aces are high in 2-7"),
        ("As 8h 4d 3c 2s", "it has an ace, and aces are high in 2-7"),
        ("7s 7h 4d 3c 2s", "it has a pair"),
        ("6s 5h 4d 3c 2s", "it is a straight"),
        ("8s 5s 4s 3s 2s", "it is a flush"),
        ("Js 5h 4d 3c 2s", "it is jack-high, and a 2-7 middle must be 10-high or better"),
    ],
)
def test_2_7_lows(middle, fault):
    assert low_fault(key(middle)) == fault


def test_2_7_lows_are_named_by_their_highest_card_and_lower_is_better():
    assert low_name(key("7s 5h 4d 3c 2s")) == "7-high"
    assert low_name(key("Ts 5h 4d 3c 2s")) == "10-high"
    # The better low has the smaller key.
    assert key("7s 5h 4d 3c 2s") < key("7s 6h 4d 3c 2s") < key("8s 5h 4d 3c 2s")
