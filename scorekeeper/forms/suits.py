"""The suit letters people type in their own language, read as the engine's.

The engine (and ``manage.py score``, whose notation is a fixed contract) reads only
``h d c s`` and ``JK``. The card form also takes the suit symbols (``Q♥``) in every
language, and the letters the reader's language names its suits with, where they
cannot be misread: the catalogue gives them (hearts, diamonds, clubs, spades; "-"
where a language has none of its own), "hrks" in Dutch (harten, ruiten, klaveren,
schoppen). A letter that is another suit's English letter, or one given to two suits
(German Karo and Kreuz), is not taken; ``JK`` stays the joker in every language, so
the Dutch jack of clubs is ``Jc`` or ``J♣``.
"""

from django.utils.translation import pgettext

ENGINE_SUITS = "hdcs"
SYMBOLS = {"♥": "h", "♦": "d", "♣": "c", "♠": "s", "♡": "h", "♢": "d", "♧": "c", "♤": "s"}


def own_letters() -> dict[str, str]:
    """The reader's language's suit letters that differ from the engine's, each to
    the engine's: {"r": "d", "k": "c"} in Dutch."""
    letters = pgettext(
        "the letters people type for hearts, diamonds, clubs and spades, in that "
        "order; - for a suit without a letter of its own",
        "hdcs",
    ).lower()
    if len(letters) != len(ENGINE_SUITS):
        return {}
    given = [letter for letter in letters if letter != "-"]
    if len(set(given)) != len(given):
        return {}  # one letter for two suits reads both ways
    return {
        letter: suit
        for letter, suit in zip(letters, ENGINE_SUITS, strict=True)
        if letter != suit and letter.isalpha() and letter not in ENGINE_SUITS
    }


def as_engine_notation(text: str) -> str:
    """A row's text with each card's suit written as the engine reads it:
    "Q♥ 10r Kk" is "Qh 10d Kc" in Dutch; anything else is left as it was typed."""
    own = own_letters()
    cards = []
    for token in str(text or "").replace(",", " ").split():
        suit = token[-1:]
        if suit in SYMBOLS:
            token = token[:-1] + SYMBOLS[suit]
        elif len(token) > 1 and suit.lower() in own and token.upper() != "JK":
            token = token[:-1] + own[suit.lower()]
        cards.append(token)
    return " ".join(cards)
