"""Display names: the name a person signs in with is the name the others see."""

import unicodedata
from collections.abc import Iterable
from functools import cache

from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

MAX_NAME_LENGTH = 30
# What a decoder puts for bytes that were not text.
REPLACEMENT = "\ufffd"


def clean_name(raw: str) -> str:
    """Trim and collapse spaces; raise ValueError with a plain message when unusable.

    >>> clean_name("  Anna   Maria ")
    'Anna Maria'
    """
    # NFKC: a full-width "Ａｎｎａ" is the "Anna" it looks like, so the name check sees it.
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not name:
        raise ValueError("Please enter a name.")
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"A name can have at most {MAX_NAME_LENGTH} characters.")
    # Letters of any script, with their accents (category M), and spaces.
    if not all(ch == " " or unicodedata.category(ch)[0] in "LM" for ch in name):
        raise ValueError("A name can only have letters and spaces.")
    return name


def suggest_alternative(name: str, taken: set[str]) -> str:
    """A free name like "Tom B" for a taken "Tom" (taken holds lower-cased names)."""
    for letter in "BCDEFGHJKLMNPRSTVW":
        candidate = f"{name[: MAX_NAME_LENGTH - 2]} {letter}"
        if candidate.lower() not in taken:
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
    """A group's name as stored: NFKC, spaces collapsed (may come back empty).

    >>> tidy_title("  Friday   ＯＦＣ ")
    'Friday OFC'
    """
    return " ".join(unicodedata.normalize("NFKC", raw).split())


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


def look_alike_key(name: str) -> str:
    """What ``name`` looks like: two names with the same key cannot be told apart at a
    glance (a Cyrillic "А" for a Latin "A", "Anna" and "ANNA").

    >>> look_alike_key("Anna") == look_alike_key("\u0410nna") == look_alike_key("ＡＮＮＡ")
    True
    >>> look_alike_key("Anna") == look_alike_key("Anne")
    False
    """
    classes = _look_alike_classes()
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(classes.get(ch, ch) for ch in "".join(folded.split()))


def taken_by(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` could be taken for: the same name in
    other capitals, or one that looks just like it (:func:`look_alike_key`); else None.

    >>> members = ["Anna", "Kees"]
    >>> taken_by("KEES", members), taken_by("K\u0435es", members), taken_by("Kees B", members)
    ('Kees', 'Kees', None)
    """
    key = look_alike_key(name)
    return next((other for other in others if look_alike_key(other) == key), None)
