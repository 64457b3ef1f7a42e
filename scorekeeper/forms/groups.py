"""Starting a group."""

from django import forms


class GroupForm(forms.Form):
    name = forms.CharField(
        label="Group name",
        max_length=60,
        error_messages={
            "required": "Please give the group a name.",
            "max_length": "A group name can have at most 60 characters.",
        },
    )
