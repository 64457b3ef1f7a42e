"""Display names: letters of any script, and a free name to suggest when one is taken."""

import pytest

from scorekeeper.names import clean_name, suggest_alternative


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
