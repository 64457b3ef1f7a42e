"""The rules page: the royalty tables and every game's Fantasyland, read from the
engine so the page can never disagree with the scoring; and the table's own house
rules (royalties and scoring system) as a night or a group plays them."""

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from scorekeeper.i18n import series
from scorekeeper.models import Group, Night, User
from scorekeeper.ofc import PRESETS, STANDARD_ROYALTIES, EntryOption, Game, Royalties
from scorekeeper.ofc.royalties import ROYALTY_KEYS
from scorekeeper.ofc.scoring_systems import SYSTEMS, Scoring
from scorekeeper.terms import category_name, high_card, option_label

# The hands of the royalty table in words (the engine names them in English).
HAND_WORDS = {
    "pair": gettext_lazy("pair"),
    "two pair": gettext_lazy("two pair"),
    "trips": gettext_lazy("trips"),
    "straight": gettext_lazy("straight"),
    "flush": gettext_lazy("flush"),
    "full house": gettext_lazy("full house"),
    "quads": gettext_lazy("quads"),
    "straight flush": gettext_lazy("straight flush"),
    "royal flush": gettext_lazy("royal flush"),
}
SECTION_TITLES = {
    "top_pair": gettext_lazy("Pairs on top"),
    "top_trips": gettext_lazy("Trips on top"),
    "middle": gettext_lazy("Middle"),
    "bottom": gettext_lazy("Bottom"),
    "low_middle": gettext_lazy("2-7 middle"),
}

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
    if game.stay_limit is None:
        return _("%(ways)s (%(cards)s)") % {"ways": series(ways), "cards": cards}
    return ngettext(
        "%(ways)s (%(cards)s; at most %(count)d stay in a row)",
        "%(ways)s (%(cards)s; at most %(count)d stays in a row)",
        game.stay_limit,
    ) % {"ways": series(ways), "cards": cards, "count": game.stay_limit}


def rules_tables(game: Game | None = None) -> dict:
    """The royalty tables and one line per game, for the rules page: the standard
    table, or the table ``game`` plays (a night's own amounts and scoring)."""
    royalties = STANDARD_ROYALTIES if game is None else game.royalties
    shown = paid_sections(game)
    return {
        "top_tables": [
            (_("Pairs on top"), _paid_entries(royalties, "top_pair")),
            (_("Trips on top"), _paid_entries(royalties, "top_trips")),
        ],
        "five_card": [
            (
                category_name(hand),
                royalties.amount("middle", hand),
                royalties.amount("bottom", hand),
            )
            for hand in ROYALTY_KEYS["middle"]
            if royalties.amount("middle", hand)
            or royalties.amount("bottom", hand)
            or hand in STANDARD_ROYALTIES.middle
            or hand in STANDARD_ROYALTIES.bottom
        ],
        "low_middle": [
            (high_card(value), points) for value, points in royalties.low_middle.items()
        ],
        "show_five_card": "middle" in shown,
        "show_low_middle": "low_middle" in shown,
        "scoring": (game or PRESETS["standard"]).scoring,
        "systems": scoring_systems_table(),
        "games": [
            {
                "game": game,
                "entry": series(_way_in(option) for option in game.entry_options) or "—",
                "stays": stays_in_words(game),
            }
            for game in PRESETS.values()
        ],
    }


def scoring_systems_table() -> list[dict]:
    """The systems tables know by name, as the engine scores them: what winning two
    rows of three earns, a scoop, and what a foul costs before royalties (three rows
    lost outright)."""
    return [
        {
            "name": name,
            "two_of_three": system.for_rows(2, 1),
            "scoop": system.for_rows(3, 0),
            "foul": system.for_rows(3, 0),
        }
        for name, system in SYSTEMS.items()
    ]


def _way_in(option: EntryOption) -> str:
    """A way into Fantasyland and the cards it deals: "QQ on top (14)"."""
    # Translators: a way into Fantasyland and how many cards it deals, as
    # in "QQ on top (14)"; one of a list.
    pattern = pgettext("a way into Fantasyland and its cards", "%(way)s (%(cards)d)")
    return pattern % {"way": option_label(option), "cards": option.cards}


