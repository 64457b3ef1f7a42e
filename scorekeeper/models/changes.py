"""The record of changes: each change to a night or to a group's money, who made it
and when, kept as a kind and its values (names and numbers, never words), put into
the reader's language where it is shown (:mod:`scorekeeper.reads.changes`).

Written only by the doors' recorder (:mod:`scorekeeper.services.locks`), inside the
same transaction as the change it records.
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from scorekeeper.models.groups import Group
from scorekeeper.models.nights import Night

# An import may be taken back by whoever made it within this long of it
# (scorekeeper.services.import_take_back); after that its nights are history.
TAKE_BACK_WITHIN = timedelta(days=1)


class Change(models.Model):
    """One change on the record of a group (and of a night, while the night exists)."""

    class Kind(models.TextChoices):
        """What changed; each kind is one sentence where it is shown. The values each
        kind keeps are listed in :data:`scorekeeper.reads.changes.SENTENCES`."""

        # A night
        NIGHT_STARTED = "night_started"
        TOTAL_FOR = "total_for"
        BOARD_FOR = "board_for"
        ROUND_FIXED = "round_fixed"
        ROUND_UNDONE = "round_undone"
        ROUND_THROUGH_AGAIN = "round_through_again"
        SEAT_ADDED = "seat_added"
        SEAT_BACK = "seat_back"
        DEALT_IN = "dealt_in"
        SEAT_LEFT = "seat_left"
        NIGHT_RULES = "night_rules"
        NIGHT_ENDED = "night_ended"
        SCREEN_SHARED = "screen_shared"
        SCREEN_STOPPED = "screen_stopped"
        PAID = "paid"
        UNPAID = "unpaid"
        NIGHT_CALLED_OFF = "night_called_off"
        # The group's money and who belongs
        OWED_PAID = "owed_paid"
        OWED_UNDONE = "owed_undone"
        SETTLE_EVERYTHING_ON = "settle_everything_on"
        SETTLE_EVERYTHING_OFF = "settle_everything_off"
        HOUSE_RULES = "house_rules"
        CURRENCY = "currency"
        GROUP_CREATED = "group_created"
        JOINED = "joined"
        LEFT = "left"
        PAY_DETAILS = "pay_details"
        NIGHTS_IMPORTED = "nights_imported"
        IMPORT_TAKEN_BACK = "import_taken_back"
        MEMBER_REMOVED = "member_removed"
        SEASON_ADDED = "season_added"
        SEASON_REMOVED = "season_removed"
        INVITE_LINK_REPLACED = "invite_link_replaced"
        # Who is signed in as whom: on the record of every group the person is in
        SIGNED_IN_BY_CODE = "signed_in_by_code"
        PASSWORD_SET = "password_set"
        PHONE_SIGNED_OUT = "phone_signed_out"

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="changes")
    # Kept when the night is called off (deleted): the change stays on the group's record.
    night = models.ForeignKey(
        Night, on_delete=models.SET_NULL, null=True, blank=True, related_name="changes"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    kind = models.CharField(max_length=30, choices=Kind.choices)
    values = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [
            models.Index(fields=["group", "-at", "-id"], name="change_group_newest"),
            models.Index(fields=["night", "-at", "-id"], name="change_night_newest"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} by {self.by_id} at {self.at}"

    @property
    def import_still_takeable(self) -> bool:
        """An import made within :data:`TAKE_BACK_WITHIN` (no query)."""
        return (
            self.kind == self.Kind.NIGHTS_IMPORTED and timezone.now() - self.at <= TAKE_BACK_WITHIN
        )
