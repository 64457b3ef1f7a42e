"""The form of "Who's here tonight?": who of those offered sits down."""

from django import forms
from django.utils.translation import gettext_lazy as _


class WhoIsHereForm(forms.Form):
    """The ticked people, by the keys of the chairs offered (``choices``: key and
    name, as services/same_table.last_table makes them); ``ticked`` on a fresh page.
    A key no longer offered (a member left the group since the page was made) is
    refused in words."""

    here = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "invalid_choice": _(
                "Someone ticked is no longer in the group. Reload the page and tick again."
            )
        },
    )

    def __init__(self, *args, choices: list[tuple[str, str]], ticked: list[str], **kwargs) -> None:
        kwargs.setdefault("initial", {"here": ticked})
        super().__init__(*args, **kwargs)
        self.fields["here"].choices = choices

    def ticked(self) -> set[str]:
        """The keys ticked, on a bound form (the ``ticked`` given on a fresh page)."""
        if self.is_bound:
            return set(self.data.getlist("here"))
        return set(self.initial["here"])
