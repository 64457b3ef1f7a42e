"""The engine's words (and the other pure modules') in the reader's language.

The engine (``scorekeeper/ofc``) is pure Python and speaks English, which the
score command and the exports keep. The pages name games, ways into
Fantasyland, rows, hands and fouls through here: the same facts (keys, ids,
rows) read from the engine's results, said with Django's gettext.
"""

from django.utils.translation import gettext, ngettext, ngettext_lazy, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper.i18n import clauses
from scorekeeper.ofc import PRESETS, EntryOption, Game, PlayerResult, RowResult
from scorekeeper.ofc.evaluate import Category, category_of, hand_name, low_key, ranks_of
from scorekeeper.table.names import MAX_NAME_LENGTH

GAME_NAMES = {
    "standard": _("OFC Standard"),
    "standard-nofl": _("OFC Standard without Fantasyland"),
    "pineapple": _("Pineapple"),
    "progressive": _("Progressive Pineapple"),
    "ultimate": _("Progressive Ultimate"),
    "jokers": _("Joker OFC"),
    "deuce": _("2-7 Pineapple"),
}

# By the engine's English label: the same way in has the same label in every game.
ENTRY_LABELS = {
    "QQ or better on top": _("QQ or better on top"),
    "QQ on top": _("QQ on top"),
    "KK on top": _("KK on top"),
    "AA on top": _("AA on top"),
    "Trips on top": _("Trips on top"),
    "KK or better on top": _("KK or better on top"),
    "7-5-4-3-2 middle": _("7-5-4-3-2 middle"),
    "KK or better on top and 7-5-4-3-2 middle": _("KK or better on top and 7-5-4-3-2 middle"),
}

ROW_NAMES = {
    "top": pgettext_lazy("row", "top"),
    "middle": pgettext_lazy("row", "middle"),
    "bottom": pgettext_lazy("row", "bottom"),
}

# A row as the label beside its cards: short, so it fits beside them on a phone.
ROW_LABELS = {
    "top": pgettext_lazy("row label", "Top"),
    "middle": pgettext_lazy("row label", "Middle"),
    "bottom": pgettext_lazy("row label", "Bottom"),
}

HAND_NAMES = {
    "high card": _("high card"),
    "pair": _("pair"),
    "two pair": _("two pair"),
    "trips": _("trips"),
    "straight": _("straight"),
    "flush": _("flush"),
    "full house": _("full house"),
    "quads": _("quads"),
    "straight flush": _("straight flush"),
    "royal flush": _("royal flush"),
}

# A rank alone ("queen") and in numbers ("queens").
RANKS = {
    2: (pgettext_lazy("rank", "two"), pgettext_lazy("ranks", "twos")),
    3: (pgettext_lazy("rank", "three"), pgettext_lazy("ranks", "threes")),
    4: (pgettext_lazy("rank", "four"), pgettext_lazy("ranks", "fours")),
    5: (pgettext_lazy("rank", "five"), pgettext_lazy("ranks", "fives")),
    6: (pgettext_lazy("rank", "six"), pgettext_lazy("ranks", "sixes")),
    7: (pgettext_lazy("rank", "seven"), pgettext_lazy("ranks", "sevens")),
    8: (pgettext_lazy("rank", "eight"), pgettext_lazy("ranks", "eights")),
    9: (pgettext_lazy("rank", "nine"), pgettext_lazy("ranks", "nines")),
    10: (pgettext_lazy("rank", "ten"), pgettext_lazy("ranks", "tens")),
    11: (pgettext_lazy("rank", "jack"), pgettext_lazy("ranks", "jacks")),
    12: (pgettext_lazy("rank", "queen"), pgettext_lazy("ranks", "queens")),
    13: (pgettext_lazy("rank", "king"), pgettext_lazy("ranks", "kings")),
    14: (pgettext_lazy("rank", "ace"), pgettext_lazy("ranks", "aces")),
}

_LOW_FAULTS = {
    Category.PAIR: _("it has a pair"),
    Category.TWO_PAIR: _("it has two pair"),
    Category.TRIPS: _("it has trips"),
    Category.STRAIGHT: _("it is a straight"),
    Category.FLUSH: _("it is a flush"),
    Category.FULL_HOUSE: _("it is a full house"),
    Category.QUADS: _("it has quads"),
    Category.STRAIGHT_FLUSH: _("it is a straight flush"),
}

