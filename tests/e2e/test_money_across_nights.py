"""Money across nights on a phone: a payment left unpaid is still owed on the group
page next time, and marking it paid there clears it."""

from playwright.sync_api import expect

from scorekeeper.models import User
from scorekeeper.models.payments import TabPayment
from tests.helpers import finish, make_night, play


def test_a_payment_left_unpaid_is_owed_on_the_group_page_until_marked_paid(db, log_in_phone):
    # Night one: Bram loses 5 points at 10 ct; night two: Anna loses 3 points at 50 ct.
    first = finish(play(make_night(("Anna", "Bram")), {"Anna": 5, "Bram": -5}))
    second = make_night(("Anna", "Bram"), group=first.group, point_cents=50)
    finish(play(second, {"Anna": -3, "Bram": 3}))
    page = log_in_phone(User.objects.get(name="Bram"))

    # Bram pays his 50 ct on night one's settlement; night two's €1.50 stays unpaid.
    page.goto(f"/nights/{first.pk}/settle/")
    page.get_by_role("button", name="Mark paid").click()
    expect(page.locator("[data-testid=payments] li.paid")).to_contain_text("Paid ✓")

    # The group page: what is still owed, across both nights, in money.
    page.goto(f"/groups/{first.group_id}/")
    owed = page.locator("[data-testid=owed-payment]")
    expect(owed).to_have_count(1)
    expect(owed.first).to_contain_text("Anna → Bram")
    expect(owed.first).to_contain_text("€1.50")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # Anna hands Bram €1.50 and Bram marks it paid: nothing is owed any more.
    owed.first.get_by_role("button", name="Mark paid").click()
    expect(page.locator("[data-testid=owed]")).to_contain_text("Nobody owes anything")
    expect(page.get_by_role("status").first).to_contain_text("Anna paid Bram €1.50: marked.")
    tab = TabPayment.objects.get()
    assert (tab.payer_name, tab.payee_name, tab.cents) == ("Anna", "Bram", 150)
    assert {(part.seat.night_id, part.cents) for part in tab.parts.all()} == {
        (second.pk, 150),
        (second.pk, -150),
    }
