"""How backup-0011.json and figures-0011.json were made: run by hand once, with the
code of the commit where migration 0011 was the newest (3cbd53e), never by the tests.

    git worktree add ../wt-0011 3cbd53e
    cd ../wt-0011
    DJANGO_SETTINGS_MODULE=tests.settings DATABASE_URL=sqlite:///$PWD/old.sqlite3 \
        <this checkout>/.venv/bin/python <this checkout>/tests/management/data/make_backup_0011.py \
        <this checkout>/tests/management/data

It plays a group through that version's own services (cards, a fix, a loss cap, a
night's payment marked, a payment across nights, a night still running), writes that
version's backup of it, and what that version's pages and exports said of it, which
tests/management/test_rebuild.py compares a restore of the backup against.
"""

import json
import sys
from pathlib import Path

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from scorekeeper.models import Night, User  # noqa: E402
from scorekeeper.reads.history import group_table, member_records, player_history  # noqa: E402
from scorekeeper.reads.owed import owed_across_nights  # noqa: E402
from scorekeeper.reads.records import player_record  # noqa: E402
from scorekeeper.reads.results import night_results  # noqa: E402
from scorekeeper.services.payments import mark_paid, pay_owed  # noqa: E402
from scorekeeper.services.round_fixes import edit_round  # noqa: E402
from tests.helpers import (  # noqa: E402
    body_text,
    enter,
    finish,
    log_in,
    make_night,
    play,
    play_two_nights,
    seats_of,
)


def play_the_group():
    """played_site of tests/management/test_backup.py at that version, with a night
    under a loss cap between the payments."""
    group, first, second = play_two_nights(make_night)
    anna = User.objects.get(name="Anna")
    correct_the_second_night(second, anna)
    capped = make_night(("Anna", "Bram", "Chris"), point_cents=10, loss_cap_cents=150, group=group)
    play(capped, {"Anna": 20, "Bram": 5, "Chris": -25}, {"Anna": 8, "Bram": -4, "Chris": -4})
    finish(capped)
    first_seats = seats_of(first)
    mark_paid(
        night=first, payer=first_seats["Chris"], payee=first_seats["Bram"], cents=70, marked_by=anna
    )
    capped_seats = seats_of(capped)
    lines = night_results(capped).payments
    line = next(line for line in lines if line.payee.name == "Bram")
    mark_paid(
        night=capped,
        payer=capped_seats[line.payer.name],
        payee=capped_seats[line.payee.name],
        cents=line.cents,
        marked_by=anna,
    )
    pay_half_of_what_is_owed(group, anna)
    a_fantasyland_hand_in_progress(group)
    return group


# The steps test_backup.played_site takes too (it imports them from here).


def correct_the_second_night(second: Night, by: User) -> None:
    """Round 2 of play_two_nights' second night corrected."""
    seats = seats_of(second)
    edit_round(
        night=second,
        number=2,
        edited_by=by,
        points={seats["Anna"].pk: 12, seats["Bram"].pk: -6, seats["Gus"].pk: -6},
    )


def pay_half_of_what_is_owed(group, by: User) -> None:
    """Half of the first payment still owed across nights, paid."""
    owed = owed_across_nights(group)
    payment = owed.payments[0]
    pay_owed(
        group=group,
        payer=payment.payer.key,
        payee=payment.payee.key,
        cents=payment.cents // 2,
        currency=group.currency,
        fingerprint=owed.fingerprint,
        marked_by=by,
    )


def a_fantasyland_hand_in_progress(group) -> Night:
    """A night still running: Bram plays round 2 in Fantasyland, Anna's total is in."""
    tonight = make_night(("Anna", "Bram", "Chris"), game="progressive", group=group)
    play(tonight, {"Anna": 10, "Bram": 5, "Chris": -15}, claims={0: {"Bram": "qq"}})
    enter(tonight, "Anna", -4)
    return tonight


def figures(group) -> dict:
    """What the pages said, as plain values (the same shape test_rebuild.py reads)."""
    members = list(User.objects.filter(memberships__group=group).order_by("name"))
    nights = list(Night.objects.filter(group=group).order_by("pk"))
    tables = group_table(group)
    rows = [row for table in tables for row in getattr(table, "rows", [table])]
    client = log_in(Client(), "Anna")
    exports = {}
    for fmt in ("json", "csv"):
        url = reverse("group_export", args=[group.pk, fmt])
        exports[f"group.{fmt}"] = body_text(client.get(url))
        for night in nights:
            url = reverse("night_export", args=[night.pk, fmt])
            exports[f"night-{night.pk}.{fmt}"] = body_text(client.get(url))
    return {
        "group_table": [
            [row.name, row.nights, row.rounds, row.fantasylands, row.stake_lines, row.money_lines]
            for row in rows
        ],
        "members": [
            [record.user.name, record.nights, record.won, record.money_lines]
            for record in member_records(group)
        ],
        "history": {
            user.name: [
                [line.night.pk, line.points, line.cents, line.place, line.players]
                for line in player_history(group, user).nights
            ]
            for user in members
        },
        "records": {user.name: record_of(player_record(group, user)) for user in members},
        "owed": [
            [payment.payer.name, payment.payee.name, payment.cents, payment.currency]
            for payment in owed_across_nights(group).payments
        ],
        "nights": {str(night.pk): settlement_of(night_results(night)) for night in nights},
        "exports": exports,
    }


def record_of(record) -> dict:
    cards = record.cards
    return {
        "hands": record.hands,
        "won": record.won,
        "stakes": [[s.currency, s.point_cents, s.points, s.hands] for s in record.stakes],
        "cards": [
            cards.hands,
            cards.fouls,
            cards.royalties,
            cards.could_make,
            cards.made,
            cards.in_fantasyland,
            cards.stayed,
        ],
        "best_hands": [
            [hand.key, hand.description, hand.row.value, hand.night.pk, hand.round_number]
            for hand in cards.best_hands
        ],
        "head_to_head": [
            [rival.name, rival.hands, rival.won, rival.lost, rival.stake_lines]
            for rival in cards.head_to_head
        ],
    }


def settlement_of(results) -> dict:
    return {
        "players": [
            [p.seat.name, p.points, p.cents, p.uncapped_cents, p.forgiven, p.reduced]
            for p in results.players
        ],
        "payments": [
            [line.payer.name, line.payee.name, line.cents, line.is_paid]
            for line in results.payments
        ],
    }


def main(folder: Path) -> None:
    call_command("migrate", interactive=False, verbosity=0)
    group = play_the_group()
    call_command("backup", str(folder / "backup-0011.json"))
    (folder / "figures-0011.json").write_text(
        json.dumps(figures(group), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
