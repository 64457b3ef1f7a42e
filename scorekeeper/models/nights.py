"""A night at the table: its seats, its rounds, each seat's entry, and corrections."""

from functools import cached_property
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from scorekeeper.converters import TOKEN_LENGTH, is_link_token
from scorekeeper.models.boards import MAX_POINTS, player_board
from scorekeeper.models.groups import Group, MemberQuerySet, Membership
from scorekeeper.models.name_keys import NameKeyField
from scorekeeper.ofc import PRESETS, FantasylandState, Game, PlayerBoard

if TYPE_CHECKING:
    from collections.abc import Iterable

    from scorekeeper.models.accounts import User


class NightQuerySet(MemberQuerySet):
    group_path = "group__"

    def running(self) -> "NightQuerySet":
        """Nights not ended yet."""
        return self.filter(ended_at__isnull=True)

    def shared(self, token: str) -> "NightQuerySet":
        """The night a big screen's shared link with ``token`` shows, to anyone holding
        it: none for a token taken back, or of a shape no token is made in (which never
        reaches the database)."""
        if not is_link_token(token):
            return self.none()
        return self.filter(screen_token=token)


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
    # A read-only link to the night's big screen (a tablet or TV on the table), if shared
    # (made by new_link_token, opened through Night.objects.shared).
    screen_token = models.CharField(max_length=TOKEN_LENGTH, unique=True, null=True, blank=True)
    # A night brought in from a file (scorekeeper.services.imports): when, by whoever
    # started it, and the fingerprint of the import it came in with, which takes the
    # whole import back together (scorekeeper.services.import_take_back). Else null, "".
    imported_at = models.DateTimeField(null=True, blank=True)
    imported_from = models.CharField(max_length=32, blank=True, default="", db_index=True)

    objects = NightQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.group} {self.started_at:%Y-%m-%d}"

    @property
    def is_over(self) -> bool:
        return self.ended_at is not None

    @cached_property
    def game_rules(self) -> Game:
        """The game this night plays: its preset with the night's house rules applied."""
        return PRESETS[self.game].with_house_rules(self.rules)

    @property
    def game_title(self) -> str:
        return PRESETS[self.game].name

    def is_at_table(self, user: "User", seats: "list[Seat] | None" = None) -> bool:
        """Whoever started the night or sits at it now may change the table itself
        (rounds, seats, its end); other members follow along. `seats` saves a query."""
        if self.started_by_id == user.pk:
            return True
        seats = list(self.seats.all()) if seats is None else seats
        return any(seat.user_id == user.pk and seat.last_round is None for seat in seats)

    def may_mark_between(self, user: "User", payer: "Seat", payee: "Seat") -> bool:
        """Whether ``user`` may mark a payment from ``payer`` to ``payee`` paid, or take
        the mark back: its payer or its payee. A guest has no phone of their own, so
        whoever started the night speaks for a guest's side (no queries)."""
        return any(
            seat.user_id == user.pk or (seat.is_guest and self.started_by_id == user.pk)
            for seat in (payer, payee)
        )

    def has_member(self, user: "User") -> bool:
        """Whether ``user`` belongs to the night's group now: who may follow the night
        and mark its payments (one query; the group itself is not loaded)."""
        return Membership.objects.current().filter(group_id=self.group_id, user=user).exists()

    def open_round(self) -> "Round | None":
        """The round being played, with its dealer (and who reopened it, if anyone),
        or None once the night is over."""
        return (
            self.rounds.filter(recorded_at__isnull=True)
            .select_related("dealer", "reopened_by")
            .order_by("-number")
            .first()
        )

    def playing_seats(self, number: int) -> "list[Seat]":
        """The seats dealt into round ``number``, in clockwise order."""
        return [seat for seat in self.seats.all() if seat.plays(number)]


