"""A group's own seasons: a name and the day each starts."""

from django.db import models

from scorekeeper.models.groups import Group
from scorekeeper.models.name_keys import NameKeyField
from scorekeeper.models.titles import SEASON_NAME


class Season(models.Model):
    """A stretch of a group's nights under a name of its own ("Winter 2026"): from the
    day it starts until the day the group's next season starts (the last one runs on).
    A night belongs to the season of the day it started, in the local time zone.

    A group without seasons of its own is read by calendar year."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=SEASON_NAME.most)
    name_key = NameKeyField(longest=SEASON_NAME.most)  # models/name_keys.py
    starts_on = models.DateField()

    class Meta:
        ordering = ["starts_on"]
        constraints = [
            models.UniqueConstraint(fields=["name_key", "group"], name="season_names_unique"),
            models.UniqueConstraint(fields=["group", "starts_on"], name="one_season_a_day"),
        ]

    def __str__(self) -> str:
        return self.name
