"""The JSON contract of `manage.py score`, through contract.run and the command."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from scorekeeper.ofc.contract import run

ROOT = Path(__file__).resolve().parents[2]

ANNA = {"name": "Anna", "top": "Qh Qc 3d", "middle": "Ts Js Qd Kc Ah", "bottom": "7d 7c 7s 2h 2s"}
BRAM = {
    "name": "Bram",
    "top": ["2c", "5d", "9h"],
    "middle": "3s 3h 4d 4c 8s",
    "bottom": "ks kh 9d 6c 6h",
    "fantasyland": {"cards": 16, "stays": 1},
}


def hand(**changes):
    data = {"variant": "ultimate", "players": [dict(ANNA), dict(BRAM)]}
    data.update(changes)
    return data


def error_of(data) -> str:
    outcome = run(data if isinstance(data, str) else json.dumps(data))
    assert outcome.status == 2
    assert outcome.stdout == ""
    assert "\n" not in outcome.stderr
    return outcome.stderr


def test_one_hand_gives_one_result_in_the_contracts_shape():
    outcome = run(json.dumps(hand(rules={"stay_full_house_middle": True})))
    assert (outcome.status, outcome.stderr) == (0, "")
    out = json.loads(outcome.stdout)
    anna, bram = out["players"]
    assert out["variant"] == "ultimate"
    assert anna == {
        "name": "Anna",
        "fouled": False,
        "rows": {
            "top": {"cards": ["Qh", "Qc", "3d"], "hand": "pair", "royalty": 7},
            "middle": {"cards": ["Ts", "Js", "Qd", "Kc", "Ah"], "hand": "straight", "royalty": 4},
            "bottom": {"cards": ["7d", "7c", "7s", "2h", "2s"], "hand": "full house", "royalty": 6},
        },
        "royalties": 17,
        "points": 23,
        "fantasyland": {"cards": 14, "stays": 0},
    }
    assert bram["rows"]["bottom"]["cards"] == ["Ks", "Kh", "9d", "6c", "6h"]
    assert bram["fantasyland"] is None  # no stay: Bram's streak ends
    assert out["pairs"] == [
        {
            "players": ["Anna", "Bram"],
            "rows": [1, 1, 1],
            "scoop": 3,
            "majority": 0,
            "royalties": 17,
            "points": 23,
        }
    ]
    assert anna["points"] + bram["points"] == 0


def test_an_array_gives_an_array_and_a_bad_hand_an_error_in_its_place():
    outcome = run(json.dumps([hand(), {"variant": "nope"}, hand(variant="pineapple")]))
    assert outcome.status == 0
    out = json.loads(outcome.stdout)
    assert len(out) == 3
    assert out[0]["variant"] == "ultimate" and out[2]["variant"] == "pineapple"
    assert out[1] == {"error": error_of({"variant": "nope"})}
    assert json.loads(run("[]").stdout) == []


def test_jokers_show_what_they_became():
    data = {
        "variant": "jokers",
        "players": [
            {
                "name": "A",
                "top": "2c 3d 4h",
                "middle": "5c 5d 8h 9s Ts",
                "bottom": "Ah Ad As 7h JK",
            },
            {
                "name": "B",
                "top": "2d 3h 4s",
                "middle": "6c 6d 8c 9c 9d",
                "bottom": "Kh Jh Qh JK Th",
            },
        ],
    }
    out = json.loads(run(json.dumps(data)).stdout)
    a = out["players"][0]["rows"]["bottom"]
    assert a["jokers"] == {"JK": "Ac"}
    assert a["cards"] == ["Ah", "Ad", "As", "7h", "Ac"]
    assert "jokers" not in out["players"][0]["rows"]["top"]
    data["players"][0]["bottom"] = "Ah Ad As 7h 7d"
    data["players"][1]["bottom"] = "Kh JK Qh JK Th"
    out = json.loads(run(json.dumps(data)).stdout)
    b = out["players"][1]["rows"]["bottom"]
    assert b["hand"] == "royal flush"
    assert sorted(b["jokers"]) == ["Ah", "Jh"]  # the ace is copied from A's bottom
    assert [b["cards"][1], b["cards"][3]] == b["jokers"]  # in the order entered


def test_a_fouled_board_shows_all_zero_royalties_and_a_six_point_pair():
    fouled = dict(ANNA, middle="Ts Js 8d 6s 5h", top="Ah Ac 3d")  # aces over ten high
    out = json.loads(run(json.dumps(hand(players=[fouled, BRAM]))).stdout)
    anna = out["players"][0]
    assert anna["fouled"] is True
    assert anna["royalties"] == 0
    assert {row["royalty"] for row in anna["rows"].values()} == {0}
    pair = out["pairs"][0]
    assert (pair["rows"], pair["scoop"]) == ([-1, -1, -1], -3)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{nope", "not JSON: Expecting property name enclosed in double quotes (line 1, column 2)"),
        ("", "not JSON: Expecting value (line 1, column 1)"),
        ("42", "expected a JSON object (one hand) or an array of them"),
        ({"players": []}, 'missing "variant"'),
        (
            hand(variant="omaha"),
            'unknown variant "omaha"; the variants are standard, standard-nofl, pineapple, '
            "progressive, ultimate, jokers, deuce",
        ),
        (
            hand(rules={"wild": True}),
            'unknown rule "wild"; the rules are fantasyland, stay_full_house_middle, '
            "stay_wheel_middle, stay_limit, royalties, scoring",
        ),
        (hand(rules={"fantasyland": "yes"}), 'rule "fantasyland" must be true or false, got "yes"'),
        (
            hand(rules={"stay_limit": -1}),
            'rule "stay_limit" must be a whole number or null, got -1',
        ),
        (hand(rules=[1]), '"rules" must be an object of house rules'),
        (hand(players="Anna"), '"players" must be a list of players'),
        (
            hand(variant="pineapple", players=[ANNA, BRAM, ANNA, BRAM]),
            "pineapple takes 2 to 3 players, got 4",
        ),
        (hand(players=[ANNA]), "ultimate takes 2 to 3 players, got 1"),
        (hand(players=[ANNA, "Bram"]), "player 2: must be an object"),
        (hand(players=[ANNA, dict(BRAM, name="")]), 'player 2: "name" must be a non-empty string'),
        (
            hand(players=[ANNA, {k: v for k, v in BRAM.items() if k != "top"}]),
            'player 2 (Bram): missing "top"',
        ),
        (
            hand(players=[ANNA, dict(BRAM, middle="3s 3h Zh 4c 8s")]),
            'player 2 (Bram), middle: "Zh" is not a card',
        ),
        (
            hand(players=[ANNA, dict(BRAM, middle=5)]),
            "player 2 (Bram), middle: expected a string or a list of cards",
        ),
        (
            hand(players=[ANNA, dict(BRAM, middle="3s 3h 4d 4c")]),
            "player 2 (Bram), middle needs 5 cards, got 4",
        ),
        (
            hand(players=[ANNA, dict(BRAM, bottom="Ks Kh 9d 6c Ah")]),
            "Ah appears twice: Anna middle, Bram bottom",
        ),
        (
            hand(players=[ANNA, dict(BRAM, bottom="Ks Kh 9d 6c JK")]),
            "player 2 (Bram), bottom: jokers are only dealt in the jokers game",
        ),
        (
            hand(
                variant="jokers", players=[dict(ANNA, top="JK JK 3d"), dict(BRAM, top="JK 5d 9h")]
            ),
            "player 2 (Bram), top: there are only 2 jokers",
        ),
        (
            hand(players=[ANNA, dict(BRAM, fantasyland={"cards": 12, "stays": 0})]),
            "player 2 (Bram), fantasyland: needs 13 to 17 cards and 0 or more stays, "
            "got 12 cards and 0 stays",
        ),
        (
            hand(players=[ANNA, dict(BRAM, fantasyland={"stays": 0})]),
            'player 2 (Bram), fantasyland: expected null or {"cards": N, "stays": K}',
        ),
        (
            hand(players=[ANNA, dict(BRAM, fantasyland={"cards": 14, "stays": "1"})]),
            'player 2 (Bram), fantasyland: "stays" must be a whole number',
        ),
        (
            hand(players=[ANNA, dict(BRAM, name="Anna")]),
            "player 2 (Anna): two players are called Anna",
        ),
    ],
)
def test_every_error_is_one_line_and_no_output(data, message):
    assert error_of(data) == message


def test_the_contract_example_error_for_a_duplicate_card():
    anna = dict(ANNA, top="Ah Qc 3d", middle="Ts Js Qd Kc 8h")
    bram = dict(BRAM, bottom="Ks Kh 9d 6c Ah")
    assert error_of(hand(players=[anna, bram])) == "Ah appears twice: Anna top, Bram bottom"


# --- the Django command ------------------------------------------------------


def call(*args, stdin: str = "", monkeypatch=None):
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = 0
    try:
        call_command("score", *args, stdout=out, stderr=err)
    except SystemExit as exit_:
        code = exit_.code
    return code, out.getvalue(), err.getvalue()


def test_the_command_reads_a_file(tmp_path, monkeypatch):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand()), encoding="utf-8")
    code, out, err = call(str(path), monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    assert json.loads(out)["players"][0]["name"] == "Anna"


@pytest.mark.parametrize("args", [(), ("-",)])
def test_the_command_reads_standard_input(args, monkeypatch):
    code, out, err = call(*args, stdin=json.dumps([hand()]), monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    assert json.loads(out)[0]["variant"] == "ultimate"


def test_the_command_fails_with_status_2_and_one_line(monkeypatch):
    code, out, err = call(
        stdin=json.dumps(hand(variant="pineapple", players=[ANNA] * 4)), monkeypatch=monkeypatch
    )
    assert (code, out, err) == (2, "", "pineapple takes 2 to 3 players, got 4\n")
    code, out, err = call("/nonexistent/hand.json", monkeypatch=monkeypatch)
    assert code == 2 and out == ""
    assert err == "cannot read /nonexistent/hand.json: No such file or directory\n"


def test_the_command_in_a_real_process():
    bad = subprocess.run(
        [sys.executable, "manage.py", "score", "-"],
        input='{"variant": "pineapple", "players": []}',
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert (bad.returncode, bad.stdout, bad.stderr) == (
        2,
        "",
        "pineapple takes 2 to 3 players, got 0\n",
    )
    good = subprocess.run(
        [sys.executable, "manage.py", "score"],
        input=json.dumps(hand()),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)["pairs"][0]["points"] == 23


# --- input no checker should be able to turn into a traceback ---------------

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    "text", [DEEP, '{"a":' * 100_000 + "1" + "}" * 100_000], ids=["array", "object"]
)
def test_json_nested_too_deeply_is_a_one_line_error(text):
    assert error_of(text).startswith("not JSON: ")


def test_a_lone_surrogate_in_a_name_still_gives_json_that_can_be_written():
    data = hand(players=[dict(ANNA, name="\ud800"), BRAM])
    for text in (json.dumps(data), json.dumps([data])):
        outcome = run(text)
        assert outcome.status == 0
        outcome.stdout.encode("utf-8")  # would raise on a raw surrogate
        assert "\ud800" in outcome.stdout or "\\ud800" in outcome.stdout
    bad = json.dumps([hand(players=[dict(ANNA, name="\ud800", top="Zz"), BRAM])])
    out = run(bad)
    out.stdout.encode("utf-8")
    assert json.loads(out.stdout)[0]["error"].startswith('player 1 (\ud800), top: "Zz"')


def test_names_keep_non_ascii_letters_as_they_are():
    out = run(json.dumps(hand(players=[dict(ANNA, name="Zoë"), BRAM])))
    assert '"name": "Zoë"' in out.stdout


@pytest.mark.parametrize("brk", ["\r", "\u2028", "\u2029", "\x0b", "\x0c", "\x1c", "\x85", "\r\n"])
def test_an_error_naming_a_player_stays_on_one_line(brk):
    message = error_of(hand(players=[ANNA, dict(BRAM, name=f"Br{brk}am", middle="3s")]))
    assert len(message.splitlines()) == 1
    assert message == "player 2 (Br am), middle needs 5 cards, got 1"


@pytest.mark.parametrize(
    ("card", "shown"),
    [(None, "null"), ({"a": 1}, '{"a": 1}'), ([1], "[1]"), (True, "true"), (5, "5")],
)
def test_a_card_that_is_not_a_string_is_quoted_as_json(card, shown):
    message = error_of(hand(players=[ANNA, dict(BRAM, top=["2c", card, "9h"])]))
    assert message == f"player 2 (Bram), top: {shown} is not a card"


def test_the_command_reads_utf8_with_a_byte_order_mark(tmp_path, monkeypatch):
    path = tmp_path / "hand.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(hand()).encode())
    code, out, err = call(str(path), monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    assert json.loads(out)["variant"] == "ultimate"
    code, out, err = call(stdin="\ufeff" + json.dumps(hand()), monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    assert json.loads(out)["variant"] == "ultimate"


def _process(data: bytes, **env):
    import os

    return subprocess.run(
        [sys.executable, "manage.py", "score"],
        input=data,
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, **env},
    )


def test_the_command_reads_and_writes_utf8_whatever_the_locale():
    data = json.dumps(hand(players=[dict(ANNA, name="Zoë"), BRAM]), ensure_ascii=False)
    done = _process(data.encode(), LC_ALL="C", LANG="C", PYTHONIOENCODING="ascii")
    assert (done.returncode, done.stderr) == (0, b"")
    assert json.loads(done.stdout.decode("utf-8"))["players"][0]["name"] == "Zoë"


def test_the_command_in_a_process_never_prints_a_traceback():
    for text in (DEEP, json.dumps(hand(players=[dict(ANNA, name="\ud800"), BRAM]))):
        done = _process(text.encode())
        assert b"Traceback" not in done.stderr
        assert len(done.stderr.splitlines()) <= 1
    done = _process(b"\xff\xfe{}")
    assert (done.returncode, done.stdout) == (2, b"")
    assert len(done.stderr.splitlines()) == 1 and b"Traceback" not in done.stderr
