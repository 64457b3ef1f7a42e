"""Getting a person onto a phone without a password: one-time sign-in codes, and the
phones each account is signed in on."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from scorekeeper.models.groups import Membership
from scorekeeper.models.nights import Night, Seat
from scorekeeper.table.codes import CODE_LENGTH

# How long a sign-in code works: long enough to hand a phone across the table.
SIGN_IN_CODE_LIFETIME = timedelta(minutes=10)
# After a sign-in someone else made, the account's pay details (and, for an account
# without one, its password) stay as they were for this long, so nobody can redirect a
# friend's money or lock them out by signing in as them.
PAY_DETAILS_HOLD = timedelta(hours=24)
# A phone signed in by someone else's code cannot sign the account's other phones out
# for this long: the person's own phone stays in, and keeps telling them.
SIGN_OUT_HOLD = timedelta(hours=24)
# A member makes a sign-in code for another only when both sat at a night that is
# running or ended this recently, and the member has been in that group this long:
# signing someone in takes the table, not a join code.
SAT_TOGETHER_WITHIN = timedelta(days=1)
MEMBER_FOR = timedelta(days=1)


def table_mates(user) -> set[int]:
    """The ids of the people who had a seat at a night with ``user`` that is running or
    ended within SAT_TOGETHER_WITHIN (tonight's, or the one that just ended), of a
    group both are in now and ``user`` joined more than MEMBER_FOR ago: the people
    ``user`` may make a sign-in code for. One query.

    Someone who just joined with the group's code signs nobody in, even at a night they
    started themselves with a friend's name on it."""
    now = timezone.now()
    recent = Q(ended_at__isnull=True) | Q(ended_at__gte=now - SAT_TOGETHER_WITHIN)
    # Memberships and seats are asked after (EXISTS), not joined: a join through a
    # group's memberships multiplies the rows by its members, and PostgreSQL, planning from
    # statistics that still say the tables are nearly empty (a group imported or
    # restored minutes ago), nested those joins into minutes at 300 nights.
    joined_long_enough = Membership.objects.current().filter(
        group=OuterRef("group"), user=user, joined_at__lte=now - MEMBER_FOR
    )
    sat_there = Seat.objects.filter(night=OuterRef("pk"), user=user)
    nights = Night.objects.filter(recent, Exists(joined_long_enough), Exists(sat_there))
    still_a_member = Membership.objects.current().filter(
        group__nights=OuterRef("night"), user=OuterRef("user")
    )
    mates = Seat.objects.filter(Exists(still_a_member), night__in=nights.values("pk"))
    mates = mates.exclude(user=user)
    return set(mates.values_list("user_id", flat=True))


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

    @property
    def by_someone_else(self) -> bool:
        """Signed in by a code someone else made (a member, or the server's owner)."""
        return self.signed_in_by_id is not None or self.by_the_owner

    def sign_out_held_until(self) -> datetime | None:
        """Until when this phone may not sign the account's other phones out; None
        when it may."""
        if not self.by_someone_else:
            return None
        until = self.signed_in_at + SIGN_OUT_HOLD
        return until if until > timezone.now() else None


class SignInNoticeQuerySet(models.QuerySet):
    def unread_on(self, user, session_key: str | None) -> "SignInNoticeQuerySet":
        """The notices ``user``'s phone with ``session_key`` shows: those not read yet
        of sign-ins made after this phone was signed in. The phone a code signed in,
        and any signed in after it, never see (nor clear) it: only the person's older
        phones do."""
        newer = Phone.objects.filter(
            session_key=session_key or "", signed_in_at__gte=OuterRef("at")
        )
        return self.filter(user=user, read_at__isnull=True).exclude(Exists(newer))


class SignInNotice(models.Model):
    """ "Your account was signed in on another phone, with a code Anna made": kept with
    the account (not a phone's session), so a password saved or a code made on the
    new phone cannot wipe it, shown on the account's older phones until read on one."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sign_in_notices"
    )
    # Who made the code: None with by_the_owner for the server's owner, None without
    # it for the person's own code.
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    by_the_owner = models.BooleanField(default=False)
    # When the new phone was signed in: the moment its row says (Phone.signed_in_at).
    at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    objects = SignInNoticeQuerySet.as_manager()

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["user", "read_at"], name="notice_user_unread")]

    def __str__(self) -> str:
        return f"sign-in notice for {self.user} at {self.at}"
