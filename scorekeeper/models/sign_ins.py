"""Getting a person onto a phone without a password: one-time sign-in codes, and the
phones each account is signed in on."""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from scorekeeper.table.codes import CODE_LENGTH

# How long a sign-in code works: long enough to hand a phone across the table.
SIGN_IN_CODE_LIFETIME = timedelta(minutes=10)
# After a sign-in someone else made, the account's pay details stay as they were for
# this long, so nobody can redirect a friend's money by signing in as them.
PAY_DETAILS_HOLD = timedelta(hours=24)


class SignInCode(models.Model):
    """A code that signs one phone in as ``user``, once, within SIGN_IN_CODE_LIFETIME."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sign_in_codes"
    )
    code = models.CharField(max_length=CODE_LENGTH, unique=True)
    # Who made it: the person themself, a member at their table, or None for the
    # server's owner at the command line.
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    made_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"sign-in code for {self.user}"

    @property
    def made_by_someone_else(self) -> bool:
        return self.made_by_id != self.user_id

    def is_expired(self) -> bool:
        return self.expires_at <= timezone.now()


class Phone(models.Model):
    """A browser signed in as ``user``: one per session, so the account page can list
    them and sign one out."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="phones"
    )
    session_key = models.CharField(max_length=40, unique=True)
    # What the browser says it is ("iPhone · Safari"), to tell the phones apart.
    label = models.CharField(max_length=60, blank=True, default="")
    signed_in_at = models.DateTimeField(default=timezone.now)
    seen_at = models.DateTimeField(default=timezone.now)
    # Someone else's sign-in code put this phone in (None: the person themself).
    signed_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    by_the_owner = models.BooleanField(default=False)

    class Meta:
        ordering = ["-seen_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.label or 'a phone'} of {self.user}"
