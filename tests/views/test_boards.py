"""Card entry from a phone: every rule of the card page, counted by the real engine."""

import html
import re

import pytest
from django.urls import reverse

from scorekeeper.models import Entry, Round, User, parse_board
from scorekeeper.services.boards import record_board
from scorekeeper.services.round_fixes import undo_last_round
from scorekeeper.services.rounds import record_entry
from scorekeeper.services.seats import leave_seat
from tests.helpers import finish, fix_state_of, play

# The rules' worked example: A a flush bottom (4), B kings on top (8), C fouls.
A = ("2c 3d 4h", "Qs Qd 5c 5d 9s", "Ah Jh 8h 6h 3h")
B = ("Kc Kd 7s", "As Ad 9c 6d 2s", "Ts Td 4s 4c Js")
C = ("Qc Qh 2d", "7c 8d 9h Jd 2h", "6s 6c Kh Ks 3s")


def board_url(night, seat_name, number=1):
    seat = night.seats.get(name=seat_name)
    return reverse("board_entry", args=[night.pk, number, seat.pk])


def post_board(client, night, seat_name, rows, *, number=1, follow=True, **extra):
    seat = night.seats.get(name=seat_name)
    top, middle, bottom = rows
    data = {"round": number, "seat": seat.pk, "top": top, "middle": middle, "bottom": bottom}
    return client.post(board_url(night, seat_name, number), {**data, **extra}, follow=follow)


def points(night, number=1):
    round_ = night.rounds.get(number=number)
    return {entry.seat.name: entry.points for entry in round_.entries.select_related("seat")}


def test_the_card_page_shows_rows_and_the_deck(login, make_night):
    night = make_night(game="pineapple")
    body = login("Anna").get(board_url(night, "Anna")).content.decode()
    assert "Round 1 · your cards" in body
    assert body.count('name="add"') == 52
    assert 'value="JK"' not in body
    for row in ("top", "middle", "bottom"):
        assert f'data-row="{row}"' in body


def test_the_jokers_game_deals_54_cards(login, make_night):
    night = make_night(game="jokers")
    body = login("Anna").get(board_url(night, "Anna")).content.decode()
    assert body.count('name="add"') == 54


def test_saving_a_board_shows_hands_royalties_and_fantasyland_at_once(login, make_night):
    night = make_night(game="pineapple")
    response = post_board(login("Bram"), night, "Bram", B)
    body = response.content.decode()
    assert "Cards saved." in body
    assert "pair of kings" in body
    assert "Royalties 8" in body
    assert "Fantasyland 14 cards" in body
    assert "Waiting for Anna and Chris" in body
    entry = Entry.objects.get()
    assert entry.board == {
        "top": ["Kc", "Kd", "7s"],
        "middle": ["As", "Ad", "9c", "6d", "2s"],
        "bottom": ["Ts", "Td", "4s", "4c", "Js"],
    }
    assert entry.awaiting_total and entry.points == 0
    assert not night.rounds.get(number=1).is_recorded


def test_a_foul_is_explained_in_words(login, make_night):
    night = make_night(game="pineapple")
    body = post_board(login("Chris"), night, "Chris", C).content.decode()
    assert "Fouled:" in body
    assert "the middle, high card, is weaker than the top, pair" in body


def test_typed_notation_in_any_case_and_with_10(login, make_night):
    night = make_night(game="pineapple")
    rows = ("kc kd 7S", "AS ad 9c 6d 2s", "10s td 4s 4c js")
    post_board(login("Bram"), night, "Bram", rows)
    assert Entry.objects.get().board["bottom"] == ["Ts", "Td", "4s", "4c", "Js"]


def test_a_word_that_is_not_a_card_is_refused(login, make_night):
    night = make_night(game="pineapple")
    body = post_board(login("Bram"), night, "Bram", ("Kc Kd 1x", *B[1:])).content
    assert "&quot;1x&quot; is not a card. Write cards like Qh Qc 3d." in body.decode()
    assert not Entry.objects.exists()


def test_the_same_card_twice_on_the_table_names_both_places_and_saves_nothing(login, make_night):
    night = make_night(game="pineapple")
    post_board(login("Anna"), night, "Anna", A)
    clash = ("Ah Kd 7s", *B[1:])  # Anna has the Ah in her bottom
    body = post_board(login("Bram"), night, "Bram", clash).content.decode()
    assert "Ah appears twice: Anna&#x27;s bottom, Bram&#x27;s top." in body
    assert list(Entry.objects.values_list("seat__name", flat=True)) == ["Anna"]


