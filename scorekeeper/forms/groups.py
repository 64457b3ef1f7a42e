"""Starting a group, and making a new invitation link."""

from datetime import timedelta

from django import forms
from django.utils.translation import gettext_lazy

from scorekeeper.forms.fields import TitleField


class GroupForm(forms.Form):
    name = TitleField(
        label="Group name",
        max_length=60,
        error_messages={
            "required": "Please give the group a name.",
            "max_length": "A group name can have at most 60 characters.",
        },
    )


# How long a new invitation link works, and for how many people.
LINK_LIFETIMES = {"": None, "1d": timedelta(days=1), "7d": timedelta(days=7)}


class InviteLinkForm(forms.Form):
    valid_for = forms.ChoiceField(
        label=gettext_lazy("Works for"),
        required=False,
        choices=[
            ("", gettext_lazy("until replaced")),
            ("1d", gettext_lazy("one day")),
            ("7d", gettext_lazy("a week")),
        ],
    )
    uses = forms.TypedChoiceField(
        label=gettext_lazy("Lets in"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[
            ("", gettext_lazy("anyone with it")),
            ("1", gettext_lazy("one person")),
            ("5", gettext_lazy("5 people")),
            ("10", gettext_lazy("10 people")),
        ],
    )

    def lifetime(self) -> timedelta | None:
        return LINK_LIFETIMES[self.cleaned_data.get("valid_for") or ""]
