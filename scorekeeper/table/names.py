"""Display names: the name a person signs in with is the name the others see."""

import string
import unicodedata
from collections.abc import Iterable
from functools import cache

from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

MAX_NAME_LENGTH = 30
# What a decoder puts for bytes that were not text.
REPLACEMENT = "\ufffd"


def tidy_name(raw: str) -> str:
    """A person's name as every door compares and keeps it: NFKC, so a full-width
    "Ａｎｎａ" is the "Anna" it looks like, with its spaces trimmed and collapsed (may
    come back empty).

    >>> tidy_name("  Ａｎｎａ   Maria ")
    'Anna Maria'
    """
    return " ".join(unicodedata.normalize("NFKC", raw).split())


def name_key(name: str) -> str:
    """What two names must share to be the same name: :func:`tidy_name`, case folded.
    Every comparison of names goes through it: in Python, and in the database through
    the key each account, seat and season keeps (scorekeeper/models/name_keys.py).

    >>> name_key("Ａｎｎａ") == name_key("ANNA") == name_key(" anna ")
    True
    >>> name_key("Straße") == name_key("STRASSE"), name_key("Anna") == name_key("Anne")
    (True, False)
    """
    return tidy_name(name).casefold()


def clean_name(raw: str) -> str:
    """:func:`tidy_name`, or ValueError with a plain message when unusable.

    >>> clean_name("  Anna   Maria ")
    'Anna Maria'
    """
    name = tidy_name(raw)
    if not name:
        raise ValueError("Please enter a name.")
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"A name can have at most {MAX_NAME_LENGTH} characters.")
    # Letters of any script, with their accents (category M), and spaces.
    if not all(ch == " " or unicodedata.category(ch)[0] in "LM" for ch in name):
        raise ValueError("A name can only have letters and spaces.")
    return name


def suggest_alternative(name: str, taken: set[str]) -> str:
    """A free name like "Tom B" for a taken "Tom" (``taken`` holds the
    :func:`name_key` of each name in use).

    >>> suggest_alternative("Tom", {"tom", "tom b"})
    'Tom C'
    """
    for letter in "BCDEFGHJKLMNPRSTVW":
        candidate = f"{name[: MAX_NAME_LENGTH - 2]} {letter}"
        if name_key(candidate) not in taken:
            return candidate
    return f"{name[: MAX_NAME_LENGTH - 3]} ZZ"


def has_hidden_characters(text: str) -> bool:
    """Whether ``text`` holds characters a reader cannot see or that change what the
    rest looks like: control codes (an ANSI escape), format characters (a zero-width
    space, a right-to-left override), private-use or unassigned code points, and the
    replacement character U+FFFD: what Django makes of bytes that are not UTF-8 (a form
    posting ``%FF%FE``), so nothing a person typed. Ordinary spaces, tabs and line
    breaks are not hidden: they are collapsed to one space.

    >>> has_hidden_characters("Friday OFC"), has_hidden_characters("Fri\u202eday")
    (False, True)
    >>> has_hidden_characters("Friday \ufffd")
    True
    """
    return any(
        (unicodedata.category(ch)[0] == "C" and not ch.isspace()) or ch == REPLACEMENT
        for ch in text
    )


def tidy_title(raw: str) -> str:
    """A group's or a season's name as stored, tidied as a person's name is
    (:func:`tidy_name`); which characters it may have is its rule's (models/titles.py).

    >>> tidy_title("  Friday   ＯＦＣ ")
    'Friday OFC'
    """
    return tidy_name(raw)


@cache
def _look_alike_classes() -> dict[str, str]:
    """Every single character that Unicode lists as confusable, mapped to one
    representative of all the characters it can be taken for (the lowest code point
    of its class, joined transitively: "l", "1", "I" and "|" end up together)."""
    parent: dict[str, str] = {}

    def find(ch: str) -> str:
        while parent.get(ch, ch) != ch:
            ch = parent[ch]
        return ch

    for ch, homoglyphs in confusables_data.items():
        for homoglyph in homoglyphs:
            other = homoglyph["c"]
            if len(ch) == 1 and len(other) == 1:
                a, b = find(ch), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {ch: find(ch) for ch in parent}


@cache
def _latin_capital_look_alikes() -> dict[str, str]:
    """Every character Unicode lists as looking like a capital A-Z, mapped to that
    capital: a Cyrillic "\u0412" to "B", a Greek "\u0397" to "H".

    Case folding first would lose them: a Cyrillic "\u0412" folds to "\u0432", which
    looks like no Latin letter, so "\u0412ram" would pass beside "Bram". Their small
    forms come along ("\u0432" with "B") so that a name in other capitals stays the same
    name, except where the small form looks like another Latin letter of its own (a
    Greek "\u03bd" stays with "v", not with "n"). A lowercase letter that looks like a
    capital (an "l" like "I") is left: "I" must stay the capital of "i".
    """
    classes = _look_alike_classes()
    latin = {classes.get(ch, ch) for ch in string.ascii_letters}
    capitals: dict[str, str] = {}
    for letter in string.ascii_uppercase:
        for homoglyph in confusables_data.get(letter, []):
            ch = unicodedata.normalize("NFKC", homoglyph["c"])
            if len(ch) == 1 and ch != letter and unicodedata.category(ch) != "Ll":
                capitals[ch] = letter
    for ch, letter in list(capitals.items()):
        small = ch.casefold()
        if len(small) == 1 and small not in capitals and classes.get(small, small) not in latin:
            capitals[small] = letter
    return capitals


# Characters that show nothing though they are not format characters (category Cf):
# the combining grapheme joiner, Mongolian variation selectors, Hangul fillers,
# variation selectors (Unicode's Default_Ignorable_Code_Point outside Cf).
_INVISIBLE_RANGES = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xE0100, 0xE01EF),
)


def _is_invisible(ch: str) -> bool:
    if unicodedata.category(ch)[0] == "C":
        return True
    point = ord(ch)
    return any(low <= point <= high for low, high in _INVISIBLE_RANGES)


def look_alike_key(name: str) -> str:
    """What ``name`` looks like: two names with the same key cannot be told apart at a
    glance (a Cyrillic "А" for a Latin "A", "Anna" and "ANNA"). Characters that show
    nothing (a zero-width space) are left out.

    >>> look_alike_key("Anna") == look_alike_key("\u0410nna") == look_alike_key("ＡＮＮＡ")
    True
    >>> look_alike_key("Bram") == look_alike_key("\u0412ram") == look_alike_key("B\u200bram")
    True
    >>> look_alike_key("Anna") == look_alike_key("Anne")
    False
    """
    classes = _look_alike_classes()
    capitals = _latin_capital_look_alikes()
    shown = (ch for ch in unicodedata.normalize("NFKC", name) if not _is_invisible(ch))
    # Capitals are mapped before folding and again after (where folding gives a
    # capital, as for Cherokee), then the folded letter to its class.
    once = "".join(capitals.get(ch, ch) for ch in shown).casefold()
    twice = "".join(capitals.get(ch, ch) for ch in once).casefold()
    return "".join(classes.get(ch, ch) for ch in "".join(twice.split()))


def taken_by(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` could be taken for: the same name in
    other capitals, or one that looks just like it (:func:`look_alike_key`); else None.

    >>> members = ["Anna", "Kees"]
    >>> taken_by("KEES", members), taken_by("K\u0435es", members), taken_by("Kees B", members)
    ('Kees', 'Kees', None)
    """
    key = look_alike_key(name)
    return next((other for other in others if look_alike_key(other) == key), None)