class SeatQuerySet(models.QuerySet["Seat"]):
    def with_left(self) -> "SeatQuerySet":
        """Each seat with ``left``: its member has left the night's group since, so
        the name is shown with a "left" mark (in the same query)."""
        former = Membership.objects.former().filter(
            group_id=OuterRef("night__group_id"), user_id=OuterRef("user_id")
        )
        return self.annotate(left=Exists(former))


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
    name_key = NameKeyField(longest=30)  # models/name_keys.py
    first_round = models.PositiveIntegerField(default=1)
    last_round = models.PositiveIntegerField(null=True, blank=True)  # set when they leave
    # What the recorded rounds come to, stored by scorekeeper.services.money whenever a
    # round is recorded, fixed or undone, the night ends or a payment is marked or taken
    # back, so the history and what is owed read them instead of working them out again.
    points = models.IntegerField(default=0)
    rounds_played = models.PositiveIntegerField(default=0)
    fantasylands = models.PositiveIntegerField(default=0)  # hands that made Fantasyland
    cents = models.IntegerField(default=0)  # the seat's money, after the night's loss cap
    # ``cents`` less what was marked paid on the night and what payments across
    # nights cleared of it: + still owed to them, - they still owe.
    unpaid_cents = models.IntegerField(default=0)

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["night", "position"], name="one_seat_per_place"),
            models.UniqueConstraint(
                fields=["night", "user"],
                condition=Q(user__isnull=False),
                name="one_seat_per_member",
            ),
            models.UniqueConstraint(fields=["name_key", "night"], name="seat_names_unique"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_guest(self) -> bool:
        return self.user_id is None

    def plays(self, number: int) -> bool:
        return self.first_round <= number and (self.last_round is None or number <= self.last_round)

    def absence(self, number: int) -> str:
        """Why this seat has no hand in round ``number``, or "" when it plays it."""
        if self.last_round is not None and number > self.last_round:
            return gettext("%(name)s has left the table.") % {"name": self.name}
        if number < self.first_round:
            return gettext("%(name)s joined the table in round %(number)d.") % {
                "name": self.name,
                "number": self.first_round,
            }
        return ""

    def entry_refusal(self, by: "User", playing: "list[Seat]", existing: "Entry | None") -> str:
        """Why ``by`` may not enter (or change) this seat's total, or "" when they may.

        The one rule for the service that saves and the page that offers the button:
        your own seat always; another seat only if you play this round, and a
        member's saved total only if you typed it (a guest's, anyone at the table).
        """
        if self.user_id == by.pk:
            return ""
        if not any(other.user_id == by.pk for other in playing):
            return gettext("Only players seated in this round can enter totals.")
        if existing is not None and not self.is_guest and existing.entered_by_id != by.pk:
            return gettext("%(name)s already has an entry; only they can change it.") % {
                "name": self.name
            }
        return ""


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
    # Who took the round back with "undo", so every phone can say who reopened it.
    reopened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

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
    def fantasyland_seats(self) -> dict[int, FantasylandState]:
        """Who plays this hand in Fantasyland, by seat id."""
        return {
            int(seat_id): FantasylandState(*value) for seat_id, value in self.fantasyland.items()
        }

    def player_boards(self, entries: "Iterable[Entry]") -> list[PlayerBoard]:
        """The boards of ``entries`` (each with its seat) as the engine reads them."""
        fantasyland = self.fantasyland_seats
        return [entry.player_board(fantasyland.get(entry.seat_id)) for entry in entries]

    @property
    def is_recorded(self) -> bool:
        return self.recorded_at is not None

    def since_undo(self, entries: "Iterable[Entry]") -> tuple[str, list["Entry"]]:
        """How the table looked at this round again since it was last reopened with
        undo: ("", []) when it never was, ("changed", []) once a total was changed
        since, ("confirmed", []) once every entry was saved again, and ("waiting", the
        entries not saved again yet) before that. Undo is for the table to look again,
        so a reopened round goes through again only once changed or confirmed."""
        undo = self.edits.filter(kind=RoundEdit.Kind.UNDO).order_by("-pk").first()
        if undo is None:
            return "", []
        if self.edits.filter(pk__gt=undo.pk).exclude(kind=RoundEdit.Kind.UNDO).exists():
            return "changed", []
        waiting = [entry for entry in entries if entry.updated_at < undo.edited_at]
        return ("waiting", waiting) if waiting else ("confirmed", [])


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
    # Made on the phone for one intended save and sent again by every retry, so a save
    # whose answer was lost on the Wi-Fi is recognised and never written twice.
    # "" for a save from a page without JavaScript.
    client_key = models.CharField(max_length=64, blank=True, default="")
    # The keys of the saves this entry was changed from since (the latest last), so
    # that one of them sent again late (kept on a phone whose answer was lost) is
    # known and never writes its older value over the newer one.
    earlier_keys = models.JSONField(default=list, blank=True)
    # The board as the engine scored it with the round's other boards (a CardResult),
    # stored by scorekeeper.services.card_results when the round is recorded and
    # cleared when it is undone, so a player's record reads it instead of scoring
    # every board they ever set again. Null for a total, and until the round goes through.
    card_result = models.JSONField(null=True, blank=True)

    EARLIER_KEYS_KEPT = 20

    class Meta:
        ordering = ["seat__position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="one_entry_per_seat"),
            models.UniqueConstraint(
                fields=["client_key"], condition=~Q(client_key=""), name="one_entry_per_client_key"
            ),
            models.CheckConstraint(
                condition=Q(points__gte=-MAX_POINTS) & Q(points__lte=MAX_POINTS),
                name="points_in_range",
            ),
            models.CheckConstraint(
                condition=Q(awaiting_total=False) | (Q(board__isnull=False) & Q(points=0)),
                name="only_a_board_awaits_its_total",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seat} {self.points:+d}"

    def with_key(self, key: str) -> list[str]:
        """``earlier_keys`` once this entry carries ``key`` instead of its own."""
        if not self.client_key or self.client_key == key:
            return list(self.earlier_keys)
        return [*self.earlier_keys, self.client_key][-self.EARLIER_KEYS_KEPT :]

    def player_board(self, fantasyland: FantasylandState | None = None) -> PlayerBoard:
        """The stored cards as the engine's :class:`PlayerBoard`, named for the seat."""
        return player_board(self.seat.name, self.board, fantasyland)


class RoundEdit(models.Model):
    """The history of a correction: who changed which totals, when."""

    class Kind(models.TextChoices):
        """What the correction was: totals fixed (on the fix page, or entered again in
        a round reopened), or the round reopened with undo. Put into words where shown."""

        FIX = "fix", gettext_lazy("Fix")
        UNDO = "undo", gettext_lazy("Undo")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="edits")
    edited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    edited_at = models.DateTimeField(default=timezone.now)
    # [[seat name, old points, new points], ...] for the seats that changed: none for
    # an undo, which changes no total (blank is a valid value, so a restore's checks,
    # which run the model's field checks, take it).
    changes = models.JSONField(blank=True)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.FIX)

    class Meta:
        ordering = ["edited_at", "pk"]

    def __str__(self) -> str:
        return f"edit of {self.round} by {self.edited_by}"
