"""Signing up and logging in: the name a person signs in with is the name the others see."""

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm

from scorekeeper.names import MAX_NAME_LENGTH, clean_name


class NameField(forms.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("label", "Your name")
        kwargs.setdefault("max_length", 200)  # the clean step says "at most 30" in words
        super().__init__(**kwargs)
        self.widget.attrs.update(
            {
                "autocomplete": "username",
                "autocapitalize": "words",
                "spellcheck": "false",
                "maxlength": str(MAX_NAME_LENGTH),
            }
        )

    def clean(self, value):
        value = super().clean(value)
        try:
            return clean_name(value)
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None


class SignUpForm(forms.Form):
    name = NameField(error_messages={"required": "Please enter a name."})
    password = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        error_messages={"required": "Please choose a password."},
    )

    def clean_password(self):
        password = self.cleaned_data["password"]
        password_validation.validate_password(password)
        return password


class LoginForm(AuthenticationForm):
    error_messages = {
        "invalid_login": "That name and password do not match. Check both and try again.",
        "inactive": "This account is switched off.",
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].label = "Your name"
        self.fields["username"].widget.attrs.update(
            {"autocapitalize": "words", "spellcheck": "false"}
        )
