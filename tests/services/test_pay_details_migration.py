"""Migration 0015 keeps the IBANs saved before it as the app keeps them now: compact
and in capitals, whatever spaces, tabs and lower case they were typed with."""

import pytest

from tests.helpers import migrate_app

pytestmark = pytest.mark.database

BEFORE = ("scorekeeper", "0014_entry_card_result")
AFTER = ("scorekeeper", "0015_pay_details_iban_compact")


@pytest.mark.django_db(transaction=True)
def test_the_ibans_kept_as_typed_are_kept_compact_in_capitals():
    old = migrate_app(BEFORE)
    User = old.get_model("scorekeeper", "User")
    PayDetails = old.get_model("scorekeeper", "PayDetails")
    typed = {
        "Anna": "nl91 abna\t0417 1643 00",
        "Bram": "DE89 3704 0044 0532 0130 00",
        "Chris": "",
        "Dirk": "NL91ABNA0417164300",
    }
    for name, iban in typed.items():
        user = User.objects.create(name=name, password="!")
        PayDetails.objects.create(user=user, iban=iban, holder=name if iban else "")

    new = migrate_app(AFTER)
    kept = dict(
        new.get_model("scorekeeper", "PayDetails").objects.values_list("user__name", "iban")
    )
    assert kept == {
        "Anna": "NL91ABNA0417164300",
        "Bram": "DE89370400440532013000",
        "Chris": "",
        "Dirk": "NL91ABNA0417164300",
    }
    migrate_app()