def test_a_card_twice_on_one_board_is_refused(login, make_night):
    night = make_night(game="pineapple")
    body = post_board(login("Bram"), night, "Bram", ("Kc Kd As", *B[1:])).content
    assert "As appears twice: Bram&#x27;s top, Bram&#x27;s middle." in body.decode()
    assert not Entry.objects.exists()


def test_cards_on_other_boards_are_greyed_out_in_the_deck(login, make_night):
    night = make_night(game="pineapple")
    post_board(login("Anna"), night, "Anna", A)
    body = login("Bram").get(board_url(night, "Bram")).content.decode()
    named = (
        'data-name="ace of hearts"\n            aria-label="ace of hearts, on Anna&#x27;s bottom"'
    )
    assert named in body
    assert body.count(" disabled data-used=") == 13


def test_jokers_only_in_the_jokers_game(login, make_night):
    night = make_night(game="ultimate")
    body = post_board(login("Anna"), night, "Anna", ("Kc Kd JK", *A[1:])).content
    assert (
        "Progressive Ultimate is played without jokers; take the joker out of Anna&#x27;s top."
        in body.decode()
    )
    assert "Player 1" not in body.decode()
    assert not Entry.objects.exists()


def test_a_joker_shows_what_it_became(login, make_night):
    night = make_night(game="jokers")
    rows = ("Qs Qd JK", "2c 3c 4c 5c 6c", "Ah Ad As JK 7h")
    body = post_board(login("Anna"), night, "Anna", rows).content.decode()
    assert "joker became Qh" in body
    assert "joker became Ac" in body
    assert Entry.objects.get().board["top"] == ["Qs", "Qd", "JK"]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (("Kc Kd", *B[1:]), "The top needs 3 cards; it has 2 cards."),
        ((B[0], "As Ad 9c 6d", B[2]), "The middle needs 5 cards; it has 4 cards."),
        ((*B[:2], ""), "The bottom needs 5 cards; it has 0 cards."),
    ],
)
def test_a_board_must_be_complete(login, make_night, rows, message):
    night = make_night(game="pineapple")
    body = post_board(login("Bram"), night, "Bram", rows).content.decode()
    assert message in body
    assert not Entry.objects.exists()


def test_when_every_seat_set_its_cards_the_app_counts_the_round(login, make_night):
    night = make_night(game="pineapple")
    post_board(login("Anna"), night, "Anna", A)
    post_board(login("Bram"), night, "Bram", B)
    response = post_board(login("Chris"), night, "Chris", C)
    body = response.content.decode()
    assert points(night) == {"Anna": 7, "Bram": 17, "Chris": -24}
    assert night.rounds.get(number=1).is_recorded
    assert "Every board is in: round 1 went through." in body
    # The breakdown of each pairing: rows, scoop, royalties.
    assert "top −1 · middle +1 · bottom +1 · royalties −4" in body
    assert "top +1 · middle +1 · bottom +1 · scoop +3 · royalties +4" in body
    # Bram's kings take him to Fantasyland next hand, from his cards.
    assert night.rounds.get(number=2).fantasyland == {str(night.seats.get(name="Bram").pk): [14, 0]}


def test_computed_fantasyland_replaces_a_manual_claim(login, make_night):
    night = make_night(game="pineapple")
    # Anna claimed Fantasyland by hand, then set her cards: no queens on top.
    record_entry(
        night=night,
        round_number=1,
        seat=night.seats.get(name="Anna"),
        points=3,
        entered_by=User.objects.get(name="Anna"),
        fantasyland_made="qq+",
    )
    post_board(login("Anna"), night, "Anna", A)
    post_board(login("Bram"), night, "Bram", B)
    post_board(login("Chris"), night, "Chris", C)
    entries = {e.seat.name: e for e in night.rounds.get(number=1).entries.select_related("seat")}
    assert entries["Anna"].fantasyland_made == ""
    assert entries["Bram"].fantasyland_made == "qq+"
    fantasyland = night.rounds.get(number=2).fantasyland
    assert list(fantasyland) == [str(night.seats.get(name="Bram").pk)]


