"""Tables and the database constraints that no code path may break."""

import secrets
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone

from scorekeeper.ofc.games import PRESETS

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser


def new_invite_token() -> str:
    # 24 random bytes: 192 bits, well past the 128 an unguessable link needs.
    return secrets.token_urlsafe(24)


class UserManager(BaseUserManager):
    def get_by_natural_key(self, username: str) -> "User":
        # "tom" logs in as "Tom": names are unique ignoring case.
        return self.get(name__iexact=username)

    def create_user(self, name: str, password: str | None = None) -> "User":
        user = self.model(name=name)
        user.set_password(password)
        user.save(using=self._db)
        return user


class User(AbstractBaseUser):
    """A person: signs in with the same name the others see at the table."""

    name = models.CharField(max_length=30, unique=True)
    is_active = models.BooleanField(default=True)
    date_joined = models.DateTimeField(default=timezone.now)

    USERNAME_FIELD = "name"
    objects = UserManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("name"), name="user_name_unique_ignoring_case"),
        ]

    def __str__(self) -> str:
        return self.name


class GroupQuerySet(models.QuerySet):
    def for_member(self, user: "User | AnonymousUser") -> "GroupQuerySet":
        """The groups `user` belongs to now; anything else is a 404 by construction."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(memberships__user=user, memberships__left_at__isnull=True)


class Group(models.Model):
    name = models.CharField(max_length=60)
    invite_token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    currency = models.CharField(max_length=3, default="EUR")
    # What the last night was played with, offered as the next night's defaults.
    default_game = models.CharField(max_length=20, default="standard")
    default_rules = models.JSONField(default=dict, blank=True)
    default_point_cents = models.PositiveIntegerField(default=10)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = GroupQuerySet.as_manager()

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    joined_at = models.DateTimeField(default=timezone.now)
    # A member who leaves keeps their row so their past results stay in the history.
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "user"], name="one_membership_per_person"),
        ]
        ordering = ["joined_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user} in {self.group}"


class NightQuerySet(models.QuerySet):
    def for_member(self, user: "User | AnonymousUser") -> "NightQuerySet":
        if not user.is_authenticated:
            return self.none()
        return self.filter(group__memberships__user=user, group__memberships__left_at__isnull=True)


class Night(models.Model):
    """One evening at the table, from the first hand dealt to the settlement."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="nights")
    game = models.CharField(max_length=20)
    rules = models.JSONField(default=dict, blank=True)
    point_cents = models.PositiveIntegerField()
    currency = models.CharField(max_length=3)
    loss_cap_cents = models.PositiveIntegerField(null=True, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every write, so a phone's poll can tell "nothing changed" in one query.
    version = models.PositiveIntegerField(default=1)

    objects = NightQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.group} {self.started_at:%Y-%m-%d}"

    @property
    def is_over(self) -> bool:
        return self.ended_at is not None

    def is_at_table(self, user: "User", seats: "list[Seat] | None" = None) -> bool:
        """Whoever started the night or sits at it now may change the table itself
        (rounds, seats, its end); other members follow along. `seats` saves a query."""
        if self.started_by_id == user.pk:
            return True
        seats = list(self.seats.all()) if seats is None else seats
        return any(seat.user_id == user.pk and seat.last_round is None for seat in seats)

    @property
    def game_title(self) -> str:
        return PRESETS[self.game].name


class Seat(models.Model):
    """A place at the table for one night: a member, or a guest known by name only."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()  # clockwise order
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
    )
    name = models.CharField(max_length=30)
    first_round = models.PositiveIntegerField(default=1)
    last_round = models.PositiveIntegerField(null=True, blank=True)  # set when they leave

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["night", "position"], name="one_seat_per_place"),
            models.UniqueConstraint(
                fields=["night", "user"],
                condition=Q(user__isnull=False),
                name="one_seat_per_member",
            ),
            models.UniqueConstraint(Lower("name"), "night", name="seat_names_unique"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_guest(self) -> bool:
        return self.user_id is None

    def plays(self, number: int) -> bool:
        return self.first_round <= number and (self.last_round is None or number <= self.last_round)


class Round(models.Model):
    """One hand. Open while the totals come in; recorded once they add up to zero."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    dealer = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="+")
    # Who plays this hand in Fantasyland: {seat id: [cards, stays]}.
    fantasyland = models.JSONField(default=dict, blank=True)
    recorded_at = models.DateTimeField(null=True, blank=True)
    # Sum of the entries when recorded: the zero-sum rule as a constraint.
    recorded_sum = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="one_round_per_number"),
            models.CheckConstraint(
                condition=Q(recorded_at__isnull=True) | Q(recorded_sum=0),
                name="recorded_rounds_sum_to_zero",
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.number}"

    @property
    def is_recorded(self) -> bool:
        return self.recorded_at is not None


class Entry(models.Model):
    """One seat's result for one round, as entered from a phone."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="entries")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="entries")
    points = models.IntegerField()
    # The Fantasyland claim: an entry option key of the game ("QQ", "trips", ...) or "".
    fantasyland_made = models.CharField(max_length=20, blank=True)
    fantasyland_stayed = models.BooleanField(default=False)
    # Card entry: {"top": [...], "middle": [...], "bottom": [...]} or null for a total.
    board = models.JSONField(null=True, blank=True)
    # A board saved before its total is known: `points` is a 0 placeholder until
    # every seat's cards are in (the app counts) or a total is typed (mixed round).
    awaiting_total = models.BooleanField(default=False)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["seat__position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="one_entry_per_seat"),
            models.CheckConstraint(
                condition=Q(points__gte=-999) & Q(points__lte=999), name="points_in_range"
            ),
            models.CheckConstraint(
                condition=Q(awaiting_total=False) | (Q(board__isnull=False) & Q(points=0)),
                name="only_a_board_awaits_its_total",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seat} {self.points:+d}"


class RoundEdit(models.Model):
    """The history of a correction: who changed which totals, when."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="edits")
    edited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    edited_at = models.DateTimeField(default=timezone.now)
    # [[seat name, old points, new points], ...] for the seats that changed.
    changes = models.JSONField()
    # What happened besides changed totals, e.g. "reopened with undo".
    note = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ["edited_at", "pk"]

    def __str__(self) -> str:
        return f"edit of {self.round} by {self.edited_by}"


class Payment(models.Model):
    """A settlement payment someone marked as paid."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="payments")
    payer = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    payee = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    cents = models.PositiveIntegerField()
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    marked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["night", "payer", "payee", "cents"], name="payment_marked_once"
            ),
            models.CheckConstraint(condition=Q(cents__gt=0), name="payment_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.cents}"
