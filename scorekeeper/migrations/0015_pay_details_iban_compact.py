# Kept IBANs as the app keeps them now: compact and in capitals, however they were typed.

# Frozen: what scorekeeper.table.paying.compact_iban did when this migration was
# written, copied here so that later changes to it never change what this migration
# stores, nor break it. Never import live code into this file; never edit this copy.

import re

from django.db import migrations


def compact_iban(value: str) -> str:
    return re.sub(r"[\s.-]", "", value).upper()


def compact(apps, schema_editor):
    PayDetails = apps.get_model("scorekeeper", "PayDetails")
    for details in PayDetails.objects.exclude(iban="").only("pk", "iban"):
        kept = compact_iban(details.iban)
        if kept != details.iban:
            PayDetails.objects.filter(pk=details.pk).update(iban=kept)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0014_entry_card_result"),
    ]

    operations = [
        migrations.RunPython(compact, migrations.RunPython.noop),
    ]
