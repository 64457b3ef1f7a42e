"""Display names: letters of any script, and a free name to suggest when one is taken."""

import string
import unicodedata

import pytest
from confusable_homoglyphs.confusables import confusables_data

from scorekeeper.table.names import (
    clean_name,
    has_hidden_characters,
    look_alike_key,
    name_key,
    suggest_alternative,
    tidy_title,
)
from scorekeeper.table.spreadsheet.people import match_people


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("  Anna  ", "Anna"),
        ("Tom   B", "Tom B"),
        ("Zoë", "Zoë"),
        ("Łukasz", "Łukasz"),
        ("李小龍", "李小龍"),
        ("x" * 30, "x" * 30),
    ],
)
def test_names_accept_letters_of_any_script_and_spaces(raw, expected):
    assert clean_name(raw) == expected


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "Please enter a name."),
        ("   ", "Please enter a name."),
        ("x" * 31, "at most 30 characters"),
        ("Anna2", "only have letters and spaces"),
        ("<script>", "only have letters and spaces"),
    ],
)
def test_names_refuse_empty_overlong_and_symbols(raw, message):
    with pytest.raises(ValueError, match=message):
        clean_name(raw)


def test_a_taken_name_suggests_a_free_one():
    assert suggest_alternative("Tom", {"tom", "tom b"}) == "Tom C"


def test_a_full_width_name_is_the_name_it_reads_as():
    assert clean_name("Ａｎｎａ") == "Anna"


@pytest.mark.parametrize(
    "raw", ["\u200b", "Ann\u200ba", "Ann\u202ea", "\x1b[31mAnna", "An\u0000na", "Ann\ue000a"]
)
def test_names_with_invisible_or_control_characters_are_refused(raw):
    with pytest.raises(ValueError):
        clean_name(raw)


@pytest.mark.parametrize(
    ("text", "hidden"),
    [
        ("Friday OFC 🃏", False),
        ("Friday\tOFC\n", False),  # ordinary spaces, collapsed later
        ("\u200b", True),  # zero-width space
        ("Friday\u202eCFO", True),  # right-to-left override
        ("\x1b[2J", True),  # a terminal escape
        ("Fri\u2066day", True),  # a bidi isolate
    ],
)
def test_hidden_characters(text, hidden):
    assert has_hidden_characters(text) is hidden


def test_look_alike_names_share_a_key_and_different_names_do_not():
    assert look_alike_key("Anna") == look_alike_key("\u0410nna") == look_alike_key("ANNA")
    assert look_alike_key("Gus") == look_alike_key("Gu\u0455")
    assert look_alike_key("Anna Maria") == look_alike_key("Anna  Maria")
    names = ["Anna", "Anne", "Bram", "Chris", "Zoë", "Zoe", "Łukasz", "李小龍", "Tom", "Tim"]
    assert len({look_alike_key(name) for name in names}) == len(names)


def test_a_group_name_is_tidied():
    assert tidy_title("  Friday   ＯＦＣ ") == "Friday OFC"


def capital_look_alikes() -> list[tuple[str, str]]:
    """(A-Z, a character Unicode lists as looking like it), leaving out lowercase
    letters: an "l" for an "I" stays apart, as "I" is the capital of "i"."""
    return [
        (letter, ch)
        for letter in string.ascii_uppercase
        for homoglyph in confusables_data.get(letter, [])
        if len(ch := homoglyph["c"]) == 1 and unicodedata.category(ch) != "Ll"
    ]


def test_a_capital_that_looks_like_a_latin_capital_is_taken_for_it():
    assert look_alike_key("\u0412ram") == look_alike_key("Bram")  # a Cyrillic capital В
    assert look_alike_key("\u0397ANS") == look_alike_key("Hans")  # a Greek capital Η
    pairs = capital_look_alikes()
    assert len(pairs) > 500
    missed = [(letter, ch) for letter, ch in pairs if look_alike_key(ch) != look_alike_key(letter)]
    assert len(missed) == 0, missed


def test_the_same_name_in_other_capitals_is_still_one_name():
    for upper, lower in [("IVO", "ivo"), ("ВЕРА", "вера"), ("ÅSA", "åsa"), ("ΘΕΟΔΩΡΑ", "θεοδωρα")]:
        assert look_alike_key(upper) == look_alike_key(lower), upper


def test_names_that_differ_by_one_letter_stay_apart():
    for one, other in [("Anna", "Anne"), ("Bram", "Brad"), ("Ivo", "Ava"), ("Tom", "Rom")]:
        assert look_alike_key(one) != look_alike_key(other), (one, other)
    letters = string.ascii_lowercase
    assert len({look_alike_key(letter) for letter in letters}) == len(letters)


@pytest.mark.parametrize("invisible", ["\u200b", "\u200d", "\u2060", "\ufeff", "\u034f", "\u3164"])
def test_characters_that_show_nothing_are_left_out_of_the_key(invisible):
    assert look_alike_key(f"Br{invisible}am") == look_alike_key("Bram")


@pytest.mark.parametrize(
    ("one", "other"),
    [("Ａｎｎａ", "Anna"), ("ANNA", " anna "), ("Straße", "STRASSE"), ("Émile", "émile")],
)
def test_one_key_says_two_names_are_the_same_name(one, other):
    assert name_key(one) == name_key(other)
    assert name_key(one) != name_key(other + "b")


def test_an_imported_name_is_the_member_of_that_very_name_before_a_look_alike():
    # Two members whose names look alike (one with a Cyrillic "А", kept from before
    # look-alikes were refused): a full-width "ＡＮＮＡ" in a file is the Latin Anna.
    members = {1: "Anna", 2: "\u0410nna"}
    assert match_people(["ＡＮＮＡ", "\u0430nna"], members) == {"ＡＮＮＡ": 1, "\u0430nna": 2}
