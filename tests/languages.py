"""Reading a page's words, for the checks that no English is left in another language."""

import re
from html.parser import HTMLParser
from pathlib import Path

import polib
from babel.numbers import list_currencies
from django.conf import settings

# The players, and the rules page's example players A, B and C.
NAMES = {"Anna", "Bram", "Chris", "Dana", "Gus", "Friday", "OFC", "A", "B", "C"}
# What any language writes the same: the brand, card notation and file formats.
EVERYWHERE = {"OFC", "Board", "JK", "CSV", "JSON", "EUR", "English", "Nederlands", "Deutsch", "ah"}
# ISO 4217 codes ("JPY"), written beside each currency's name in the currency list.
EVERYWHERE |= set(list_currencies())
# The suit letters of the card notation, which the card page explains in every language.
EVERYWHERE |= set("hdcs")
# English words that Dutch tables say as they are (the game's own terms).
DUTCH_TOO = {
    "Fantasyland", "Fantasyland:", "Dealer", "Dealer:", "Royalties", "Pineapple",
    "Progressive", "Ultimate", "Joker", "Jokers", "Foul", "FL", "Hand", "In", "dealer", "pt",
    "Trips", "Flush", "Full", "house", "Straight", "flush", "Royal", "trips", "full",
    "straight", "royal", "Scoop", "scoop", "royalties", "quads", "Quads", "Euro", "Code",
}  # fmt: skip
# English words that German tables say as they are, and German words spelled like English.
GERMAN_TOO = {
    "Fantasyland", "Fantasyland:", "Dealer", "Dealer:", "Royalties", "Pineapple",
    "Progressive", "Ultimate", "Joker", "Foul", "FL", "Hand", "In", "Flush", "Full", "House",
    "Straight", "Royal", "Scoop", "Board", "Boards", "System", "OK", "Kicker", "Button",
    "Euro", "Standard", "Code",
}  # fmt: skip
READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "data-confirm", "alt"}
# A card ("Qh", "10h"), or ranks on their own ("QQ", "K", "A-J-8" in pieces).
CARD = re.compile(r"^(10|[2-9TJQKA])+[shdc]?$")
# A join or sign-in code as shown ("K7QM-3XPD"): the same in every language.
CODE = re.compile(r"^[0-9A-Z]{4}-[0-9A-Z]{4}$")


class Texts(HTMLParser):
    """The text nodes of a page and the attributes people read, stripped, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in {"script", "style"}:
            self._skip += 1
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value and value.strip():
                self.texts.append(value.strip())

    def handle_endtag(self, tag):
        if tag in {"script", "style"}:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.texts.append(" ".join(data.split()))


def texts_of(body: str) -> list[str]:
    parser = Texts()
    parser.feed(body)
    return parser.texts


def leftover(text: str, allowed: set[str]) -> list[str]:
    """The words of ``text`` with Latin letters that are neither cards nor ``allowed``."""
    if CODE.match(text):
        return []
    words = re.findall(r"[A-Za-z0-9'’]+", text)
    return [
        word
        for word in words
        if re.search("[A-Za-z]", word) and word not in allowed and not CARD.match(word)
    ]


def english_only_words() -> set[str]:
    """The words of the app's English messages that no translation uses: seeing one
    on a Dutch or Chinese page means a sentence was left in English."""
    english, translated = set(), set()
    for path in (Path(settings.BASE_DIR) / "locale").glob("*/LC_MESSAGES/*.po"):
        for entry in polib.pofile(str(path)):
            english.update(words_of(entry.msgid + " " + entry.msgid_plural))
            translated.update(words_of(" ".join([entry.msgstr, *entry.msgstr_plural.values()])))
    return {word for word in english - translated if len(word) > 2}


def words_of(text: str) -> list[str]:
    text = re.sub(r"%\(\w+\)[sd]|\{\w+\}|<[^>]+>", " ", text)
    return re.findall(r"[A-Za-z][A-Za-z'’]*[A-Za-z]|[A-Za-z]", text)
