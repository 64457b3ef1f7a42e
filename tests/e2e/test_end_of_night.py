"""The end of a night on a phone: end it, open the settlement, mark a payment paid."""

from playwright.sync_api import expect

from scorekeeper.models import Payment, User
from tests.helpers import play, rounds_of


def test_end_the_night_settle_up_and_mark_a_payment_paid(make_night, log_in_phone):
    # Four rounds are played at the table: Anna +15, Bram -3, Chris -12 at 10 ct a point.
    night = play(make_night(), *rounds_of(4))
    page = log_in_phone(User.objects.get(name="Bram"))
    page.on("dialog", lambda dialog: dialog.accept())  # "End the night?"

    # The night page already draws the running totals.
    page.goto(f"/nights/{night.pk}/")
    expect(page.locator("#live svg.ofc-chart")).to_be_visible()
    expect(page.locator("#live svg.ofc-chart")).to_contain_text("Anna +15")

    # Bram ends the night from his phone: it lands on the settlement.
    page.get_by_role("button", name="End the night").click()
    expect(page.get_by_role("heading", name="Who pays whom")).to_be_visible()

    # The settlement: his own line first, in words, then the others, with the chart.
    payments = page.locator("[data-testid=payments] li")
    expect(payments).to_have_count(2)
    expect(payments.nth(0)).to_contain_text("You pay Anna €0.30")
    expect(payments.nth(1)).to_contain_text("Chris pays Anna €1.20")
    expect(page.get_by_role("heading", name="The others")).to_be_visible()
    expect(page.locator("[data-testid=settlement] svg.ofc-chart")).to_be_visible()
    share = page.locator("#share-text").input_value()
    assert share.startswith("Friday OFC") and "Bram → Anna €0.30" in share
    # Nothing sticks out sideways at 390 px.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # Bram pays Anna and marks it.
    payments.nth(0).get_by_role("button", name="Mark paid").click()
    paid = page.locator("[data-testid=payments] li.paid")
    expect(paid).to_contain_text("You pay Anna €0.30")
    expect(paid).to_contain_text("Paid ✓")
    expect(paid).to_contain_text("Marked by Bram.")
    payment = Payment.objects.get()
    assert (payment.payer.name, payment.payee.name, payment.cents) == ("Bram", "Anna", 30)

    # The copy button is there for the group chat.
    expect(page.get_by_role("button", name="Copy as text")).to_be_visible()
