"""The bridge between a night's stored settings and the rules engine's games."""

from dataclasses import replace

from scorekeeper.ofc.games import PRESETS, Game

# The house rules a group can switch when it starts a night.
HOUSE_RULES = (
    "fantasyland",
    "stay_full_house_middle",
    "stay_wheel_middle",
    "stay_limit",
    "hold_button",
)


def game_for(game_id: str, rules: dict) -> Game:
    """The preset with the night's house rules applied."""
    changes = {name: value for name, value in rules.items() if name in HOUSE_RULES}
    return replace(PRESETS[game_id], **changes)
