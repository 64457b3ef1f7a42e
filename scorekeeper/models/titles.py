"""The names of shared things, a group's and a season's: tidied as typed, checked by
one rule each, and refused in the same words by the form (forms/fields.TitleField)
and by the service (services/errors.checked_title), which checks again."""

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from scorekeeper.table.names import has_hidden_characters, tidy_title


class TitleRefused(ValueError):
    """What is wrong with a name, in the reader's language; ``code`` is a form field's
    error code for it ("required", "max_length" or "hidden")."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class TitleRule:
    most: int  # characters, after tidying
    empty: Promise
    too_long: Promise
    hidden: Promise

    def checked(self, raw: str) -> str:
        """``raw`` as kept (:func:`~scorekeeper.table.names.tidy_title`), or
        :class:`TitleRefused` saying why not."""
        title = tidy_title(raw)
        if has_hidden_characters(title):
            raise TitleRefused(str(self.hidden), "hidden")
        if not title:
            raise TitleRefused(str(self.empty), "required")
        if len(title) > self.most:
            raise TitleRefused(str(self.too_long), "max_length")
        return title


GROUP_NAME = TitleRule(
    most=60,
    empty=gettext_lazy("Please give the group a name."),
    too_long=gettext_lazy("A group name can have at most 60 characters."),
    hidden=gettext_lazy(
        "A group name cannot have invisible characters or control codes "
        "(such as a zero-width space or a text-direction mark)."
    ),
)

SEASON_NAME = TitleRule(
    most=40,
    empty=gettext_lazy("Please give the season a name."),
    too_long=gettext_lazy("A season's name can have at most 40 characters."),
    hidden=gettext_lazy(
        "A season's name cannot have invisible characters or control codes "
        "(such as a zero-width space or a text-direction mark)."
    ),
)