# Which row is weaker than which: the only three ways a board fouls by its order.
_WEAKER = {
    ("middle", "top"): _("the middle, %(lower)s, is weaker than the top, %(upper)s"),
    ("bottom", "middle"): _("the bottom, %(lower)s, is weaker than the middle, %(upper)s"),
    ("bottom", "top"): _("the bottom, %(lower)s, is weaker than the top, %(upper)s"),
}


def game_name(game: Game | str) -> str:
    """A game's name by its id (house rules keep the preset's id)."""
    game_id = game if isinstance(game, str) else game.id
    if game_id in GAME_NAMES:
        return str(GAME_NAMES[game_id])
    return game.name if isinstance(game, Game) else PRESETS[game_id].name


def option_label(option: EntryOption) -> str:
    return str(ENTRY_LABELS.get(option.label, option.label))


def row_name(row: str) -> str:
    """ "top", "middle" or "bottom" (a Row is one of those strings)."""
    return str(ROW_NAMES.get(str(row), row))


def row_label(row: str) -> str:
    """ "Top", "Middle" or "Bottom", as the label beside a row's cards."""
    return str(ROW_LABELS.get(str(row), row))


def category_name(name: str) -> str:
    """The engine's name of a hand's category ("full house") in the reader's language."""
    return str(HAND_NAMES.get(name, name))


# A pair, trips and quads, named from their rank in the plural: alone, and with their
# kickers (a plural counted by "kickers").
_OF_A_KIND = {
    Category.PAIR: (
        # Translators: a hand named from its rank in the plural ("pair of
        # kings"); the hand names below are whole patterns: order them as
        # your language does.
        _("pair of %(ranks)s"),
        ngettext_lazy(
            "pair of %(ranks)s, %(cards)s kicker",
            "pair of %(ranks)s, %(cards)s kickers",
            "kickers",
        ),
    ),
    Category.TRIPS: (
        _("trip %(ranks)s"),
        ngettext_lazy(
            "trip %(ranks)s, %(cards)s kicker",
            "trip %(ranks)s, %(cards)s kickers",
            "kickers",
        ),
    ),
    Category.QUADS: (
        _("four %(ranks)s"),
        ngettext_lazy(
            "four %(ranks)s, %(cards)s kicker",
            "four %(ranks)s, %(cards)s kickers",
            "kickers",
        ),
    ),
}


def _rank(rank: int) -> str:
    return str(RANKS[rank][0])


def _ranks(rank: int) -> str:
    return str(RANKS[rank][1])


def describe(key: int) -> str:
    """The hand of ``key`` in words, as the engine's ``describe`` says it in English:
    "pair of kings, ace kicker"."""
    category = category_of(key)
    ranks = ranks_of(key)
    names = [_rank(rank) for rank in ranks]

    # Each hand with its kickers is one message, so a language puts them where it
    # says them.
    rest = "-".join(names[1:])
    if category is Category.HIGH_CARD:
        if rest:
            return gettext("%(rank)s high, then %(ranks)s") % {"rank": names[0], "ranks": rest}
        return gettext("%(rank)s high") % {"rank": names[0]}
    if category in _OF_A_KIND:
        alone, with_kickers = _OF_A_KIND[category]
        words = {"ranks": _ranks(ranks[0]), "cards": rest, "kickers": len(names) - 1}
        return str((with_kickers if rest else alone) % words)
    if category is Category.TWO_PAIR:
        words = {"high": _ranks(ranks[0]), "low": _ranks(ranks[1]), "cards": "-".join(names[2:])}
        if len(names) < 3:
            return gettext("two pair, %(high)s and %(low)s") % words
        text = ngettext(
            "two pair, %(high)s and %(low)s, %(cards)s kicker",
            "two pair, %(high)s and %(low)s, %(cards)s kickers",
            len(names) - 2,
        )
        return text % words
    if category is Category.STRAIGHT:
        return gettext("%(rank)s-high straight") % {"rank": names[0]}
    if category is Category.FLUSH:
        return gettext("flush, %(ranks)s") % {"ranks": "-".join(names)}
    if category is Category.FULL_HOUSE:
        # Translators: "full house, kings full of queens": the ranks in the plural.
        text = gettext("full house, %(trips)s full of %(pair)s")
        return text % {"trips": _ranks(ranks[0]), "pair": _ranks(ranks[1])}
    if ranks[0] == 14:
        return category_name("royal flush")
    return gettext("%(rank)s-high straight flush") % {"rank": names[0]}


