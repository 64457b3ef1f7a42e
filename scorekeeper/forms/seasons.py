"""A season of the group's own: its name and the day it starts."""

from django import forms
from django.utils.translation import gettext_lazy

from scorekeeper.forms.fields import TitleField
from scorekeeper.models.seasons import SEASON_NAME_LENGTH

NO_DATE = gettext_lazy("That date cannot be read. Write it as year-month-day, like 2026-09-01.")


class SeasonNameField(TitleField):
    """A season's name, tidied as a group's name is."""

    default_error_messages = {
        "hidden": gettext_lazy(
            "A season's name cannot have invisible characters or control codes "
            "(such as a zero-width space or a text-direction mark)."
        ),
    }


class SeasonForm(forms.Form):
    name = SeasonNameField(
        label=gettext_lazy("Name of the season"),
        max_length=SEASON_NAME_LENGTH,
        error_messages={
            "required": gettext_lazy("Please give the season a name."),
            "max_length": gettext_lazy("A season's name can have at most 40 characters."),
        },
    )
    starts_on = forms.DateField(
        label=gettext_lazy("Starts on"),
        input_formats=["%Y-%m-%d"],
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": gettext_lazy("Please say the day the season starts."),
            "invalid": NO_DATE,
        },
    )


class RemoveSeasonForm(forms.Form):
    """Which of the group's seasons to take away."""

    remove = forms.ModelChoiceField(
        queryset=None,
        error_messages={
            "required": gettext_lazy("That season is not there any more. Reload the page."),
            "invalid_choice": gettext_lazy("That season is not there any more. Reload the page."),
        },
    )

    def __init__(self, *args, seasons, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["remove"].queryset = seasons
