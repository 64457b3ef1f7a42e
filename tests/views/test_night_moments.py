"""The table's moments on the night page (issue 32): a round going through, a fix, an
undo, a seat and a leave said in words on every phone; "Deal me in"; Fantasyland and
the button in words; the actions in order of use; the end of the night landing on the
settlement; a fix with +/− and its running sum."""

import re

import pytest
from django.urls import reverse

from scorekeeper.models import User
from scorekeeper.services.groups import join_group
from scorekeeper.services.round_fixes import edit_round, undo_last_round
from scorekeeper.services.seats import add_seat, leave_seat
from tests.helpers import make_user, play, play_round, seats_of

pytestmark = pytest.mark.django_db


def page(client, night) -> str:
    return client.get(reverse("night_detail", args=[night.pk])).content.decode()


def moments(body: str) -> list[str]:
    return [
        re.sub(r"\s+", " ", text).strip()
        for text in re.findall(r'data-testid="moment">(.*?)</li>', body, re.S)
    ]


def test_a_round_that_went_through_is_news_on_every_phone(login, make_night):
    night = make_night(("Anna", "Bram", "Chris"))
    play(night, {"Anna": 6, "Bram": 3, "Chris": -9})
    for name in ("Anna", "Chris"):
        body = page(login(name), night)
        assert moments(body) == ["Round 1 went through · Anna +6 · Bram +3 · Chris −9"]
    # The standings mark what the round changed, beside each total.
    assert re.search(r'data-testid="change"><span class="sr-only">last round</span> \+6', body)
    # Chris saved last: his own phone does not buzz for the round he completed.
    chris = login("Chris")
    assert "data-mine" in page(chris, night)
    assert "data-mine" not in page(login("Anna"), night)


def test_a_fix_an_undo_a_seat_and_a_leave_are_news(login, make_night):
    night = make_night(("Anna", "Bram", "Chris"))
    anna = User.objects.get(name="Anna")
    play(night, {"Anna": 2, "Bram": 2, "Chris": -4})
    play(night, {"Anna": 1, "Bram": 1, "Chris": -2})
    seats = seats_of(night)
    edit_round(
        night=night,
        number=1,
        points={seats["Anna"].pk: 2, seats["Bram"].pk: 5, seats["Chris"].pk: -7},
        edited_by=anna,
    )
    dan = make_user("Dan")
    join_group(group=night.group, user=dan)
    add_seat(night=night, by=anna, user=dan, position=4)
    leave_seat(night=night, seat=seats["Bram"], by=anna)
    assert moments(page(login("Chris"), night)) == [
        "Round 2 went through · Anna +1 · Bram +1 · Chris −2",
        "Anna fixed round 1: Bram +2 → +5 and Chris −4 → −7.",
        "Bram left after round 2.",
        "Dan plays from round 4.",
    ]
    # Undo takes the last round back: the news says who did.
    other = make_night(("Cleo", "Dora"))
    play(other, {"Cleo": 1, "Dora": -1}, {"Cleo": 2, "Dora": -2})
    undo_last_round(night=other, by=User.objects.get(name="Dora"))
    assert moments(page(login("Cleo"), other)) == [
        "Round 1 went through · Cleo +1 · Dora −1",
        "Dora undid round 2.",
    ]


def test_the_poll_brings_the_news_out_of_band_and_stays_cheap(login, make_night):
    night = make_night(("Anna", "Bram"))
    client = login("Anna")
    url = reverse("night_live", args=[night.pk])
    night.refresh_from_db()
    assert client.get(url, {"version": night.version, "round": 1}).status_code == 204
    play(night, {"Anna": 3, "Bram": -3})
    body = client.get(url, {"version": 1, "round": 1}).content.decode()
    assert 'id="news" class="news" hx-swap-oob="true"' in body
    assert moments(body) == ["Round 1 went through · Anna +3 · Bram −3"]


