"""The unique constraints hold the name keys apart (filled by 0025) instead of the
names in small letters."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0025_name_keys"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="user", name="user_name_unique_ignoring_case"),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                fields=["name_key"], name="user_name_unique_ignoring_case"
            ),
        ),
        migrations.RemoveConstraint(model_name="seat", name="seat_names_unique"),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(
                fields=["name_key", "night"], name="seat_names_unique"
            ),
        ),
        migrations.RemoveConstraint(model_name="season", name="season_names_unique"),
        migrations.AddConstraint(
            model_name="season",
            constraint=models.UniqueConstraint(
                fields=["name_key", "group"], name="season_names_unique"
            ),
        ),
    ]
