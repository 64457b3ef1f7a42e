"""The rules page: the royalty tables and every game's Fantasyland, read from the
engine so the page can never disagree with the scoring."""

from scorekeeper.ofc import PRESETS, STANDARD_ROYALTIES, Game

RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A", 10: "T"}


def rank(value: int) -> str:
    return RANK_NAMES.get(value, str(value))


def stays_in_words(game: Game) -> str:
    if not game.fantasyland:
        return "—"
    ways = []
    if game.stay_top_trips:
        ways.append("trips on top")
    if game.stay_full_house_middle:
        ways.append("a full house or better in the middle")
    if game.stay_quads_bottom:
        ways.append("quads or better on the bottom")
    if game.stay_wheel_middle:
        ways.append("a 7-5-4-3-2 middle")
    cards = f"{game.stay_cards} cards" if game.stay_cards else "the same count again"
    limit = f"; at most {game.stay_limit} stays in a row" if game.stay_limit is not None else ""
    return f"{', '.join(ways)} ({cards}{limit})"


def rules_tables() -> dict:
    """The royalty tables and one line per game, for the rules page."""
    royalties = STANDARD_ROYALTIES
    return {
        "top_tables": [
            ("Pairs on top", [(rank(r) * 2, pts) for r, pts in royalties.top_pair.items()]),
            ("Trips on top", [(rank(r) * 3, pts) for r, pts in royalties.top_trips.items()]),
        ],
        "five_card": [
            (hand, royalties.middle.get(hand, 0), royalties.bottom.get(hand, 0))
            for hand in royalties.middle
        ],
        "low_middle": [(f"{high}-high", points) for high, points in royalties.low_middle.items()],
        "games": [
            {
                "game": game,
                "entry": ", ".join(f"{o.label} ({o.cards})" for o in game.entry_options) or "—",
                "stays": stays_in_words(game),
            }
            for game in PRESETS.values()
        ],
    }