def test_a_mixed_round_waits_for_typed_totals_and_says_what_the_cards_say(
    client, login, make_night
):
    night = make_night(game="pineapple")
    record_entry(
        night=night,
        round_number=1,
        seat=night.seats.get(name="Chris"),
        points=-24,
        entered_by=User.objects.get(name="Chris"),
    )
    post_board(login("Anna"), night, "Anna", A)
    body = post_board(login("Bram"), night, "Bram", B).content.decode()
    assert "Chris entered a total instead of cards" in body
    assert not night.rounds.get(number=1).is_recorded  # Bram's total is not known

    # Bram types his total on the card page; Anna on the night page (her cards stay).
    post_board(client, night, "Bram", B, points="14")
    login("Anna").post(
        reverse("entry_save", args=[night.pk]),
        {"round": 1, "seat": night.seats.get(name="Anna").pk, "points": 7},
    )
    page = client.get(reverse("night_detail", args=[night.pk])).content.decode()
    assert "3 points too few" in page
    assert "From the cards, Bram&#x27;s royalties are 8" in page
    assert "From the cards, Anna&#x27;s royalties are 4" in page
    assert Entry.objects.get(seat__name="Anna").board is not None

    post_board(login("Bram"), night, "Bram", B, points="17")
    assert night.rounds.get(number=1).is_recorded
    assert points(night) == {"Anna": 7, "Bram": 17, "Chris": -24}


def test_the_night_page_shows_each_board_and_links_to_card_entry(login, make_night):
    night = make_night(game="pineapple")
    post_board(login("Chris"), night, "Chris", C)
    page = login("Anna").get(reverse("night_detail", args=[night.pk])).content.decode()
    assert "Enter cards instead" in page
    assert board_url(night, "Anna") in page
    assert "cards in" in page
    assert "fouled" in page


def test_a_picker_tap_without_javascript_moves_cards_and_saves_nothing(client, login, make_night):
    night = make_night(game="pineapple")
    login("Anna")
    seat = night.seats.get(name="Anna")
    base = {"round": 1, "seat": seat.pk, "top": "Qh", "middle": "", "bottom": ""}
    body = client.post(board_url(night, "Anna"), {**base, "row": "top", "add": "Qc"}).content
    assert 'value="Qh Qc"' in body.decode()
    moved = {**base, "top": "Qh Qc", "row": "middle", "remove": "top Qc"}
    body = client.post(board_url(night, "Anna"), moved).content.decode()
    assert 'name="top" id="id_top" value="Qh"' in body
    assert not Entry.objects.exists()


def test_a_card_entered_round_can_be_corrected_like_any_other(client, login, make_night):
    night = make_night(game="pineapple")
    post_board(login("Anna"), night, "Anna", A)
    post_board(login("Bram"), night, "Bram", B)
    post_board(login("Chris"), night, "Chris", C)
    ids = {seat.name: seat.pk for seat in night.seats.all()}
    response = client.post(
        reverse("round_edit", args=[night.pk, 1]),
        {
            f"points_{ids['Anna']}": 8,
            f"points_{ids['Bram']}": 16,
            f"points_{ids['Chris']}": -24,
            "state": fix_state_of(night, 1),
        },
    )
    assert response.status_code == 302
    assert points(night) == {"Anna": 8, "Bram": 16, "Chris": -24}
    page = client.get(reverse("night_rounds", args=[night.pk])).content.decode()
    assert "Anna +7 → +8" in page
    assert "From the cards:" in page  # the breakdown stays beside the fixed totals
    assert Round.objects.get(night=night, number=1).recorded_sum == 0


def test_a_joker_is_marked_as_the_card_it_became(client, login, make_night):
    night = make_night(("Anna", "Bram"), game="jokers")
    rows = ("Qs Qd JK", "2c 3c 4c 5c 6c", "Ah Ad As JK 7h")
    post_board(login("Anna"), night, "Anna", rows)
    bram = ("Kc Kd 7s", "Ks Kh 9c 6d 2s", "Ts Td 4s 4h Js")
    body = post_board(login("Bram"), night, "Bram", bram).content.decode()
    assert "round 1 went through" in body
    result = body[body.index('id="board-result"') :]
    # Bram's own board has no joker; the breakdown names Anna's two.
    assert "joker as" not in result[: result.index("</section>")]
    breakdown = body[body.index('data-testid="breakdown"') :]
    assert 'aria-label="joker as queen of hearts"' in breakdown
    assert 'aria-label="joker as ace of clubs"' in breakdown

    body = login("Anna").get(board_url(night, "Anna")).content.decode()
    result = body[body.index('id="board-result"') : body.index("</section>")]
    assert result.count('class="pc hearts wild"') == 1
    assert result.count('class="pc clubs wild"') == 1
    assert 'role="img" aria-label="joker as queen of hearts"' in result
    assert 'role="img" aria-label="joker as ace of clubs"' in result
    # The night's rounds page draws the same breakdown.
    rounds = client.get(reverse("night_rounds", args=[night.pk])).content.decode()
    wild = 'class="pc hearts wild" role="img" aria-label="joker as queen of hearts"'
    assert rounds.count(wild) == 1


