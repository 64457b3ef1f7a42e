"""The engine's words at the app's boundary: the same facts as the engine says them,
and each language saying every word of the game and the app one way.

`scorekeeper.terms` names hands and fouls again, from the keys the engine scored, so
that gettext can say them in Dutch and Chinese; in English it must say exactly what
the engine says. Each language's glossary (`locale/<language>/GLOSSARY.md`) gives its
term for the game's words (rows, foul, royalties, scoop, Fantasyland, dealer button,
hand names) and the app's (round, hand, night, settle, pay, guest, group, invitation
link, total, points, save, fix); every message of its catalogue must use them.
"""

import random
import re
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import to_locale

from scorekeeper import terms
from scorekeeper.ofc import DECK, PRESETS, PlayerBoard, score_board
from scorekeeper.ofc.evaluate import describe, five_key, top_key

GAMES = ["standard", "pineapple", "deuce", "jokers"]


def random_boards(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        cards = rng.sample(DECK, 13)
        yield PlayerBoard("Anna", tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))


@pytest.fixture
def english():
    with translation.override("en"):
        yield


def test_every_five_and_three_card_hand_is_described_as_the_engine_does(english):
    rng = random.Random(7)
    for _ in range(1500):
        five = [card.code for card in rng.sample(DECK, 5)]
        assert terms.describe(five_key(five)) == describe(five_key(five))
    for three in combinations(DECK[::3], 3):
        codes = [card.code for card in three]
        assert terms.describe(top_key(codes)) == describe(top_key(codes))


@pytest.mark.parametrize("game", GAMES)
def test_a_boards_rows_and_foul_are_said_as_the_engine_says_them(english, game):
    fouled = 0
    for board in random_boards(250, seed=len(game)):
        result = score_board(PRESETS[game], board)
        assert [terms.row_description(row) for row in result.rows] == [
            row.description for row in result.rows
        ]
        assert terms.foul_reason(result) == (result.foul_reason or "")
        fouled += result.fouled
    assert fouled > 30  # random boards foul often: the foul sentences were compared


def test_every_game_option_and_row_has_its_translatable_name(english):
    for game in PRESETS.values():
        assert game.id in terms.GAME_NAMES
        assert terms.game_name(game) == game.name
        for option in game.entry:
            assert option.label in terms.ENTRY_LABELS
    assert [terms.row_name(row) for row in ("top", "middle", "bottom")] == [
        "top",
        "middle",
        "bottom",
    ]


@pytest.mark.parametrize(
    ("language", "pair", "foul"),
    [
        ("nl", "paar heren, aas als kicker", "de middenrij (paar heren, vrouw-boer-negen"),
        ("zh-hans", "一对 K，踢脚 A", "中道（一对 K，踢脚 Q-J-9）比头道（一对 K，踢脚 A）小"),
    ],
)
def test_hands_and_fouls_in_dutch_and_chinese(language, pair, foul):
    board = PlayerBoard.parse("Anna", "Kh Kd Ac", "Ks Kc Qd Jh 9s", "2c 3c 4c 5c 6c")
    result = score_board(PRESETS["standard"], board)
    with translation.override(language):
        assert terms.row_description(result.top) == pair
        assert terms.foul_reason(result).startswith(foul)
        assert (
            terms.game_name(PRESETS["pineapple"])
            == {"nl": "Pineapple", "zh-hans": "大菠萝"}[language]
        )


# --- The glossaries: each language says each word of the game and the app one way ---

LOCALE = Path(settings.BASE_DIR) / "locale"
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}|<[^>]+>")
# Messages in which a glossary word of the English means something else; the term's
# first English form and how the message begins.
NOT_THE_TERM = {
    # "straights do not wrap round": go around, not a round of play.
    ("round", "Five-card rows rank as in poker"),
    # "nothing changes hands": no money moves, not a hand of cards.
    ("hand", "If one of you fouled"),
    # Rules that are fixed are settled for the night, not corrected.
    ("fix", "These rules are fixed"),
    ("fix", "This night's rules are fixed"),
    ("fix", "For this night only"),
}


@dataclass(frozen=True)
class Term:
    english: tuple[str, ...]  # whole words of the English message
    said: tuple[str, ...]  # how the language says it (found inside longer words too)

    @property
    def pattern(self) -> re.Pattern:
        forms = sorted(self.english, key=len, reverse=True)
        return re.compile(r"\b(?:" + "|".join(map(re.escape, forms)) + r")\b", re.IGNORECASE)


def forms(cell: str) -> tuple[str, ...]:
    return tuple(form.strip() for form in cell.split(","))


def glossary(language: str) -> list[Term]:
    """The table of ``locale/<language>/GLOSSARY.md``, longest English terms first
    (so that "straight flush" is read before "straight")."""
    path = LOCALE / to_locale(language) / "GLOSSARY.md"
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("|")
    ]
    terms = [
        Term(forms(english), forms(said))
        for english, said, *_notes in rows[2:]  # below the header and its ruler
    ]
    return sorted(terms, key=lambda term: max(map(len, term.english)), reverse=True)


def terms_used(msgid: str, terms: list[Term]) -> list[Term]:
    """The glossary terms of an English message; a longer term hides the shorter ones
    inside it ("dealer button" is not also "button")."""
    text = PLACEHOLDER.sub(" ", msgid)
    used = []
    for term in terms:
        if term.pattern.search(text):
            used.append(term)
            text = term.pattern.sub(" ", text)
    return used


def misused(language: str) -> list[tuple[str, str, str]]:
    terms = glossary(language)
    catalogue = polib.pofile(str(LOCALE / to_locale(language) / "LC_MESSAGES" / "django.po"))
    wrong = []
    for entry in catalogue:
        if entry.obsolete:
            continue
        english = entry.msgid + " " + entry.msgid_plural
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for term in terms_used(english, terms):
            if any(
                term.english[0] == key and entry.msgid.startswith(start)
                for key, start in NOT_THE_TERM
            ):
                continue
            for text in texts:
                said = PLACEHOLDER.sub(" ", text).lower()
                if not any(form.lower() in said for form in term.said):
                    wrong.append((term.english[0], entry.msgid, text))
    return wrong


def test_every_language_has_a_glossary_of_the_words_that_matter():
    for language in TRANSLATED:
        english = {word for term in glossary(language) for word in term.english}
        assert {"top", "foul", "scoop", "night", "round", "settle", "save", "fix"} <= english


def test_longer_terms_hide_the_shorter_ones_inside_them():
    terms = glossary("nl")
    found = terms_used("A straight flush, the dealer button and a straight", terms)
    assert [term.english[0] for term in found] == ["straight flush", "dealer button", "straight"]
    assert terms_used("Stays in a row", terms)[0].said == ("op rij",)
    assert terms_used("%(points)s, {round}", terms) == []  # placeholders are not words


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_says_the_glossarys_term_where_the_english_uses_it(language):
    wrong = misused(language)
    assert wrong == [], "\n".join(f"{term}: {msgid!r} → {text!r}" for term, msgid, text in wrong)
