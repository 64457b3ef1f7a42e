"""The rules page: the royalty tables and every game's Fantasyland, read from the
engine so the page can never disagree with the scoring."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.ofc import PRESETS, STANDARD_ROYALTIES, Game
from scorekeeper.terms import category_name, high_card, option_label

RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A", 10: "T"}


def rank(value: int) -> str:
    return RANK_NAMES.get(value, str(value))


def stays_in_words(game: Game) -> str:
    if not game.fantasyland:
        return "—"
    ways = []
    if game.stay_top_trips:
        ways.append(_("trips on top"))
    if game.stay_full_house_middle:
        ways.append(_("a full house or better in the middle"))
    if game.stay_quads_bottom:
        ways.append(_("quads or better on the bottom"))
    if game.stay_wheel_middle:
        ways.append(_("a 7-5-4-3-2 middle"))
    if game.stay_cards:
        cards = ngettext("%(count)d card", "%(count)d cards", game.stay_cards) % {
            "count": game.stay_cards
        }
    else:
        cards = _("the same count again")
    limit = ""
    if game.stay_limit is not None:
        limit = ngettext(
            "; at most %(count)d stay in a row",
            "; at most %(count)d stays in a row",
            game.stay_limit,
        ) % {"count": game.stay_limit}
    return f"{', '.join(ways)} ({cards}{limit})"


def rules_tables() -> dict:
    """The royalty tables and one line per game, for the rules page."""
    royalties = STANDARD_ROYALTIES
    return {
        "top_tables": [
            (_("Pairs on top"), [(rank(r) * 2, pts) for r, pts in royalties.top_pair.items()]),
            (_("Trips on top"), [(rank(r) * 3, pts) for r, pts in royalties.top_trips.items()]),
        ],
        "five_card": [
            (category_name(hand), royalties.middle.get(hand, 0), royalties.bottom.get(hand, 0))
            for hand in royalties.middle
        ],
        "low_middle": [
            (high_card(value), points) for value, points in royalties.low_middle.items()
        ],
        "games": [
            {
                "game": game,
                "entry": ", ".join(f"{option_label(o)} ({o.cards})" for o in game.entry_options)
                or "—",
                "stays": stays_in_words(game),
            }
            for game in PRESETS.values()
        ],
    }
