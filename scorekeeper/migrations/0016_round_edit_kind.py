"""A round's correction says what it was as a kind ("fix" or "undo"), put into words
where it is shown, instead of an English note: the notes written so far ("reopened with
undo", the only one the app wrote) become kinds."""

from django.db import migrations, models

UNDO_NOTE = "reopened with undo"


def notes_to_kinds(apps, schema_editor):
    RoundEdit = apps.get_model("scorekeeper", "RoundEdit")
    RoundEdit.objects.filter(note=UNDO_NOTE).update(kind="undo")


def kinds_to_notes(apps, schema_editor):
    RoundEdit = apps.get_model("scorekeeper", "RoundEdit")
    RoundEdit.objects.filter(kind="undo").update(note=UNDO_NOTE)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0015_pay_details_iban_compact"),
    ]

    operations = [
        migrations.AddField(
            model_name="roundedit",
            name="kind",
            field=models.CharField(
                choices=[("fix", "Fix"), ("undo", "Undo")], default="fix", max_length=10
            ),
        ),
        migrations.RunPython(notes_to_kinds, kinds_to_notes),
        migrations.RemoveField(model_name="roundedit", name="note"),
    ]