def test_a_refused_save_keeps_the_typed_box_open_when_it_was_used(client, login, make_night):
    night = make_night(game="pineapple")
    post_board(login("Anna"), night, "Anna", A)
    clash = ("Ah Kd 7s", *B[1:])
    login("Bram")
    typed = post_board(client, night, "Bram", clash, typed="1").content.decode()
    assert "Ah appears twice" in typed
    assert '<details class="typed" open>' in typed
    assert 'name="typed" value="1"' in typed  # and stays open after the next refusal
    picked = post_board(client, night, "Bram", clash).content.decode()
    assert "Ah appears twice" in picked
    assert '<details class="typed">' in picked


def test_several_clashes_are_all_named_on_the_card_page(login, make_night):
    night = make_night(game="pineapple")
    post_board(login("Anna"), night, "Anna", A)
    clash = ("Ah Qs 7s", *B[1:])
    body = post_board(login("Bram"), night, "Bram", clash).content.decode()
    assert (
        "Ah appears twice: Anna&#x27;s bottom, Bram&#x27;s top; "
        "Qs appears twice: Anna&#x27;s middle, Bram&#x27;s top." in body
    )


def test_the_card_page_of_a_seat_that_left_has_no_picker(client, login, make_night):
    night = make_night(game="pineapple")
    play(night, {"Anna": 2, "Bram": -1, "Chris": -1})
    anna = User.objects.get(name="Anna")
    leave_seat(night=night, seat=night.seats.get(name="Chris"), by=anna)
    login(anna)
    for response in (
        client.get(board_url(night, "Chris", 2)),
        post_board(client, night, "Chris", C, number=2),
    ):
        body = response.content.decode()
        assert response.status_code == 200
        assert "Chris has left the table." in body
        assert "data-picker" not in body and 'name="add"' not in body
    assert not Entry.objects.filter(round__number=2).exists()


# --- the card page, live -----------------------------------------------------------


def set_cards(night, seat_name, rows, number=1):
    """``seat_name`` saves a board on their own phone."""
    seat = night.seats.get(name=seat_name)
    board = parse_board(dict(zip(("top", "middle", "bottom"), rows, strict=True)))
    record_board(night=night, round_number=number, seat=seat, board=board, entered_by=seat.user)


def poll_url_on(body: str) -> str:
    """The address the page's status area polls, as the phone sends it."""
    found = re.findall(r'hx-get="([^"]+)"', body)
    assert len(found) == 1, found
    return html.unescape(found[0])


def status_of(body: str) -> str:
    """The status line's words, tags left out."""
    start = body.index('data-testid="board-status">') + len('data-testid="board-status">')
    return re.sub(r"<[^>]+>", "", body[start : body.index("</p>", start)])


@pytest.mark.database
def test_the_card_page_polls_its_status_and_nothing_changed_costs_two_queries(
    client, login, make_night, django_assert_num_queries
):
    night = make_night(game="pineapple")
    body = post_board(login("Anna"), night, "Anna", A).content.decode()
    poll = poll_url_on(body)
    assert poll.startswith(
        reverse("board_live", args=[night.pk, 1, night.seats.get(name="Anna").pk])
    )
    with django_assert_num_queries(3):  # the session, the user, the night; nothing rendered
        response = client.get(poll)
    assert response.status_code == 204
    assert response.content == b""


def test_a_board_saved_by_another_seat_leaves_the_waiting_list(client, login, make_night):
    night = make_night(game="pineapple")
    body = post_board(login("Anna"), night, "Anna", A).content.decode()
    assert (
        status_of(body)
        == "Waiting for Bram and Chris. The app counts the totals when every board is in."
    )
    poll = poll_url_on(body)

    set_cards(night, "Bram", B)
    response = client.get(poll)
    fragment = response.content.decode()
    assert response.status_code == 200
    assert fragment.lstrip().startswith('<div id="live"')
    assert (
        status_of(fragment)
        == "Waiting for Chris. The app counts the totals when every board is in."
    )
    # Only the status area comes back: the picker and the board stay as they are.
    assert "<html" not in fragment and 'name="add"' not in fragment
    assert 'id="board-result"' not in fragment
    assert client.get(poll_url_on(fragment)).status_code == 204  # and it polls on


