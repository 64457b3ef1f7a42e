"""The engine's words at the app's boundary: the same facts as the engine says them,
and each language saying every word of the game and the app one way.

`scorekeeper.terms` names hands and fouls again, from the keys the engine scored, so
that gettext can say them in Dutch and Chinese; in English it must say exactly what
the engine says. Each language's glossary (`locale/<language>/GLOSSARY.md`) gives its
term for the game's words (rows, foul, royalties, scoop, Fantasyland, dealer button,
hand names) and the app's (round, a round that went through, hand, night, settle, pay,
stake, guest, group, joining, account, tapping, invitation link, total, points, save,
fix); every message of its catalogue must use them. Its "Never" column gives the words
rejected for a term (a round that went through is not *doorgegaan* nor *gezählt*, a
night not 局): no message whose English uses the term may say one of them.
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
    # Someone sitting down at the night's table, not joining the group.
    ("join", "%(name)s joined the table"),
    # The CSV's column names, written as the file has them.
    ("stake", "Columns: date, name"),
}


@dataclass(frozen=True)
class Term:
    english: tuple[str, ...]  # whole words of the English message
    said: tuple[str, ...]  # how the language says it (found inside longer words too)
    never: tuple[str, ...] = ()  # words the language must not use for it

    @property
    def pattern(self) -> re.Pattern:
        forms = sorted(self.english, key=len, reverse=True)
        return re.compile(r"\b(?:" + "|".join(map(re.escape, forms)) + r")\b", re.IGNORECASE)


RUNS_ON = "…"
CJK = re.compile(r"[\u3000-\u9fff\uf900-\ufaff\uff00-\uffef]")


def never_pattern(form: str) -> re.Pattern:
    """A rejected word as the glossaries write it: in Chinese found anywhere (the
    language writes no spaces between words); otherwise a whole word, or whole words in
    that order, unless it begins or ends with "…", where the word may go on."""
    word = re.escape(form.strip(RUNS_ON)).replace(r"\ ", r"\s+")
    if CJK.search(form):
        return re.compile(word)
    start = "" if form.startswith(RUNS_ON) else r"(?<!\w)"
    end = "" if form.endswith(RUNS_ON) else r"(?!\w)"
    return re.compile(start + word + end, re.IGNORECASE)


def forms(cell: str) -> tuple[str, ...]:
    return tuple(form.strip() for form in cell.split(",") if form.strip())


def parse_glossary(text: str) -> list[Term]:
    """The table of a GLOSSARY.md: English forms, the language's forms, and the forms
    of a column headed "Never" if there is one; longest English terms first (so that
    "straight flush" is read before "straight")."""
    header, _ruler, *rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in text.splitlines()
        if line.startswith("|")
    ]
    names = [name.lower() for name in header]
    never = names.index("never") if "never" in names else None
    terms = [
        Term(forms(row[0]), forms(row[1]), forms(row[never]) if never is not None else ())
        for row in rows
    ]
    return sorted(terms, key=lambda term: max(map(len, term.english)), reverse=True)


def glossary(language: str) -> list[Term]:
    """The table of ``locale/<language>/GLOSSARY.md``."""
    path = LOCALE / to_locale(language) / "GLOSSARY.md"
    return parse_glossary(path.read_text(encoding="utf-8"))


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


def messages(language: str):
    """Each message of the catalogue: the English, its terms (but those the English
    there uses in another sense) and the translations (one per plural form)."""
    terms = glossary(language)
    catalogue = polib.pofile(str(LOCALE / to_locale(language) / "LC_MESSAGES" / "django.po"))
    for entry in catalogue:
        if entry.obsolete:
            continue
        english = entry.msgid + " " + entry.msgid_plural
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        used = [
            term
            for term in terms_used(english, terms)
            if not any(
                term.english[0] == key and entry.msgid.startswith(start)
                for key, start in NOT_THE_TERM
            )
        ]
        yield entry.msgid, used, texts


def misused(language: str) -> list[tuple[str, str, str]]:
    wrong = []
    for msgid, used, texts in messages(language):
        for term in used:
            for text in texts:
                said = PLACEHOLDER.sub(" ", text).lower()
                if not any(form.lower() in said for form in term.said):
                    wrong.append((term.english[0], msgid, text))
    return wrong


def never_said(text: str, term: Term, others: list[Term]) -> list[str]:
    """The rejected words of ``term`` in a translation; a rejected word inside a word
    the glossary gives to another term of the message (平局, a tie, is not 局) is not
    one."""
    found = []
    for form in term.never:
        said = PLACEHOLDER.sub(" ", text)
        bare = form.strip(RUNS_ON).lower()
        for other in others:
            for word in sorted(other.said, key=len, reverse=True):
                if bare in word.lower():
                    said = re.sub(re.escape(word), " ", said, flags=re.IGNORECASE)
        if never_pattern(form).search(said):
            found.append(form)
    return found


def rejected(language: str) -> list[tuple[str, str, str, str]]:
    wrong = []
    for msgid, used, texts in messages(language):
        for term in used:
            others = [other for other in used if other is not term]
            for text in texts:
                for form in never_said(text, term, others):
                    wrong.append((form, term.english[0], msgid, text))
    return wrong


def test_every_language_has_a_glossary_of_the_words_that_matter():
    for language in TRANSLATED:
        english = {word for term in glossary(language) for word in term.english}
        assert {"top", "foul", "scoop", "night", "round", "settle", "save", "fix"} <= english
        assert {"went through", "join", "stake", "account", "tap"} <= english
        assert any(term.never for term in glossary(language))


def test_the_glossaries_reject_the_words_a_home_table_would_not_say():
    def never(language: str, english: str) -> tuple[str, ...]:
        return next(term.never for term in glossary(language) if english in term.english)

    assert "avonden heen" in never("nl", "across nights")  # now "voor meerdere avonden"
    assert {"binnenha…", "ingelezen"} <= set(never("nl", "import"))
    assert "übernommen" in never("de", "import")
    assert "代码" in never("zh-hans", "code")  # program code; the app's codes are 码
    # A currency's code keeps its own word, as a longer term hides "code".
    found = terms_used("“%(text)s” is not a currency code such as EUR.", glossary("zh-hans"))
    assert [term.english[0] for term in found] == ["currency code"]


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


def test_a_glossary_table_is_read_with_its_never_column():
    text = """# A glossary