def test_deal_me_in_seats_a_member_from_the_next_hand(login, make_night):
    night = make_night(("Anna", "Bram", "Chris"))
    play(night, {"Anna": 1, "Bram": 1, "Chris": -2})
    dan = make_user("Dan")
    join_group(group=night.group, user=dan)
    client = login("Dan")
    body = page(client, night)
    assert "You are not in this round." in body
    assert "Deal me in from the next hand" in body
    response = client.post(reverse("seat_deal_me_in", args=[night.pk]), follow=True)
    body = response.content.decode()
    assert "You are dealt in from round 3." in body
    assert "You play from round 3. You can follow along until then." in body
    assert "Waiting for Anna, Bram, and Chris." in body  # not for Dan
    assert "Dan plays from round 3." in moments(page(login("Anna"), night))
    seat = night.seats.get(name="Dan")
    assert seat.first_round == 3 and seat.user == dan


def test_deal_me_in_at_a_full_table_is_refused_in_words(login, make_night):
    night = make_night(("Anna", "Bram", "Chris"), game="pineapple")
    join_group(group=night.group, user=make_user("Dora"))
    response = login("Dora").post(reverse("seat_deal_me_in", args=[night.pk]), follow=True)
    assert "Pineapple takes at most 3 players." in response.content.decode()
    assert not night.seats.filter(name="Dora").exists()


def test_fantasyland_and_the_button_are_said_in_words(login, make_night):
    night = make_night(("Anna", "Bram", "Chris"), game="pineapple")
    play_round(night, {"Anna": 10, "Bram": 5, "Chris": -15}, Anna={"fantasyland_made": "qq+"})
    body = page(login("Bram"), night)
    dealer = night.rounds.get(number=2).dealer.name
    assert f"The button stays with {dealer}: Anna plays Fantasyland (14 cards)." in body
    assert "FL · 14 cards" in body
    assert "(14)" not in body


def test_the_entry_options_say_their_cards(login, make_night):
    night = make_night(game="progressive")
    body = page(login("Anna"), night)
    assert "(14 cards)" in body and "(17 cards)" in body


def test_the_actions_go_in_order_of_use(login, make_night):
    night = make_night(("Anna", "Bram", "Chris"))
    play(night, {"Anna": 1, "Bram": 1, "Chris": -2})
    body = page(login("Anna"), night)
    actions = body[body.index('id="actions"') :]
    reach, rest = actions.split('<details class="more"', 1)
    more, end = rest.split('class="end-night"', 1)
    for label in ("Rounds · fix a round", "Big screen", "Add a player", "Someone leaves"):
        assert label in more, label
    assert "The night's rules" in more
    assert "Anna leaves" in more and "End the night" not in more
    # Undo and Settle stay in reach, before More; End the night comes last, apart,
    # and asks first.
    assert "Undo last round" in reach and "Settle" in reach
    assert "Rounds · fix a round" not in reach
    assert 'data-confirm="End the night?' in end and ">End the night</button>" in end


def test_call_off_is_under_more_before_the_first_round(login, make_night):
    night = make_night(("Anna", "Bram"))
    client = login("Anna")
    assert "Call off this night" in page(client, night)
    play(night, {"Anna": 1, "Bram": -1})
    assert "Call off this night" not in page(client, night)


def test_ending_the_night_lands_on_the_settlement(login, make_night):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 1, "Bram": -1})
    response = login("Anna").post(reverse("night_end", args=[night.pk]))
    assert response.status_code == 302
    assert response.url == reverse("night_settle", args=[night.pk])
    body = login("Anna").get(response.url).content.decode()
    assert "The night is over. Here is who pays whom." in body


def test_a_fix_has_plus_minus_buttons_and_a_running_sum(login, make_night):
    night = make_night(("Anna", "Bram"))
    play(night, {"Anna": 4, "Bram": -4})
    client = login("Anna")
    url = reverse("round_edit", args=[night.pk, 1])
    body = client.get(url).content.decode()
    assert body.count("data-flip-sign=") == 2
    assert 'data-testid="fix-sum"' in body and "The totals add up to zero." in body
    assert "ofcboard/sum." in body
    seats = seats_of(night)
    state = re.search(r'name="state" value="([^"]+)"', body).group(1)
    body = client.post(
        url, {"state": state, f"points_{seats['Anna'].pk}": "7", f"points_{seats['Bram'].pk}": "-4"}
    ).content.decode()
    assert "3 points too many" in body  # the server's check stays the authority
