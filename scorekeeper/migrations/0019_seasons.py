"""A group's own seasons (issue 33): a name and the day each starts."""

import django.db.models.deletion
import django.db.models.functions.text
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0018_change_records"),
    ]

    operations = [
        migrations.CreateModel(
            name="Season",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=40)),
                ("starts_on", models.DateField()),
                (
                    "group",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seasons",
                        to="scorekeeper.group",
                    ),
                ),
            ],
            options={
                "ordering": ["starts_on"],
                "constraints": [
                    models.UniqueConstraint(
                        django.db.models.functions.text.Lower("name"),
                        models.F("group"),
                        name="season_names_unique",
                    ),
                    models.UniqueConstraint(fields=("group", "starts_on"), name="one_season_a_day"),
                ],
            },
        ),
    ]
