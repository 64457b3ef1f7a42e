"""Signing up and logging in: the name a person signs in with is the name the others see."""

from django import forms
from django.conf import settings
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.hashers import is_password_usable
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper.models import User
from scorekeeper.site.throttle import (
    count_wrong_password,
    login_locked_message,
    login_name,
    login_refusal,
)
from scorekeeper.table.codes import EXAMPLE, read_code
from scorekeeper.table.names import MAX_NAME_LENGTH, clean_name, name_key, tidy_name
from scorekeeper.terms import name_problem


class NameField(forms.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("label", _("Your name"))
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
            raise forms.ValidationError(name_problem(error)) from None


class SignUpForm(forms.Form):
    """A name is enough: the phone stays signed in. A password is for signing in on
    another phone without a code, and can be added later on the account page."""

    name = NameField(error_messages={"required": _("Please enter a name.")})


class PasswordForm(forms.Form):
    """A password of one's own (optional): to sign in on another phone by oneself.
    Changing one takes the current one (services/sign_ins.set_password checks it)."""

    current = forms.CharField(
        label=_("Current password"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    password = forms.CharField(
        label=_("New password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        error_messages={"required": _("Please choose a password.")},
    )

    def clean_password(self):
        password = self.cleaned_data["password"]
        password_validation.validate_password(password)
        return password


class CodeForm(forms.Form):
    """The front page's one box: a group's join code or a one-time sign-in code,
    typed as people type (``k7qm 3xpd``, an O for a 0)."""

    code = forms.CharField(
        label=_("Code"),
        max_length=40,
        error_messages={"required": _("Please enter the code you were given.")},
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "placeholder": EXAMPLE,
                "inputmode": "text",
            }
        ),
    )

    def clean_code(self) -> str:
        code = read_code(self.cleaned_data["code"])
        if code is None:
            raise forms.ValidationError(
                _("A code has 8 letters and digits, like K7QM-3XPD. Check it and try again.")
            )
        return code


class LoginForm(AuthenticationForm):
    error_messages = {
        "invalid_login": _("That name and password do not match. Check both and try again."),
        "inactive": _("This account is switched off."),
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].label = _("Your name")
        self.fields["username"].widget.attrs.update(
            {"autocapitalize": "words", "spellcheck": "false"}
        )

    def clean_username(self) -> str:
        # Checked before any query: a 50,000-character name would otherwise reach the
        # database's case-insensitive lookup (on SQLite, "pattern too complex").
        name = tidy_name(self.cleaned_data["username"])
        if len(name) > MAX_NAME_LENGTH:
            raise forms.ValidationError(
                TOO_LONG_TO_LOG_IN, code="max_length", params={"count": MAX_NAME_LENGTH}
            )
        return name

    def clean(self):
        name = login_name(self.request, self.cleaned_data)
        if name:
            refusal = login_refusal(self.request, name)
            if refusal:  # before the password is even checked
                raise forms.ValidationError(refusal, code="throttled")
        try:
            return super().clean()
        except forms.ValidationError as error:
            # django-axes turned the attempt down before the password was checked.
            if getattr(self.request, "axes_locked_out", False):
                raise forms.ValidationError(login_locked_message(), code="locked") from None
            if name and error.code == "invalid_login":
                count_wrong_password(self.request, name)
                if has_no_password(self.cleaned_data.get("username", "")):
                    raise forms.ValidationError(NO_PASSWORD, code="invalid_login") from None
            raise

    @property
    def throttled(self) -> bool:
        """Refused for too many tries (answered 429), not for a wrong password."""
        return self.has_error(NON_FIELD_ERRORS, "throttled")


def has_no_password(name: str) -> bool:
    """Whether the account ``name`` signs in without a password (joined by name only)."""
    stored = User.objects.filter(name_key=name_key(name)).values_list("password", flat=True)
    stored = stored.first()
    return stored is not None and not is_password_usable(stored)


NO_PASSWORD = gettext_lazy(
    "This account has no password. Someone at your table signs this phone in as you: on "
    "their phone, the group page has “Sign … in on a phone” beside your name."
)

TOO_LONG_TO_LOG_IN = gettext_lazy(
    "No account has a name that long: names have at most %(count)d characters."
)


class LanguageForm(forms.Form):
    """The language switcher on every page: one of settings.LANGUAGES."""

    language = forms.ChoiceField(choices=settings.LANGUAGES)
