"""Lists in templates as the reader's language writes them: names with its "and"
(``|listed``: "Anna, Bram, and Chris", "Anna、Bram和Chris"), items with its list comma
(``|series``), clauses with its semicolon (``|clauses``), clauses made one sentence
with its full stop (``|sentence``); and, in a loop over items with markup, what comes
after each one: ``{{ forloop|list_gap }}`` for names, ``{{ forloop|series_gap }}`` for
items, ``{{ forloop|clause_gap }}`` for clauses."""

from collections.abc import Iterable
from typing import Any

from django import template

from scorekeeper import i18n
from scorekeeper.table.formatting import signed

register = template.Library()

register.filter("listed", i18n.listed)
register.filter("series", i18n.series)
register.filter("clauses", i18n.clauses)
register.filter("sentence", i18n.sentence)


@register.filter
def followed_by(first: str, rest: Iterable[str]) -> list[str]:
    """One name and then others, to be listed: ``seat.name|followed_by:waiting|listed``."""
    return [first, *rest]


@register.filter
def seat_names(lines: Iterable[Any]) -> list[str]:
    """The names of a night's lines (anything with a ``seat``), in their order."""
    return [line.seat.name for line in lines]


@register.filter
def list_gap(forloop: dict) -> str:
    count = forloop["counter0"] + forloop["revcounter"]
    return i18n.list_gap(forloop["counter0"], count)


@register.filter
def series_gap(forloop: dict) -> str:
    return "" if forloop["last"] else i18n.series(["", ""])


@register.filter
def clause_gap(forloop: dict) -> str:
    return "" if forloop["last"] else i18n.clauses(["", ""])


@register.filter
def total_changes(changes: Iterable[tuple[str, int, int]]) -> str:
    """A fix's changes, "Anna +3 → +5; Bram −3 → −5" in the language's clauses."""
    return i18n.clauses(f"{name} {signed(old)} → {signed(new)}" for name, old, new in changes)
