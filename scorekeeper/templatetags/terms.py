"""The engine's words in templates, in the reader's language (see scorekeeper.terms)."""

from django import template

from scorekeeper import terms

register = template.Library()

register.filter("game_name", terms.game_name)
register.filter("option_label", terms.option_label)
register.filter("row_name", terms.row_name)
register.filter("row_label", terms.row_label)
register.filter("category_name", terms.category_name)
register.filter("row_description", terms.row_description)
register.filter("foul_reason", terms.foul_reason)
