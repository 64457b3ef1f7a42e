"""Every page state of a real night, checked by axe-core at WCAG 2.2 AA.

The night is built once through the services; one browser page then visits each
state in each language (the account's language, switched in the database) and in
both colour schemes (emulated, without loading the page again). The night page after
an undo is reached by pressing Undo on the phone, so its one-off message is checked
too.
"""

import time

import pytest
from django.conf import settings
from django.urls import reverse

from scorekeeper.models import User
from scorekeeper.models.pay_details import PayDetails
from tests.e2e.axe import load_axe, problems
from tests.e2e.conftest import PHONE
from tests.helpers import (
    PASSWORD,
    enter,
    finish,
    make_group,
    make_night,
    play,
    seats_of,
    set_cards,
)

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ("Anna", "Bram", "Cora")
ANNA = ("2c 3d 4h", "Qs Qd 5c 5d 9s", "Ah Jh 8h 6h 3h")  # a flush bottom: royalties 4
BRAM = ("Kc Kd 7s", "As Ad 9c 6d 2s", "Ts Td 4s 4c Js")  # kings on top: royalties 8
CORA = ("Qc Qh 2d", "7c 8d 9h Jd 2h", "6s 6c Kh Ks 3s")  # fouled
LANGUAGES = [code for code, _ in settings.LANGUAGES]
SCHEMES = ("light", "dark")


def night_in_new_group(name):
    group = make_group(name, members=PLAYERS)
    return make_night(PLAYERS, group=group)


def build_states():
    """The page states, by name: (address, who sees it)."""
    first = make_group("Friday OFC", members=PLAYERS)
    empty = make_night(PLAYERS, group=first)

    sum_off = night_in_new_group("Sum off")
    enter(sum_off, "Anna", 5)
    enter(sum_off, "Bram", -1)
    enter(sum_off, "Cora", -2)

    after_round = play(night_in_new_group("A round"), {"Anna": 4, "Bram": -1, "Cora": -3})

    cards = night_in_new_group("Cards")
    set_cards(cards, "Anna", *ANNA)
    set_cards(cards, "Bram", *BRAM)
    counted = night_in_new_group("Counted")
    for name, board in zip(PLAYERS, (ANNA, BRAM, CORA), strict=True):
        set_cards(counted, name, *board)

    done = play(night_in_new_group("Settled"), {"Anna": 6, "Bram": -2, "Cora": -4})
    finish(done)

    anna = User.objects.get(name="Anna")
    # Anna is paid by bank, so the settlement's lines to her show the payment code.
    PayDetails.objects.create(user=anna, iban="NL91ABNA0417164300", holder="Anna")
    seat = seats_of(cards)["Anna"]
    counted_seat = seats_of(counted)["Anna"]
    return {
        "login": (reverse("login"), None),
        "join": (reverse("join", args=[first.invite_token]), None),
        "404": ("/no-such-page/", None),
        "group": (reverse("group_detail", args=[first.pk]), anna),
        "start a night": (reverse("night_start", args=[done.group.pk]), anna),
        "night, empty": (reverse("night_detail", args=[empty.pk]), anna),
        "night, sum off": (reverse("night_detail", args=[sum_off.pk]), anna),
        "night, after a round": (reverse("night_detail", args=[after_round.pk]), anna),
        "cards placed": (reverse("board_entry", args=[cards.pk, 1, seat.pk]), anna),
        "cards counted": (reverse("board_entry", args=[counted.pk, 1, counted_seat.pk]), anna),
        "rounds": (reverse("night_rounds", args=[after_round.pk]), anna),
        "fix": (reverse("round_edit", args=[after_round.pk, 1]), anna),
        "settlement": (reverse("night_settle", args=[done.pk]), anna),
        "all nights": (reverse("group_table", args=[done.group.pk]), anna),
        "player": (reverse("player_history", args=[done.group.pk, anna.pk]), anna),
        "house rules": (reverse("group_house_rules", args=[first.pk]), anna),
        "account": (reverse("account"), anna),
        "night rules": (reverse("night_rules", args=[after_round.pk]), anna),
        "rules": (reverse("rules"), anna),
        "big screen": (reverse("night_screen", args=[after_round.pk]), anna),
    }


def night_to_undo(language):
    """A night whose first round went through, for the phone to undo in ``language``."""
    return play(night_in_new_group(f"Undo {language}"), {"Anna": 2, "Bram": -2, "Cora": 0})


def check(page, where, failures, schemes=SCHEMES):
    """Every rule in the first scheme; in the other, the contrast rule: a scheme changes
    colours only, never the page's markup or words (the whole run in both took 65 s for
    three languages, over the minute this test may take)."""
    page.wait_for_load_state("load")
    for index, scheme in enumerate(schemes):
        page.emulate_media(color_scheme=scheme)
        found = problems(page, colours_only=index > 0)
        failures += [f"{where}, {scheme}: {problem}" for problem in found]


def test_every_page_state_has_nothing_axe_finds(browser, live_server):
    started = time.monotonic()
    states = build_states()
    undo_nights = {language: night_to_undo(language) for language in LANGUAGES}
    stranger = browser.new_context(viewport=PHONE, base_url=live_server.url)
    member = browser.new_context(viewport=PHONE, base_url=live_server.url)
    for context in (stranger, member):
        load_axe(context)
    anonymous, anna = stranger.new_page(), member.new_page()
    anna.on("dialog", lambda dialog: dialog.accept())
    anna.goto("/login/")
    anna.fill("#id_username", "Anna")
    anna.fill("#id_password", PASSWORD)
    anna.click("button[type=submit].primary")
    anna.wait_for_url(lambda url: "/login/" not in url)

    failures: list[str] = []
    for index, language in enumerate(LANGUAGES):
        # Every state in every language, both schemes, the scheme of the whole run
        # taken by turns.
        schemes = SCHEMES if index % 2 == 0 else SCHEMES[::-1]
        User.objects.filter(name="Anna").update(language=language)
        stranger.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        )
        for name, (url, who) in states.items():
            page = anna if who else anonymous
            page.goto(url)
            assert page.locator("html").get_attribute("lang") == language, (name, language)
            if name == "settlement":  # the bank code on both lines paying Anna
                assert page.get_by_test_id("epc-qr").count() == 2
            check(page, f"{name} [{language}]", failures, schemes)
        night = undo_nights[language]
        anna.goto(reverse("night_detail", args=[night.pk]))
        anna.locator("#actions form[action$='/undo/'] button").click()
        anna.wait_for_selector("ul.messages")
        # The page a plain post led to opens on what happened.
        assert anna.evaluate("document.activeElement.id") == "messages"
        check(anna, f"night, after an undo [{language}]", failures, schemes)
    stranger.close()
    member.close()
    print(f"axe: {time.monotonic() - started:.1f} s")
    assert failures == [], "\n".join(failures)