def row_description(row: RowResult) -> str:
    """A scored row's hand in words: "pair of kings, ace kicker", or "8-6-4-3-2 low"."""
    if row.low and low_fault(row.key) == "":
        ranks = "-".join(str(rank) for rank in ranks_of(row.key))
        return gettext("%(ranks)s low") % {"ranks": ranks}
    return describe(row.key)


def high_card(rank: int) -> str:
    """A 2-7 middle named by its highest card: "7-high"."""
    return gettext("%(rank)s-high") % {"rank": rank}


def low_fault(key: int) -> str:
    """Why a five-card hand is not a 10-high-or-better 2-7 low, or ""."""
    key = low_key(key)
    category = category_of(key)
    if category is not Category.HIGH_CARD:
        return str(_LOW_FAULTS[category])
    top = ranks_of(key)[0]
    if top == 14:
        return gettext("it has an ace, and aces are high in 2-7")
    if top > 10:
        text = gettext("it is %(rank)s-high, and a 2-7 middle must be 10-high or better")
        return text % {"rank": _rank(top)}
    return ""


def _weaker(lower: str, lower_key: int, upper: str, upper_key: int) -> str:
    if category_of(lower_key) == category_of(upper_key):
        lower_text, upper_text = describe(lower_key), describe(upper_key)
    else:
        lower_text = category_name(hand_name(lower_key))
        upper_text = category_name(hand_name(upper_key))
    return str(_WEAKER[lower, upper]) % {"lower": lower_text, "upper": upper_text}


def foul_reason(result: PlayerResult) -> str:
    """Why a board fouled, in words ("" when it did not), from its rows' keys as the
    engine compared them."""
    if not result.fouled:
        return ""
    top, middle, bottom = (row.key for row in result.rows)
    if result.rows[1].low:
        fault = low_fault(middle)
        if fault:
            text = gettext("the middle is not a 10-high-or-better 2-7 low: %(fault)s")
            return text % {"fault": fault}
        reasons = [_weaker("bottom", bottom, "top", top)] if top > bottom else []
    else:
        reasons = []
        if top > middle:
            reasons.append(_weaker("middle", middle, "top", top))
        if middle > bottom:
            reasons.append(_weaker("bottom", bottom, "middle", middle))
    return clauses(reasons) or gettext("the rows are out of order")


def name_problem(error: ValueError) -> str:
    """What :func:`~scorekeeper.table.names.clean_name` said of a name, in the reader's language."""
    text = str(error)
    if text == "Please enter a name.":
        return gettext("Please enter a name.")
    if text.startswith("A name can have at most"):
        return gettext("A name can have at most %(count)d characters.") % {"count": MAX_NAME_LENGTH}
    if text == "A name can only have letters and spaces.":
        return gettext("A name can only have letters and spaces.")
    return text


# A card's rank in words: a screen reader reads "A" as the word "a", and "Q" as a letter.
RANK_WORDS = {
    "A": pgettext_lazy("card rank", "ace"),
    "K": pgettext_lazy("card rank", "king"),
    "Q": pgettext_lazy("card rank", "queen"),
    "J": pgettext_lazy("card rank", "jack"),
    "T": pgettext_lazy("card rank", "ten"),
    "9": pgettext_lazy("card rank", "nine"),
    "8": pgettext_lazy("card rank", "eight"),
    "7": pgettext_lazy("card rank", "seven"),
    "6": pgettext_lazy("card rank", "six"),
    "5": pgettext_lazy("card rank", "five"),
    "4": pgettext_lazy("card rank", "four"),
    "3": pgettext_lazy("card rank", "three"),
    "2": pgettext_lazy("card rank", "two"),
}
SUIT_WORDS = {
    "s": _("spades"),
    "h": _("hearts"),
    "d": _("diamonds"),
    "c": _("clubs"),
}


def card_name(code: str) -> str:
    """A card in words, in the reader's language: ``"As"`` is "ace of spades" (Dutch
    "schoppenaas", German "Pik-Ass", Chinese "黑桃A"); ``"JK"`` is "joker"."""
    if code == "JK":
        return gettext("joker")
    # Translators: a card's name from its rank ("ace", "queen", "ten") and
    # its suit ("spades", "hearts"), as your language names a card: the
    # words may be joined without a space (Dutch "%(suit)s%(rank)s":
    # schoppenaas, hartenvrouw), with a hyphen (German "%(suit)s-%(rank)s":
    # Pik-Ass), or come in either order.
    pattern = gettext("%(rank)s of %(suit)s")
    return pattern % {"rank": RANK_WORDS[code[0]], "suit": SUIT_WORDS[code[1]]}