@pytest.mark.database
def test_the_round_going_through_is_said_and_the_poll_stops(
    client, login, make_night, django_assert_num_queries
):
    night = make_night(game="pineapple")
    poll = poll_url_on(post_board(login("Anna"), night, "Anna", A).content.decode())
    set_cards(night, "Bram", B)
    set_cards(night, "Chris", C)
    # The session, the user, then rendered: the night, the round, the seat, the round's
    # entries and the night's seats.
    with django_assert_num_queries(8):
        response = client.get(poll)
    fragment = response.content.decode()
    assert response.status_code == 286  # htmx stops polling
    assert status_of(fragment) == "Round 1 went through: +7."
    assert "hx-get" not in fragment
    back = f'<a class="button primary" href="{reverse("night_detail", args=[night.pk])}">'
    assert back + "Back to the night</a>" in fragment


def test_before_saving_the_card_page_says_who_still_has_to_set_cards(client, login, make_night):
    night = make_night(game="pineapple")
    body = login("Bram").get(board_url(night, "Bram")).content.decode()
    assert status_of(body) == "You still have to set your cards, and so do Anna and Chris."
    assert body.index('data-testid="board-status"') < body.index("data-picker")
    poll = poll_url_on(body)
    set_cards(night, "Chris", C)
    assert status_of(client.get(poll).content.decode()) == (
        "You still have to set your cards, and so does Anna."
    )
    set_cards(night, "Anna", A)
    assert status_of(client.get(poll).content.decode()) == "You still have to set your cards."
    german = client.get(board_url(night, "Bram"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert status_of(german) == "Du musst deine Karten noch legen."


def test_who_still_has_to_set_cards_is_one_sentence_in_each_language(login, make_night):
    """ "you" in the language's own case, the names with its own "and", its own marks."""
    night = make_night(game="pineapple")
    bram = login("Bram")
    said = {
        language: status_of(
            bram.get(board_url(night, "Bram"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        )
        for language in ("de", "nl", "zh-hans")
    }
    assert said == {
        "de": "Du musst deine Karten noch legen, Anna und Chris auch.",
        "nl": "Je moet je kaarten nog leggen, Anna en Chris ook.",
        "zh-hans": "你还没摆牌，Anna和Chris 也还没有。",
    }
    chinese = bram.get(board_url(night, "Anna"), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert status_of(chinese.content.decode()) == "还没摆牌：Anna、Bram和Chris。"


def test_a_total_typed_elsewhere_offers_the_box_for_a_total(client, login, make_night):
    night = make_night(game="pineapple")
    poll = poll_url_on(post_board(login("Bram"), night, "Bram", B).content.decode())
    assert "total=1" not in poll  # this page has no box for a typed total
    chris = night.seats.get(name="Chris")
    record_entry(night=night, round_number=1, seat=chris, points=-24, entered_by=chris.user)
    fragment = client.get(poll).content.decode()
    assert status_of(fragment) == (
        "Chris entered a total instead of cards, so this round is counted by totals: type yours."
    )
    assert f'href="{board_url(night, "Bram")}">Type your total</a>' in fragment
    # The page opened again has the box, and its poll says so.
    page = client.get(board_url(night, "Bram")).content.decode()
    assert 'name="points"' in page and "type yours below." in status_of(page)
    assert "total=1" in poll_url_on(page)


def test_a_round_dropped_at_the_end_of_the_night_says_so_and_stops(client, login, make_night):
    night = make_night(game="pineapple")
    poll = poll_url_on(login("Anna").get(board_url(night, "Anna")).content.decode())
    finish(night)
    response = client.get(poll)
    fragment = response.content.decode()
    assert response.status_code == 286
    assert status_of(fragment) == "Round 1 is not open any more: the night is over."
    assert "Back to the night" in fragment and "hx-get" not in fragment


def test_a_round_through_on_typed_totals_is_said_on_a_card_page_without_a_board(
    client, login, make_night
):
    night = make_night(("Anna", "Bram"), game="pineapple")
    poll = poll_url_on(login("Anna").get(board_url(night, "Anna")).content.decode())
    play(night, {"Anna": 4, "Bram": -4})  # typed on the night page instead
    response = client.get(poll)
    assert response.status_code == 286
    assert status_of(response.content.decode()) == "Round 1 went through: +4."


# --- a round that went through: its card page is read-only ---------------------------


def counted_round(night, login):
    """Round 1 of ``night`` through on everyone's cards: Anna +7, Bram +17, and the
    guest Gus −24 (set on Anna's phone)."""
    for name, by, rows in (("Anna", "Anna", A), ("Bram", "Bram", B), ("Gus", "Anna", C)):
        post_board(login(by), night, name, rows)
    assert night.rounds.get(number=1).is_recorded


def stored(night):
    """Every entry of the night as stored, and the night's version."""
    rows = Entry.objects.filter(round__night=night).order_by("pk")
    fields = ("round_id", "seat_id", "points", "board", "client_key", "updated_at")
    return list(rows.values_list(*fields)), night.__class__.objects.get(pk=night.pk).version


def test_the_card_page_of_a_round_that_went_through_shows_the_board_read_only(login, make_night):
    night = make_night(("Anna", "Bram"), guests=("Gus",), game="pineapple")
    counted_round(night, login)
    body = login("Anna").get(board_url(night, "Anna")).content.decode()
    assert "data-picker" not in body and "Save cards" not in body and 'name="add"' not in body
    assert status_of(body) == "Round 1 went through: +7."
    result = body[body.index('id="board-result"') : body.index("</section>")]
    for card in ("two of clubs", "queen of spades", "ace of hearts"):  # the cards as stored
        assert f'role="img" aria-label="{card}"' in result
    night_url = reverse("night_detail", args=[night.pk])
    assert f'<a class="button primary" href="{night_url}">Back to the night</a>' in result
    # The page's live part says the round is closed, so a picker left open goes too.
    assert "data-round-closed" in result and "hx-get" not in result


@pytest.mark.parametrize(
    ("seat_name", "rows", "words"),
    [
        ("Anna", A, "Round 1 already went through, with your cards. Round 2 is open."),
        ("Anna", B, "Round 1 already went through: your cards were not used. Round 2 is open."),
        ("Gus", C, "Round 1 already went through, with these cards for Gus. Round 2 is open."),
        (
            "Gus",
            A,
            "Round 1 already went through: these cards for Gus were not used. Round 2 is open.",
        ),
    ],
)
def test_cards_posted_for_a_round_that_went_through_are_refused_in_words(
    login, make_night, seat_name, rows, words
):
    night = make_night(("Anna", "Bram"), guests=("Gus",), game="pineapple")
    counted_round(night, login)
    before = stored(night)
    anna = login("Anna")  # for herself, or for the guest on her phone

    body = post_board(anna, night, seat_name, rows).content.decode()
    assert words in body
    assert "Cards saved." not in body and "data-picker" not in body
    assert "Round 1 went through" in status_of(body)  # the board as counted, still shown
    # Sent by the phone's queue, with a key of its own: the same words, as data.
    seat = night.seats.get(name=seat_name)
    top, middle, bottom = rows
    data = {"round": 1, "seat": seat.pk, "top": top, "middle": middle, "bottom": bottom}
    answer = anna.post(
        board_url(night, seat_name),
        {**data, "key": "0123456789abcdef0123"},
        HTTP_ACCEPT="application/json",
    )
    assert answer.status_code == 409 and answer.json() == {"saved": False, "message": words}
    assert stored(night) == before  # nothing written, the night not bumped
    assert not night.rounds.get(number=2).entries.exists()


def test_a_round_reopened_by_undo_has_its_card_page_live_again(login, make_night):
    night = make_night(("Anna", "Bram"), guests=("Gus",), game="pineapple")
    counted_round(night, login)
    undo_last_round(night=night, by=User.objects.get(name="Anna"))
    anna = login("Anna")
    body = anna.get(board_url(night, "Anna")).content.decode()
    assert "data-picker" in body and "Save cards" in body and "data-round-closed" not in body
    changed = ("2c 3d 5h", *A[1:])
    body = post_board(anna, night, "Anna", changed).content.decode()
    assert "already went through" not in body
    assert Entry.objects.get(round__number=1, seat__name="Anna").board == parse_board(
        dict(zip(("top", "middle", "bottom"), changed, strict=True))
    )
