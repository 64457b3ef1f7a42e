"""The language a person reads: the phone's first, then the switcher, kept on the
account or in a cookie; money and numbers as that language writes them."""

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper.models import Night, User
from tests.helpers import PASSWORD, finish, log_in, play

LANGUAGE_COOKIE = settings.LANGUAGE_COOKIE_NAME


def lang_of(response) -> str:
    body = response.content.decode()
    return body.split('<html lang="', 1)[1].split('"', 1)[0]


@pytest.mark.parametrize(
    ("header", "lang", "words"),
    [
        ("nl-NL,nl;q=0.9,en;q=0.5", "nl", "Lid worden van een groep"),
        ("zh-CN,zh;q=0.9", "zh-hans", "加入群组"),
        ("de-DE,de;q=0.9,en;q=0.5", "de", "Einer Gruppe beitreten"),
        ("fr-FR,fr;q=0.9", "en", "Join a group"),
        ("", "en", "Join a group"),
    ],
)
def test_the_first_visit_follows_the_phones_language(db, header, lang, words):
    response = Client(HTTP_ACCEPT_LANGUAGE=header).get(reverse("login"))
    assert lang_of(response) == lang
    assert words in response.content.decode()


def test_the_front_page_has_a_switcher_that_remembers_the_language_in_a_cookie(db):
    # The phone's language comes first; the switcher is at the foot of the front page
    # (and on the account page), not on every page.
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = client.get(reverse("login")).content.decode()
    assert 'data-testid="languages"' in page
    assert "Nederlands" in page and "简体中文" in page and "Deutsch" in page
    response = client.post(reverse("language"), {"language": "nl", "next": "/rules/"})
    assert response.status_code == 302 and response.url == "/rules/"
    assert response.cookies[LANGUAGE_COOKIE].value == "nl"
    assert lang_of(client.get(reverse("rules"))) == "nl"
    rules = client.get(reverse("rules")).content.decode()
    assert "Hoe OFC wordt geteld" in rules
    assert 'data-testid="languages"' not in rules


def test_the_account_page_has_the_switcher_in_a_language_section_of_its_own(make_night, login):
    make_night()
    client = login("Anna")
    page = client.get(reverse("account")).content.decode()
    section = page.split('<section id="language"', 1)[1].split("</section>", 1)[0]
    assert 'data-testid="languages"' in section and 'value="/account/"' in section
    assert 'aria-current="true">English<' in section
    response = client.post(reverse("language"), {"language": "de", "next": "/account/"})
    assert response.url == "/account/"
    assert 'aria-current="true">Deutsch<' in client.get(reverse("account")).content.decode()


def test_a_logged_in_persons_language_is_kept_on_their_account(make_night, login):
    make_night()
    client = login("Anna")
    client.post(reverse("language"), {"language": "zh-hans", "next": "/"})
    assert User.objects.get(name="Anna").language == "zh-hans"
    # Another phone, its browser in English and without the cookie: logging in there
    # brings the account's language.
    other = Client(HTTP_ACCEPT_LANGUAGE="en")
    other.post(reverse("login"), {"username": "Anna", "password": PASSWORD})
    assert other.cookies[LANGUAGE_COOKIE].value == "zh-hans"
    response = other.get(reverse("home") + "?stay=1")
    assert lang_of(response) == "zh-hans"
    assert "你的群组" in response.content.decode()
    # Someone else at the table keeps their own.
    assert lang_of(log_in(Client(), "Bram").get(reverse("rules"))) == "en"


def test_an_unknown_language_or_a_foreign_next_page_changes_nothing(make_night, login):
    make_night()
    client = login("Anna")
    response = client.post(reverse("language"), {"language": "xx", "next": "https://evil.example/"})
    assert response.url == "/"
    assert LANGUAGE_COOKIE not in response.cookies
    assert User.objects.get(name="Anna").language == ""


def test_money_and_points_as_each_language_writes_them(make_night, login):
    night = make_night(("Anna", "Bram"), point_cents=50)
    play(
        night, {"Anna": 999, "Bram": -999}, {"Anna": 999, "Bram": -999}, {"Anna": 475, "Bram": -475}
    )
    finish(night)
    url = reverse("night_settle", args=[night.pk])
    dutch = login("Anna").get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    # CLDR's Dutch (through Babel): a space that never breaks, the minus by the digits.
    assert "€\u00a00,50/pt" in dutch
    assert "€\u00a01.236,50" in dutch and "€\u00a0−1.236,50" in dutch
    assert "+2473" in dutch and "−2473" in dutch  # points keep their sign, no separator
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    body = log_in(english, "Anna").get(url).content.decode()
    assert "€1,236.50" in body and "€0.50/pt" in body


