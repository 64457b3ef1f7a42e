import pytest

from scorekeeper.ofc import DECK, JOKER, Card, OFCError, format_cards, parse_card, parse_cards


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("As", "As"),
        ("ah", "Ah"),
        ("AH", "Ah"),
        ("10h", "Th"),
        ("10H", "Th"),
        ("td", "Td"),
        ("7c", "7c"),
        ("JK", "JK"),
        ("jk", "JK"),
        (" Qs ", "Qs"),
    ],
)
def test_cards_are_read_in_any_accepted_notation_and_printed_canonically(text, canonical):
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize("text", ["Zh", "1h", "11s", "A", "Asx", "", "JKs", "Ax"])
def test_a_bad_card_says_it_is_not_a_card(text):
    with pytest.raises(OFCError, match=r'^".*" is not a card$'):
        parse_card(text)


def test_rows_can_be_a_string_or_a_list():
    assert parse_cards("Qh qc 10d") == parse_cards(["QH", "Qc", "Td"])
    assert format_cards(parse_cards("10h jk as")) == "Th JK As"


def test_the_deck_has_52_distinct_cards_and_a_joker_apart():
    assert len(set(DECK)) == 52
    assert JOKER not in DECK
    assert JOKER.is_joker and not Card(14, "s").is_joker
    assert len({card.code for card in DECK}) == 52


def test_a_card_cannot_be_built_with_a_bad_rank_or_suit():
    with pytest.raises(OFCError):
        Card(15, "s")
    with pytest.raises(OFCError):
        Card(10, "x")
