"""Starting a group."""

from django import forms
from django.utils.translation import gettext_lazy as _


class GroupForm(forms.Form):
    name = forms.CharField(
        label=_("Group name"),
        max_length=60,
        error_messages={
            "required": _("Please give the group a name."),
            "max_length": _("A group name can have at most 60 characters."),
        },
    )
