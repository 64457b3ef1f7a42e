"""Groups of friends who play together, and who belongs to them."""

from typing import TYPE_CHECKING, Self

from django.conf import settings
from django.db import models
from django.db.models import Count, Max, Q, Sum
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.converters import TOKEN_LENGTH
from scorekeeper.dates import moment
from scorekeeper.models.titles import GROUP_NAME
from scorekeeper.table.codes import grouped, new_code

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from scorekeeper.models.accounts import User


class MembershipQuerySet(models.QuerySet):
    """Who belongs to a group. "A current member" is written here and nowhere else."""

    @staticmethod
    def current_through(path: str) -> Q:
        """The rule as a condition on the membership that ``path`` leads to
        (``"memberships__"`` from a group), for a query that joins memberships."""
        return Q(**{f"{path}left_at__isnull": True})

    def current(self) -> Self:
        """Memberships of people in their group now (not left)."""
        return self.filter(self.current_through(""))

    def former(self) -> Self:
        """Memberships of people who left their group (their results stay)."""
        return self.exclude(self.current_through(""))


def new_invite_token() -> str:
    """A group's join code (scorekeeper/table/codes.py). Kept by this name for the
    migrations that made it the column's default."""
    return new_code()


class MemberQuerySet(models.QuerySet):
    """Rows that belong to a group (the group itself, its nights), as one person may
    open them: anything outside their groups is a 404 by construction."""

    # How a row of this queryset reaches its group: "" for a group, "group__" for a night.
    group_path = ""

    def for_member(self, user: "User | AnonymousUser") -> Self:
        """The rows of the groups ``user`` belongs to now (one join, no subquery: every
        poll runs it)."""
        if not user.is_authenticated:
            return self.none()
        memberships = f"{self.group_path}memberships__"
        # One filter() call, so the user and the rule land on the same join.
        return self.filter(
            Q(**{f"{memberships}user": user}),
            MembershipQuerySet.current_through(memberships),
        )


class GroupQuerySet(MemberQuerySet):
    group_path = ""

    def nights_version(self) -> str | None:
        """The fingerprint of the nights of the one group this queryset holds (see
        :func:`nights_version`), in one query; None when it holds none."""
        groups = (
            self.order_by()
            .annotate(
                count=Count("nights"), versions=Sum("nights__version"), newest=Max("nights__pk")
            )
            .values_list("count", "versions", "newest")
        )
        for count, versions, newest in groups:
            return nights_version(count, versions or 0, newest or 0)
        return None


class Group(models.Model):
    name = models.CharField(max_length=GROUP_NAME.most)
    # The group's join code, the one secret its invitation link and its QR carry too:
    # typed at the front page, or opened as /join/<code>/.
    invite_token = models.CharField(max_length=TOKEN_LENGTH, unique=True, default=new_invite_token)
    # The link can be made to stop by itself: at a moment, or after so many joins.
    invite_expires_at = models.DateTimeField(null=True, blank=True)
    invite_uses_left = models.PositiveIntegerField(null=True, blank=True)
    currency = models.CharField(max_length=3, default="EUR")
    # What the last night was played with, offered as the next night's defaults.
    default_game = models.CharField(max_length=20, default="standard")
    default_rules = models.JSONField(default=dict, blank=True)
    default_point_cents = models.PositiveIntegerField(default=10)
    # The table's own royalties and scoring system, set once as the group's defaults:
    # {"royalties": changes to the standard table, "scoring": {"scoop": S, "majority": M}},
    # as the engine reads them (ofc.TABLE_RULES). Each night copies them when it starts.
    house_rules = models.JSONField(default=dict, blank=True)
    # "Settle everything tonight": each night's settlement also squares what is still
    # owed from earlier nights. One choice for the group, so every phone shows the same.
    settle_everything = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = GroupQuerySet.as_manager()

    def __str__(self) -> str:
        return self.name

    def invite_url(self, base_url: str) -> str:
        """The invitation link at ``base_url``, the address the phones open
        (``http://192.0.2.5:8000``): the group page and the command line both use it."""
        return base_url.rstrip("/") + reverse("join", args=[self.invite_token])

    @property
    def join_code(self) -> str:
        """The join code as shown and read out: ``K7QM-3XPD``."""
        return grouped(self.invite_token)

    def invite_refusal(self) -> str:
        """Why the join code and its link no longer let anyone in, in words, or ""."""
        if self.invite_expires_at is not None and self.invite_expires_at <= timezone.now():
            when = moment(self.invite_expires_at)
            return _(
                "This group's code and invitation link stopped working on %(when)s. "
                "Ask a member for the new one."
            ) % {"when": when}
        if self.invite_uses_left == 0:
            return _(
                "This group's code and invitation link have let in as many people as "
                "they allowed. Ask a member for the new one."
            )
        return ""

    def current_memberships(self) -> "models.QuerySet[Membership]":
        """Who belongs to the group now, oldest first, with their accounts."""
        return self.memberships.current().select_related("user")

    def has_member(self, user: "User") -> bool:
        return self.memberships.current().filter(user=user).exists()

    def keeper(self, members: "list[Membership] | None" = None) -> "User | None":
        """Who may remove a member: the person who started the group while they are in
        it, else whoever has been in it longest; None for a group with no member left.
        From ``members``, the current memberships oldest first, when the caller read
        them already, else in one query."""
        if members is None:
            members = list(self.current_memberships())
        for membership in members:
            if membership.user_id == self.created_by_id:
                return membership.user
        return members[0].user if members else None

    def nights_version(self) -> str:
        """The fingerprint of the group's nights (see :func:`nights_version`), read
        in one query: what the group page's poll compares."""
        return Group.objects.filter(pk=self.pk).nights_version() or nights_version(0, 0, 0)


def nights_version(count: int, versions: int, newest: int) -> str:
    """A fingerprint of a group's ``count`` nights whose versions add up to ``versions``
    and whose newest id is ``newest`` (``"3-57-12"``); it changes whenever a night
    starts, changes, ends or is called off. Every write bumps its night's version and
    ids are never used again, but a night called off (services/call_off.py) is deleted,
    taking its version out of the sum and its id out of the newest: with the count alone
    a night called off and another started would show the same numbers for different
    nights. The three together never repeat for different nights: the newest id is back
    where it was only once every newer night is gone, and then the same count means the
    same older nights, whose versions only went up."""
    return f"{count}-{versions}-{newest}"


class Membership(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    joined_at = models.DateTimeField(default=timezone.now)
    # A member who leaves keeps their row so their past results stay in the history.
    left_at = models.DateTimeField(null=True, blank=True)
    # Taken out by the group's keeper (left_at says when): the join code and its link
    # no longer bring this account back.
    removed = models.BooleanField(default=False)

    objects = MembershipQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "user"], name="one_membership_per_person"),
        ]
        ordering = ["joined_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user} in {self.group}"

    @property
    def is_current(self) -> bool:
        """In the group now, as :meth:`MembershipQuerySet.current` says of the row."""
        return self.left_at is None


class RetiredCode(models.Model):
    """A join code a group took back (a new link made): so the code, typed or opened
    as a link, says it was taken back rather than that it never was."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="+")
    code = models.CharField(max_length=TOKEN_LENGTH, unique=True)
    retired_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"a code {self.group} took back"
