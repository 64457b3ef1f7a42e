"""The JSON contract of ``python manage.py score``: JSON text in, JSON text out.

Input is one hand as an object, or an array of them::

    {"variant": "ultimate", "rules": {"stay_limit": null, "scoring": {"scoop": 0, "majority": 1},
                                      "royalties": {"top_pair": {"AA": 12}}},
     "players": [{"name": "Anna", "top": "Qh Qc 3d", "middle": [...], "bottom": "...",
                  "fantasyland": {"cards": 16, "stays": 1}}, ...]}

``rules.royalties`` (changes to the standard table) and ``rules.scoring`` (the
scoop and majority bonus) are read by :data:`~scorekeeper.ofc.games.TABLE_RULES`;
every pair of the output carries its ``majority`` (0 under 1-6).

For an object the output is one result (exit status 0), or, when the hand
cannot be scored, nothing on standard output and one line on standard error
(exit status 2). For an array, a hand that cannot be scored becomes
``{"error": "..."}`` in its place and the others are still scored.

>>> hand = {"variant": "pineapple", "players": [
...     {"name": "A", "top": "Qh Qc 3d", "middle": "Ts Js Qd Kc Ah", "bottom": "7d 7c 7s 2h 2s"},
...     {"name": "B", "top": "2c 5d 9h", "middle": "3s 3h 4d 4c 8s", "bottom": "Ks Kh 9d 6c 6h"}]}
>>> out = run(json.dumps(hand))
>>> out.status, json.loads(out.stdout)["players"][0]["points"]
(0, 23)
>>> run('{"variant": "omaha"}').stderr.split(";")[0]
'unknown variant "omaha"'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TypeAlias

from .board import PlayerBoard, RowResult
from .cards import Card, OFCError, parse_cards
from .fantasyland import FantasylandState
from .games import HOUSE_RULES, PRESETS, TABLE_RULES, Game, RuleKind
from .rule_values import whole_number
from .scoring import TableResult, score_table

__all__ = ["JSON", "Outcome", "hand_from_json", "result_to_json", "run", "score_hand"]

# A value as json.loads gives it and json.dumps takes it. Input is read as
# ``object`` and checked as it is read; this is what the output is made of.
JSON: TypeAlias = dict[str, "JSON"] | list["JSON"] | str | int | float | bool | None

# House rules the input may switch, and the kind of value each takes: all of
# them but the dealer button's, which the engine does not move. The table's own
# royalties and scoring (TABLE_RULES) are objects, checked by their readers.
RULES = {name: kind for name, kind in HOUSE_RULES.items() if name != "hold_button"}
RULE_NAMES = (*RULES, *TABLE_RULES)


@dataclass(frozen=True)
class Outcome:
    stdout: str  # the JSON, or "" on an error
    stderr: str  # one line without its newline, or ""
    status: int


def _game(data: dict[str, object]) -> Game:
    variant = data.get("variant")
    if "variant" not in data:
        raise OFCError('missing "variant"')
    if not isinstance(variant, str) or variant not in PRESETS:
        shown = json.dumps(variant) if not isinstance(variant, str) else f'"{variant}"'
        raise OFCError(f"unknown variant {shown}; the variants are {', '.join(PRESETS)}")
    game = PRESETS[variant]
    rules = data.get("rules")
    if rules is None:
        return game
    if not isinstance(rules, dict):
        raise OFCError('"rules" must be an object of house rules')
    for name, value in rules.items():
        if name in TABLE_RULES:
            TABLE_RULES[name](value)  # raises RuleError (an OFCError) saying what is wrong
            continue
        kind = RULES.get(name)
        if kind is None:
            raise OFCError(f'unknown rule "{name}"; the rules are {", ".join(RULE_NAMES)}')
        if not kind.accepts(value):
            expected = "true or false" if kind is RuleKind.SWITCH else "a whole number or null"
            raise OFCError(f'rule "{name}" must be {expected}, got {json.dumps(value)}')
    return game.with_house_rules(rules)


def _fantasyland(value: object, where: str) -> FantasylandState | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not whole_number(value.get("cards")):
        raise OFCError(f'{where}, fantasyland: expected null or {{"cards": N, "stays": K}}')
    stays = value.get("stays", 0)
    if not whole_number(stays):
        raise OFCError(f'{where}, fantasyland: "stays" must be a whole number')
    return FantasylandState(value["cards"], stays)


def hand_from_json(data: object) -> tuple[Game, list[PlayerBoard]]:
    """The game and boards of one hand in the contract's input form."""
    if not isinstance(data, dict):
        raise OFCError("a hand must be a JSON object")
    game = _game(data)
    players = data.get("players")
    if not isinstance(players, list):
        raise OFCError('"players" must be a list of players')
    if not game.min_players <= len(players) <= game.max_players:
        raise OFCError(
            f"{game.id} takes {game.min_players} to {game.max_players} players, got {len(players)}"
        )
    boards = []
    for seat, player in enumerate(players, start=1):
        if not isinstance(player, dict):
            raise OFCError(f"player {seat}: must be an object")
        name = player.get("name", f"Player {seat}")
        if not isinstance(name, str) or not name.strip():
            raise OFCError(f'player {seat}: "name" must be a non-empty string')
        where = f"player {seat} ({name})"
        top, middle, bottom = (
            _row_cards(player, row, where) for row in ("top", "middle", "bottom")
        )
        state = _fantasyland(player.get("fantasyland"), where)
        boards.append(PlayerBoard(name, top, middle, bottom, state))
    return game, boards


