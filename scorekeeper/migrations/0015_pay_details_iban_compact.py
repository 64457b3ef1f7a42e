# Kept IBANs as the app keeps them now: compact and in capitals, however they were typed.

from django.db import migrations


def compact(apps, schema_editor):
    # The same function the app checks and keeps IBANs with (scorekeeper.table.paying).
    from scorekeeper.table.paying import compact_iban

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
