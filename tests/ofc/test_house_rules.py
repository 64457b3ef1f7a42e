"""The house rules a group may switch: one table of names and kinds, in the engine."""

import pytest

from scorekeeper.ofc import HOUSE_RULES, PRESETS, RuleKind
from scorekeeper.ofc.contract import RULES


def test_the_house_rules_are_named_in_the_order_forms_show_them():
    assert list(HOUSE_RULES.items()) == [
        ("fantasyland", RuleKind.SWITCH),
        ("stay_full_house_middle", RuleKind.SWITCH),
        ("stay_wheel_middle", RuleKind.SWITCH),
        ("stay_limit", RuleKind.LIMIT),
        ("hold_button", RuleKind.SWITCH),
    ]


@pytest.mark.parametrize(
    ("kind", "value", "accepted"),
    [
        (RuleKind.SWITCH, True, True),
        (RuleKind.SWITCH, False, True),
        (RuleKind.SWITCH, 1, False),
        (RuleKind.SWITCH, None, False),
        (RuleKind.SWITCH, "yes", False),
        (RuleKind.LIMIT, 0, True),
        (RuleKind.LIMIT, 3, True),
        (RuleKind.LIMIT, None, True),
        (RuleKind.LIMIT, -1, False),
        (RuleKind.LIMIT, True, False),
        (RuleKind.LIMIT, False, False),
        (RuleKind.LIMIT, 2.0, False),
        (RuleKind.LIMIT, "3", False),
    ],
)
def test_a_rule_kind_accepts_only_its_own_values(kind, value, accepted):
    assert kind.accepts(value) is accepted


def test_house_rules_replace_the_presets_fields_and_ignore_other_names():
    game = PRESETS["ultimate"].with_house_rules(
        {"stay_limit": None, "hold_button": True, "fantasyland": False, "jokers": 2}
    )
    assert (game.stay_limit, game.hold_button, game.fantasyland) == (None, True, False)
    assert game.jokers == 0
    assert PRESETS["ultimate"].stay_limit == 3  # the preset itself is unchanged
    assert PRESETS["standard"].with_house_rules({}) == PRESETS["standard"]


def test_every_house_rule_is_a_field_of_the_game():
    game = PRESETS["standard"]
    for name in HOUSE_RULES:
        assert hasattr(game, name)


def test_the_score_command_takes_every_house_rule_but_the_dealer_button():
    assert list(RULES) == [name for name in HOUSE_RULES if name != "hold_button"]
    assert all(RULES[name] is HOUSE_RULES[name] for name in RULES)
