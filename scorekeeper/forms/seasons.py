"""A season of the group's own: its name and the day it starts."""

from django import forms
from django.utils.translation import gettext_lazy

from scorekeeper.forms.fields import TitleField
from scorekeeper.models.titles import SEASON_NAME

NO_DATE = gettext_lazy("That date cannot be read. Write it as year-month-day, like 2026-09-01.")


class SeasonForm(forms.Form):
    name = TitleField(label=gettext_lazy("Name of the season"), rule=SEASON_NAME)
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
