"""The record of changes (issue 33): each change to a night or to a group's money, kept
as a kind and its values, put into words where it is shown."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0017_sign_in_codes"),
    ]

    operations = [
        migrations.CreateModel(
            name="Change",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("night_started", "Night Started"),
                            ("total_for", "Total For"),
                            ("board_for", "Board For"),
                            ("round_fixed", "Round Fixed"),
                            ("round_undone", "Round Undone"),
                            ("seat_added", "Seat Added"),
                            ("seat_back", "Seat Back"),
                            ("dealt_in", "Dealt In"),
                            ("seat_left", "Seat Left"),
                            ("night_rules", "Night Rules"),
                            ("night_ended", "Night Ended"),
                            ("screen_shared", "Screen Shared"),
                            ("screen_stopped", "Screen Stopped"),
                            ("paid", "Paid"),
                            ("unpaid", "Unpaid"),
                            ("night_called_off", "Night Called Off"),
                            ("owed_paid", "Owed Paid"),
                            ("owed_undone", "Owed Undone"),
                            ("settle_everything_on", "Settle Everything On"),
                            ("settle_everything_off", "Settle Everything Off"),
                            ("house_rules", "House Rules"),
                            ("currency", "Currency"),
                            ("group_created", "Group Created"),
                            ("joined", "Joined"),
                            ("left", "Left"),
                            ("pay_details", "Pay Details"),
                            ("nights_imported", "Nights Imported"),
                        ],
                        max_length=30,
                    ),
                ),
                ("values", models.JSONField(blank=True, default=dict)),
                (
                    "by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "group",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="changes",
                        to="scorekeeper.group",
                    ),
                ),
                (
                    "night",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="changes",
                        to="scorekeeper.night",
                    ),
                ),
            ],
            options={
                "ordering": ["-at", "-pk"],
                "indexes": [
                    models.Index(fields=["group", "-at", "-id"], name="change_group_newest"),
                    models.Index(fields=["night", "-at", "-id"], name="change_night_newest"),
                ],
            },
        ),
    ]
