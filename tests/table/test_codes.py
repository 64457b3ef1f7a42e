"""The short codes people read off one phone and type into another: typed the way
people type them (small letters, an O for a 0, an I or L for a 1, dashes and spaces),
refused when they cannot be a code, and shown in two groups of four."""

import pytest

from scorekeeper.table.codes import ALPHABET, CODE_LENGTH, grouped, new_code, read_code


def test_the_alphabet_is_crockfords_without_the_letters_that_look_like_others():
    assert len(ALPHABET) == 32 == len(set(ALPHABET))
    assert not set("ILOU") & set(ALPHABET)
    assert set("0123456789") <= set(ALPHABET)


@pytest.mark.parametrize(
    "typed",
    ["K7QM3XPD", "k7qm3xpd", "K7QM-3XPD", "k7qm-3xpd", " K7QM 3XPD ", "K7-QM-3X-PD", "K7QM\t3XPD"],
)
def test_small_letters_dashes_and_spaces_are_read_as_the_code(typed):
    assert read_code(typed) == "K7QM3XPD"


@pytest.mark.parametrize("dash", ["\u2010", "\u2011", "\u2013", "\u2014", "\u2212"])
def test_the_dashes_a_phone_keyboard_puts_in_are_ignored_too(dash):
    assert read_code(f"K7QM{dash}3XPD") == "K7QM3XPD"


@pytest.mark.parametrize(
    "typed, meant",
    [
        ("O0O0O0O0", "00000000"),
        ("o0o0o0o0", "00000000"),
        ("IiLl1111", "11111111"),
        ("1OLI-0000", "10110000"),
        ("K7QM-3XPO", "K7QM3XP0"),
    ],
)
def test_an_o_is_a_zero_and_an_i_or_an_l_is_a_one(typed, meant):
    assert read_code(typed) == meant


@pytest.mark.parametrize(
    "typed",
    [
        "",
        "K7QM-3XP",  # seven characters
        "K7QM-3XPDA",  # nine
        "K7QM-3XPU",  # U is not in the alphabet, and stands for nothing
        "u7qm3xpd",
        "K7QM-3XP!",
        "K7QM_3XPD",
        "K7QM.3XPD",
        "K7QM3XP\x00",
        "K7QM3XPÉ",
        "----------",
    ],
)
def test_what_cannot_be_a_code_is_refused(typed):
    assert read_code(typed) is None


def test_a_huge_input_is_refused_before_it_is_read():
    assert read_code("x" * 5000) is None
    # Even one that would shrink to eight characters once its spaces were dropped.
    assert read_code("K7QM3XPD" + " " * 5000) is None
    assert read_code("-" * 4992 + "K7QM3XPD") is None


def test_a_code_padded_with_a_few_spaces_is_still_read():
    assert read_code("  K7QM - 3XPD  ") == "K7QM3XPD"


def test_grouped_shows_two_groups_of_four_that_read_back_to_the_code():
    assert grouped("K7QM3XPD") == "K7QM-3XPD"
    assert read_code(grouped("K7QM3XPD")) == "K7QM3XPD"


def test_new_codes_are_eight_characters_of_the_alphabet_and_read_back_as_themselves():
    codes = [new_code() for _ in range(300)]
    for code in codes:
        assert len(code) == CODE_LENGTH == 8
        assert set(code) <= set(ALPHABET)
        assert read_code(code) == code
        assert read_code(grouped(code).lower()) == code
    assert len(set(codes)) == len(codes)  # 40 bits: 300 codes never meet
    # Drawn from the whole alphabet, not a part of it (300 x 8 characters miss none of
    # 32 but with a chance far below one in a billion).
    assert set("".join(codes)) == set(ALPHABET)
