"""The form of "Who's here tonight?": who of those offered sits down."""

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.services.same_table import LastTable


class WhoIsHereForm(forms.Form):
    """The ticked people, by the keys of :func:`~scorekeeper.services.same_table.last_table`'s
    chairs; a key no longer offered (a member left the group since the page was made)
    is refused in words."""

    here = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "invalid_choice": _(
                "Someone ticked is no longer in the group. Reload the page and tick again."
            )
        },
    )

    def __init__(self, *args, table: LastTable, **kwargs) -> None:
        kwargs.setdefault("initial", {"here": [chair.key for chair in table.players]})
        super().__init__(*args, **kwargs)
        chairs = table.players + table.others
        self.fields["here"].choices = [(chair.key, chair.name) for chair in chairs]

    def ticked(self) -> set[str]:
        """The keys ticked, on a bound form (everyone of last time on a fresh page)."""
        if self.is_bound:
            return set(self.data.getlist("here"))
        return set(self.initial["here"])