def _paid_entries(royalties: Royalties, section: str) -> list[tuple[str, int]]:
    """A top section's entries that pay, or that the standard table lists (66 and up)."""
    return [
        (key, royalties.amount(section, key))
        for key in ROYALTY_KEYS[section]
        if royalties.amount(section, key) or STANDARD_ROYALTIES.amount(section, key)
    ]


@dataclass(frozen=True)
class NightRules:
    """What one night plays, and whether (and by whom) it may still be changed."""

    summary: str
    changeable: bool  # for this viewer, now
    fixed_reason: str  # why not, in words, when it cannot


def night_rules_page(night: Night, user: User) -> NightRules:
    """The night's house rules line, and whether ``user`` may change them now:
    only before its first round is recorded, and only someone at the table."""
    if night.is_over:
        reason = _("This night is over; its rules stay as they were played.")
    elif night.rounds.filter(recorded_at__isnull=False).exists():
        reason = _("These rules are fixed: the night's first round is recorded.")
    elif not night.is_at_table(user):
        reason = _("Only the players at this table can change tonight's rules.")
    else:
        reason = ""
    return NightRules(rules_summary(night.game_rules), not reason, reason)


def royalty_label(section: str, key: str) -> str:
    """One entry of the royalty table in words: "AA on top", "flush in the middle"."""
    if section in ("top_pair", "top_trips"):
        return _("%(cards)s on top") % {"cards": key}
    if section == "low_middle":
        return _("%(high)s-high 2-7 middle") % {"high": key}
    hand = str(HAND_WORDS[key])
    if section == "middle":
        return _("%(hand)s in the middle") % {"hand": hand}
    return _("%(hand)s on the bottom") % {"hand": hand}


def short_royalty_label(section: str, key: str) -> str:
    """An entry under its section's title: "AA", "flush", "7-high"."""
    if section in ("top_pair", "top_trips"):
        return key
    if section == "low_middle":
        return _("%(high)s-high") % {"high": key}
    return str(HAND_WORDS[key])


def paid_sections(game: Game | None) -> tuple[str, ...]:
    """The sections of the royalty table a game pays (every one when no game is
    given, as for a group's defaults): a 2-7 game pays its low middle instead."""
    if game is None:
        return tuple(ROYALTY_KEYS)
    middle = "low_middle" if game.low_middle else "middle"
    return ("top_pair", "top_trips", middle, "bottom")


def scoring_words(scoring: Scoring) -> str:
    """ "2-4", or a table's own system: "own scoring: scoop 5, majority 2"."""
    if scoring.name:
        return scoring.name
    return _("own scoring: scoop %(scoop)s, majority %(majority)s") % scoring.as_json()


def royalties_words(royalties: Royalties, sections: tuple[str, ...]) -> str:
    """ "standard royalties", or what differs: "own royalties: AA on top 12, ..."."""
    changes = royalties.changes_from(STANDARD_ROYALTIES)
    changed = [
        f"{royalty_label(section, key)} {amount}"
        for section in sections
        for key, amount in changes.get(section, {}).items()
    ]
    if not changed:
        return _("standard royalties")
    return _("own royalties: %(changes)s") % {"changes": series(changed)}


def _summary(scoring: Scoring, royalties: str) -> str:
    # Translators: how a table scores and what royalties it pays, in one
    # line: "2-4, own royalties: AA on top 12", "1-6, standard royalties".
    pattern = pgettext("scoring and royalties", "%(scoring)s, %(royalties)s")
    return pattern % {"scoring": scoring_words(scoring), "royalties": royalties}


def rules_summary(game: Game) -> str:
    """Which house rules of its own a night plays, in one line:
    "2-4, own royalties: AA on top 12"."""
    return _summary(game.scoring, royalties_words(game.royalties, paid_sections(game)))


def group_rules_summary(group: Group) -> str:
    """The group's own defaults in one line, every section of the table included."""
    game = PRESETS["standard"].with_house_rules(group.house_rules)
    return _summary(game.scoring, royalties_words(game.royalties, paid_sections(None)))
