"""The house rules a night plays, in one line: ``{{ night|house_rules }}``."""

from django import template

from scorekeeper.models import Night
from scorekeeper.reads.rules import rules_summary

register = template.Library()


@register.filter
def house_rules(night: Night) -> str:
    return rules_summary(night.game_rules)