def _row_cards(player: dict[str, object], row: str, where: str) -> tuple[Card, ...]:
    if row not in player:
        raise OFCError(f'{where}: missing "{row}"')
    cards = player[row]
    if not isinstance(cards, str | list):
        raise OFCError(f"{where}, {row}: expected a string or a list of cards")
    try:
        return parse_cards(cards)
    except OFCError as error:
        raise OFCError(f"{where}, {row}: {error}") from None


def _row_json(row: RowResult) -> dict[str, JSON]:
    out: dict[str, JSON] = {
        "cards": [str(card) for card in row.cards],
        "hand": row.hand,
        "royalty": row.royalty,
    }
    if len(row.jokers) == 1:
        out["jokers"] = {"JK": str(row.jokers[0])}
    elif row.jokers:
        out["jokers"] = [str(card) for card in row.jokers]
    return out


def result_to_json(result: TableResult) -> dict[str, JSON]:
    """A scored hand in the contract's output form."""
    return {
        "variant": result.game.id,
        "players": [
            {
                "name": player.name,
                "fouled": player.fouled,
                "rows": {row.row.value: _row_json(row) for row in player.rows},
                "royalties": player.royalties,
                "points": player.points,
                "fantasyland": (
                    None
                    if player.fantasyland is None
                    else {"cards": player.fantasyland.cards, "stays": player.fantasyland.stays}
                ),
            }
            for player in result.players
        ],
        "pairs": [
            {
                "players": [*pair.players],
                "rows": [*pair.rows],
                "scoop": pair.scoop,
                "majority": pair.majority,
                "royalties": pair.royalties,
                "points": pair.points,
            }
            for pair in result.pairs
        ],
    }


def score_hand(data: object) -> dict[str, JSON]:
    """Score one hand given as parsed JSON; raises :class:`OFCError`."""
    game, boards = hand_from_json(data)
    return result_to_json(score_table(game, boards))


def _dump(value: JSON) -> str:
    """The JSON text, readable (letters as they are) and always valid UTF-8.

    A name may hold a lone surrogate (``"\\ud800"`` is valid JSON), which no
    UTF-8 output can carry: then the whole text falls back to ASCII escapes.
    """
    text = json.dumps(value, indent=2, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, indent=2)
    return text


def one_line(message: str) -> str:
    """A message on exactly one line: every kind of line break becomes a space."""
    return " ".join(message.splitlines()) or message


def _score_one(hand: object) -> dict[str, JSON]:
    """One hand's result or its error; a bug in the engine is an error too,
    never a traceback or a partial score."""
    try:
        return score_hand(hand)
    except OFCError as error:
        return {"error": str(error)}
    except RecursionError:
        return {"error": "the hand is nested too deeply"}
    except Exception as error:  # the contract allows no traceback
        return {"error": f"internal error: {type(error).__name__}: {error}"}


def run(text: str) -> Outcome:
    """The whole command: input text -> what to print and the exit status."""
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except RecursionError:
        return Outcome("", "not JSON: nested too deeply", 2)
    except json.JSONDecodeError as error:
        where = f" (line {error.lineno}, column {error.colno})"
        return Outcome("", one_line(f"not JSON: {error.msg}{where}"), 2)
    except ValueError as error:  # e.g. a number with more digits than Python converts
        return Outcome("", one_line(f"not JSON: {error}"), 2)
    if isinstance(data, list):
        return Outcome(_dump([_score_one(hand) for hand in data]), "", 0)
    if not isinstance(data, dict):
        return Outcome("", "expected a JSON object (one hand) or an array of them", 2)
    result = _score_one(data)
    message = result.get("error")
    if isinstance(message, str):
        return Outcome("", one_line(message), 2)
    return Outcome(_dump(result), "", 0)