Some words first | not a row.

| English | Nederlands | Never | Notes |
|---|---|---|---|
| save, saved | opslaan, opgeslagen | bewaar…, bewaren | a note, with a comma |
| tap | tik | | |
| straight flush | straight flush | straat | |
"""
    assert parse_glossary(text) == [
        Term(("straight flush",), ("straight flush",), ("straat",)),
        Term(("save", "saved"), ("opslaan", "opgeslagen"), ("bewaar…", "bewaren")),
        Term(("tap",), ("tik",), ()),
    ]
    without = "| English | 简体中文 | Notes |\n|---|---|---|\n| night | 场 | never 局 |\n"
    assert parse_glossary(without) == [Term(("night",), ("场",), ())]


def test_a_never_word_is_a_whole_word_unless_it_runs_on_and_anywhere_in_chinese():
    assert never_pattern("is rond").search("Ronde 3 IS  rond.")
    assert not never_pattern("is rond").search("dit is ronde 3")
    assert not never_pattern("tik een").search("Tik op een rij")
    assert never_pattern("bewaar…").search("Je invoer is bewaard")
    assert not never_pattern("bewaar…").search("onbewaarde invoer")
    assert never_pattern("…anzeige").search("Link zur Großanzeige")
    assert not never_pattern("hält").search("Die Datei enthält Zeilen")
    assert never_pattern("局").search("以前的牌局")
    night = Term(("night",), ("场",), ("局",))
    tie = Term(("tie",), ("平局", "平"), ())
    assert never_said("赢的场次（平局各算一次）", night, [tie]) == []
    assert never_said("两局以前的平局", night, [tie]) == ["局"]
    assert never_said("以前的牌局", night, []) == ["局"]


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_message_says_a_word_the_glossary_rejects_for_its_term(language):
    wrong = rejected(language)
    assert wrong == [], "\n".join(
        f"{form} ({term}): {msgid!r} → {text!r}" for form, term, msgid, text in wrong
    )