def test_the_copy_text_and_the_chart_speak_the_pages_language(make_night, login):
    night = make_night(("Anna", "Bram"), point_cents=10)
    play(night, {"Anna": 5, "Bram": -5})
    url = reverse("night_settle", args=[night.pk])
    body = login("Anna").get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    share = body.split('id="share-text"', 1)[1].split("</textarea>", 1)[0]
    assert "1 ronde · €\u00a00,10/pt · nog bezig" in share
    assert "Bram → Anna €\u00a00,50" in share
    assert "Tussenstand na 1 ronde" in body
    chinese = login("Anna").get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "1 手 · 每分 €0.10 · 仍在进行" in chinese
    assert "1 手后的累计得分" in chinese


@pytest.mark.parametrize("language", ["en", "nl", "zh-hans", "de"])
@pytest.mark.parametrize("typed", ["0,50", "0.50"])
def test_the_point_value_takes_a_comma_or_a_point_in_every_language(
    login, make_group, language, typed
):
    group = make_group(members=("Anna", "Bram"))
    anna, bram = User.objects.order_by("pk")
    client = login("Anna")
    client.post(reverse("language"), {"language": language})
    client.post(
        reverse("night_start", args=[group.pk]),
        {
            "game": "standard",
            "point_value": typed,
            "dealer": "1",
            "seat_1": anna.pk,
            "seat_2": bram.pk,
        },
    )
    assert Night.objects.get().point_cents == 50


def test_the_start_form_shows_the_point_value_with_a_decimal_comma_in_dutch(login, make_group):
    group = make_group(members=("Anna",))
    body = (
        login("Anna")
        .get(reverse("night_start", args=[group.pk]), HTTP_ACCEPT_LANGUAGE="nl")
        .content.decode()
    )
    assert 'name="point_value" value="0,10"' in body


def test_exports_keep_their_english_names_and_values_in_every_language(make_night, login):
    night = make_night(("Anna", "Bram"), point_cents=50)
    play(night, {"Anna": 3, "Bram": -3})
    finish(night)
    client = login("Anna")

    def body(url, language):
        return b"".join(client.get(url, HTTP_ACCEPT_LANGUAGE=language).streaming_content)

    for fmt in ("csv", "json"):
        url = reverse("night_export", args=[night.pk, fmt])
        english = body(url, "en")
        assert b"Anna" in english
        assert body(url, "nl") == english
        assert body(url, "zh-hans") == english
        assert body(url, "de") == english


def test_error_pages_speak_the_language(db):
    missing = Client(HTTP_ACCEPT_LANGUAGE="nl").get("/no-such-page/")
    assert missing.status_code == 404 and "Hier is niets" in missing.content.decode()
    with translation.override("zh-hans"):
        broken = render_to_string("500.html")
    assert '<html lang="zh-hans">' in broken and "出错了" in broken
    csrf = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="zh-hans")
    refused = csrf.post(reverse("login"), {"username": "Anna", "password": "x"})
    assert refused.status_code == 403 and "这个页面已过期" in refused.content.decode()


def test_a_services_refusal_reaches_the_page_in_its_language(make_night, login):
    night = make_night(("Anna", "Bram"))
    client = login("Anna")
    client.post(reverse("language"), {"language": "nl"})
    response = client.post(
        reverse("round_undo", args=[night.pk]), follow=True, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "Er is nog geen ronde verwerkt." in response.content.decode()


def test_a_switch_on_one_phone_reaches_the_other_phones_already_logged_in(make_night, login):
    make_night()
    tablet = log_in(Client(HTTP_ACCEPT_LANGUAGE="en"), "Anna")
    assert lang_of(tablet.get(reverse("rules"))) == "en"
    login("Anna").post(reverse("language"), {"language": "nl", "next": "/"})  # her phone
    response = tablet.get(reverse("rules"))  # the tablet's next page
    assert lang_of(response) == "nl" and "Hoe OFC wordt geteld" in response.content.decode()
    assert response.cookies[LANGUAGE_COOKIE].value == "nl"
    assert lang_of(tablet.get(reverse("rules"))) == "nl"
    # The tablet's own switch wins there, and is the account's from then on.
    tablet.post(reverse("language"), {"language": "zh-hans", "next": "/"})
    assert lang_of(tablet.get(reverse("rules"))) == "zh-hans"
    assert User.objects.get(name="Anna").language == "zh-hans"


def test_switching_on_a_phone_whose_cookie_is_behind_the_account_takes_that_switch(
    make_night, login
):
    make_night()
    tablet = log_in(Client(HTTP_ACCEPT_LANGUAGE="en"), "Anna")
    tablet.get(reverse("rules"))
    login("Anna").post(reverse("language"), {"language": "nl", "next": "/"})
    # The tablet switches before it opened another page: its switch is the one kept.
    response = tablet.post(reverse("language"), {"language": "zh-hans", "next": "/"})
    assert response.cookies[LANGUAGE_COOKIE].value == "zh-hans"
    assert lang_of(tablet.get(reverse("rules"))) == "zh-hans"
    assert User.objects.get(name="Anna").language == "zh-hans"
