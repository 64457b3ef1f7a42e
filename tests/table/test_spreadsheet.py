"""Reading a spreadsheet of past nights: columns by name, delimiters, dates, money, and
each line that does not add up named by its number."""

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.table.spreadsheet.limits import MAX_HAND_POINTS
from scorekeeper.table.spreadsheet.nights import split_rounds
from scorekeeper.table.spreadsheet.reading import count_lines, read_sheet
from scorekeeper.table.spreadsheet.sheet import Kind

GAMES = {"standard": "standard", "ofc standard": "standard"}


def read(text: str, **kwargs):
    return read_sheet(
        text.encode(), currency=kwargs.get("currency", "EUR"), point_cents=10, games=GAMES
    )


def kinds(sheet) -> list[tuple[int, Kind]]:
    return [(problem.line, problem.kind) for problem in sheet.problems]


def test_a_tab_separated_sheet_of_money_in_decimal_commas():
    sheet = read("Day\tPlayer\tMoney\n7.3.2024\tAnna\t€ 12,50\n7.3.2024\tBram\t-12,50\n")
    (night,) = sheet.nights
    assert night.cents == (1250, -1250) and night.point_cents == 1


def test_money_with_a_stake_that_divides_it_is_counted_in_points():
    sheet = read("date,name,money,stake\n2024-03-07,Anna,2.50,0.25\n2024-03-07,Bram,-2.50,0.25\n")
    (night,) = sheet.nights
    assert (night.points, night.point_cents) == ((10, -10), 25)


def test_points_and_money_must_agree_at_the_stake():
    sheet = read("date,name,points,money\n7-3-2024,Anna,5,1.00\n7-3-2024,Bram,-5,-0.50\n")
    assert kinds(sheet) == [(3, Kind.MONEY_NOT_POINTS)]


def test_a_missing_column_is_refused_on_the_first_line():
    assert kinds(read("date,points\n7-3-2024,5\n")) == [(1, Kind.MISSING_COLUMN)]
    assert kinds(read("date,name\n7-3-2024,Anna\n")) == [(1, Kind.NO_POINTS_COLUMN)]


def test_each_bad_line_is_named_and_its_night_left_out():
    sheet = read(
        "date;name;points\n"
        "7-3-2024;Anna;5\n"
        "7-3-2024;anna;-5\n"  # line 3: Anna twice
        "3/31/2024;Bram;1\n"  # line 4: month first
        "14-3-2024;Bram;2\n"
        "14-3-2024;Chris;-1\n"  # lines 5-6: +1
        "21-3-2024;Bram;x\n"  # line 7
        "28-3-2024;Bram;2\n"
        "28-3-2024;Chris;-2\n"
    )
    assert kinds(sheet) == [
        (3, Kind.NAME_TWICE),
        (4, Kind.BAD_DATE),
        (5, Kind.NOT_ZERO),
        (7, Kind.BAD_NUMBER),
    ]
    assert [night.day.isoformat() for night in sheet.nights] == ["2024-03-28"]


def test_spellings_of_one_person_are_one_name():
    sheet = read(
        "date,name,points\n7-3-2024,Bram ,1\n7-3-2024,Anna,-1\n8-3-2024,BRAM,0\n8-3-2024,anna,0\n"
    )
    assert sheet.people == ("Bram", "Anna")


def test_the_exports_rounds_are_kept_and_each_must_add_up():
    header = (
        "night,started_at,game,point_cents,currency,round,dealer,seat,points,fantasyland_made\n"
    )
    sheet = read(
        header
        + "4,2024-03-07T20:00:00+00:00,standard,25,EUR,1,Anna,Anna,6,qq+\n"
        + "4,2024-03-07T20:00:00+00:00,standard,25,EUR,1,Anna,Bram,-6,\n"
        + "4,2024-03-07T20:00:00+00:00,standard,25,EUR,2,Bram,Anna,-1,\n"
        + "4,2024-03-07T20:00:00+00:00,standard,25,EUR,2,Bram,Bram,2,\n"
    )
    assert kinds(sheet) == [(4, Kind.NOT_ZERO_ROUND)]


def test_a_quoted_cell_over_two_lines_keeps_the_line_numbers_right():
    sheet = read('date,name,points,notes\n7-3-2024,Anna,1,"late\nagain"\n7-3-2024,Bram,x,\n')
    assert kinds(sheet) == [(4, Kind.BAD_NUMBER)]


def test_lines_are_counted_as_they_stream():
    assert count_lines([b"a\n" * 10, b"b"], limit=100) == 11


@given(st.lists(st.integers(-50_000, 50_000), min_size=1, max_size=8))
def test_split_rounds_adds_up_in_every_round_within_a_hand(values):
    points = (*values, -sum(values))
    rounds = split_rounds(points)
    assert all(sum(hand) == 0 for hand in rounds)
    assert all(abs(value) <= MAX_HAND_POINTS for hand in rounds for value in hand)
    assert tuple(map(sum, zip(*rounds, strict=True))) == points
