"""What one change costs the node, per phone at the table, in this process. Run:
``.venv/bin/python bench/renders.py`` (``DATABASE_URL=postgres://...`` for PostgreSQL;
SQLite in a throwaway file otherwise).

A table of six phones on the night page: its four players (the most a game seats) and
two more members of the group following along. A change is a real save
(one player's total, through the service every save goes through; every sixth puts a
round through). After each change every phone fetches its live part as live.js does
when the pushed "version N" is newer than what it shows: the night's live view, with
the version, round and seat it shows, through Django's WSGI handler with the settings
`make run` serves. Printed: the CPU time of this process spent answering the six
fetches, per change and per phone, and how many times the part every phone shares was
rendered. Twice in the same run: with the shared part served from Django's "default"
cache (as the app runs), and with that cache off (Django's DummyCache: every phone
renders everything, as before the cache). The same for the group page's list of nights
(six phones on it while the night is played) and for the settlement.

Then the requests reaching the app per phone a minute on a night changing every 10 s,
counted from what live.js does (a fetch for each pushed version the page does not
show, the safety poll every 30 s) against htmx's poll every 2 s; bench/push.py
measures the same through the front ("requests" part).

CPU time of this process, not the clock's: other work on the machine changes it less.
"""

import os
import sys
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.in_process import set_up_django  # noqa: E402

set_up_django()

from django.core.handlers.wsgi import WSGIHandler  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client, RequestFactory, override_settings  # noqa: E402

# A quick run (the test suite checks that the benchmark still runs) or the real one.
QUICK = os.environ.get("OFCBOARD_BENCH_QUICK") == "1"
SEATS = 4
PHONES = 6
ROUNDS_BEFORE = 2 if QUICK else 20  # played before measuring: a night under way
CHANGES = 8 if QUICK else 120  # whole rounds, as many of each way
CHANGE_EVERY_S = 10
CORES = 2  # the node the goals are set for
POLL_EVERY_S = 2
SAFETY_POLL_S = 30  # live.js's SAFETY_POLL_MS


def no_cache() -> dict:
    """The app's caches with "default", where the shared parts are kept, turned off."""
    from django.conf import settings

    return {
        **settings.CACHES,
        "default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"},
    }


class Phone:
    """One player's phone: its session, and what its night page shows."""

    def __init__(self, handler: WSGIHandler, client: Client, seat: int | str) -> None:
        self.handler = handler
        self.client = client  # for its saves (the test client leaves out the CSRF check)
        self.cookie = f"sessionid={client.cookies['sessionid'].value}"
        self.seat = seat

    def get(self, path: str, params: dict) -> tuple[str, bytes]:
        environ = RequestFactory().get(path, params, HTTP_COOKIE=self.cookie).environ
        statuses: list[str] = []
        body = self.handler(environ, lambda status, headers, info=None: statuses.append(status))
        content = b"".join(body)
        body.close()
        return statuses[-1], content


def a_table():
    from bench.tables import a_group, a_night, play
    from scorekeeper.models import User

    suffix = str(time.time_ns())[-8:]
    users = [User.objects.create_user(name=f"P{n}{suffix}", password=None) for n in range(PHONES)]
    group = a_group(f"Bench {suffix}", users)
    night = a_night(group, users[:SEATS])
    totals = [[(number + seat) % 5 - 2 for seat in range(SEATS - 1)] for number in range(99)]
    play(night, users[0], [[*row, -sum(row)] for row in totals[:ROUNDS_BEFORE]])
    return night, users


def phones_for(users) -> list[Phone]:
    handler = WSGIHandler()
    phones = []
    for user in users:
        client = Client()
        client.force_login(user)
        seat = user.seats.order_by("-pk").first()
        phones.append(Phone(handler, client, seat.pk if seat else ""))
    return phones


class Renders:
    """How many times the shared parts are rendered (scorekeeper/views/shared_parts.py)."""

    def __init__(self, one_of_them: str = "#standings-shared") -> None:
        self.one_of_them = one_of_them  # a part rendered once with each set of them

    def __enter__(self) -> "Renders":
        from scorekeeper.views import shared_parts

        self.count = 0
        self.module = shared_parts
        self.original = shared_parts.render_to_string

        def counted(name: str, *args: object, **kwargs: object) -> str:
            self.count += name.endswith(self.one_of_them)
            return self.original(name, *args, **kwargs)

        shared_parts.render_to_string = counted
        return self

    def __exit__(self, *problem: object) -> None:
        self.module.render_to_string = self.original


@dataclass
class Spent:
    """CPU seconds spent on changes: their saves, and the phones' fetches of them."""

    changes: int = 0
    saves: float = 0.0
    fetches: float = 0.0
    renders: int = 0  # of the shared parts

    def __add__(self, other: "Spent") -> "Spent":
        return Spent(
            self.changes + other.changes,
            self.saves + other.saves,
            self.fetches + other.fetches,
            self.renders + other.renders,
        )

    def per_phone(self) -> float:
        """CPU seconds a change, per phone fetching it."""
        return self.fetches / self.changes / PHONES

    def save(self) -> float:
        return self.saves / self.changes


def next_total(night, seats: list, change: int) -> tuple:
    """The open round, the seat without a total yet and its total: the last seat's puts
    the round through."""
    round_ = night.open_round()
    index = round_.entries.count()
    points = (change % 5) - 2
    if index == SEATS - 1:
        points = -sum(entry.points for entry in round_.entries.all())
    return round_, index, points


def posted_total(night, seats: list, phones: list[Phone], change: int, spent: "Spent") -> tuple:
    """The next total posted from its player's phone as the form posts it (the answer
    is a redirect), its CPU time added to ``spent.saves``: (the round, the seat's index)."""
    round_, index, points = next_total(night, seats, change)
    save = {"round": round_.number, "seat": seats[index].pk, "points": points}
    start = time.process_time()
    saved = phones[index].client.post(f"/nights/{night.pk}/entry/", save)
    spent.saves += time.process_time() - start
    assert saved.status_code == 302, saved.status_code
    return round_, index


def fetched_by_all(phones: list[Phone], path: str, params: dict, own_seat: bool = False) -> float:
    """Each phone's fetch of ``path``: the CPU seconds they took together."""
    start = time.process_time()
    for phone in phones:
        status, _body = phone.get(path, {**params, **({"seat": phone.seat} if own_seat else {})})
        assert status.startswith("200"), status
    return time.process_time() - start


def night_changes(night, users, phones: list[Phone], changes: int) -> Spent:
    """A change at a time: a player's total saved from their phone as its form posts it
    (the answer is a redirect), then each phone's fetch of the live part."""
    from scorekeeper.models import Night

    seats = list(night.seats.order_by("position"))
    spent = Spent(changes)
    with Renders() as renders:
        for change in range(changes):
            night = Night.objects.get(pk=night.pk)
            shown = night.version
            round_, _index = posted_total(night, seats, phones, change, spent)
            params = {"version": shown, "round": round_.number}
            spent.fetches += fetched_by_all(phones, f"/nights/{night.pk}/live/", params, True)
    spent.renders = renders.count
    return spent


def carried_changes(night, users, phones: list[Phone], changes: int) -> Spent:
    """The night page's changes as they reach phones behind the front: a save, then
    the message's live part made once for the table (views/pushed_parts.carried, as
    the publish after commit makes it), and the phones' fetches only when a new round
    opened (its entry form is each phone's own); at an unchanged round they show what
    the message carried."""
    from scorekeeper.models import Night
    from scorekeeper.views.pushed_parts import asked_in, carried

    asked_in(night.pk, "en")
    seats = list(night.seats.order_by("position"))
    spent = Spent(changes)
    with Renders() as renders:
        for change in range(changes):
            round_, index = posted_total(
                Night.objects.get(pk=night.pk), seats, phones, change, spent
            )
            night = Night.objects.get(pk=night.pk)
            start = time.process_time()
            assert carried(night.pk, night.version) is not None
            spent.fetches += time.process_time() - start
            if index == SEATS - 1:  # through: every phone fetches the new round's form
                params = {"version": night.version - 1, "round": round_.number}
                spent.fetches += fetched_by_all(phones, f"/nights/{night.pk}/live/", params, True)
    spent.renders = renders.count
    return spent


def group_changes(night, users, phones: list[Phone], changes: int) -> Spent:
    """The same for the group page's live list of nights: a player's total saved
    (through the service every save goes through), then each phone's fetch of the list,
    from the fingerprint of the group's nights it showed before."""
    from django.urls import reverse

    from scorekeeper.models import Group, Night
    from scorekeeper.services.rounds import record_entry

    seats = list(night.seats.order_by("position"))
    group = Group.objects.get(pk=night.group_id)
    path = reverse("group_live", args=[group.pk])
    spent = Spent(changes)
    with Renders("group.html#live") as renders:
        for change in range(changes):
            night = Night.objects.get(pk=night.pk)
            shown = Group.objects.filter(pk=group.pk).nights_version()
            round_, index, points = next_total(night, seats, change)
            start = time.process_time()
            record_entry(
                night=night,
                round_number=round_.number,
                seat=seats[index],
                points=points,
                entered_by=seats[index].user,
            )
            spent.saves += time.process_time() - start
            spent.fetches += fetched_by_all(phones, path, {"version": shown})
    spent.renders = renders.count
    return spent


def settlement_changes(night, users, phones: list[Phone], changes: int) -> Spent:
    """The same for the settlement's live part, once the night is over: a payment
    marked paid by its payee, then taken back, and so on (through the services)."""
    from scorekeeper.models import Night, Payment
    from scorekeeper.reads.results import night_results
    from scorekeeper.services.payments import mark_paid, unmark_paid

    night = Night.objects.get(pk=night.pk)
    line = night_results(night).payments[0]
    payee = next(user for user in users if user.pk == line.payee.user_id)
    spent = Spent(changes)
    with Renders("#chart-shared") as renders:
        for _change in range(changes):
            night = Night.objects.get(pk=night.pk)
            shown = night.version
            paid = Payment.objects.filter(night=night).first()
            start = time.process_time()
            if paid is None:
                mark_paid(
                    night=night,
                    payer=line.payer,
                    payee=line.payee,
                    cents=line.cents,
                    marked_by=payee,
                )
            else:
                unmark_paid(night=night, payment=paid, by=payee)
            spent.saves += time.process_time() - start
            path = f"/nights/{night.pk}/settle/live/"
            spent.fetches += fetched_by_all(phones, path, {"version": shown})
    spent.renders = renders.count
    return spent


def requests_a_minute() -> tuple[float, float, float]:
    """Requests per phone a minute reaching the app on a night page (live.js): with its
    live part carried in the message (a fetch for each new round's form; an applied
    message counts as asked for the safety poll), fetching each change, and polled."""
    carried = 60 / (CHANGE_EVERY_S * SEATS)  # a round is a change for each seat
    pushed = 60 / CHANGE_EVERY_S + 60 / SAFETY_POLL_S
    polled = 60 / POLL_EVERY_S
    return carried, pushed, polled


def main() -> None:
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    night, users = a_table()
    phones = phones_for(users)
    night_changes(night, users, phones, SEATS)  # warm: imports, templates, connections
    from scorekeeper.models import Night
    from scorekeeper.services.nights import end_night

    print(f"One change at a table of {PHONES} phones, {CHANGES} changes, CPU time of this process")
    modes = (("shared parts cached", None), ("cache off", no_cache()))
    for page, changed, block in (
        ("night page", night_changes, SEATS),  # a block is a round: its saves, then through
        ("group page", group_changes, SEATS),
        ("settlement", settlement_changes, 2),  # a payment marked, then taken back
    ):
        if changed is settlement_changes:
            end_night(night=Night.objects.get(pk=night.pk), by=users[0])
            settlement_changes(night, users, phones, 2)  # warm
        # The two ways a block at a time in turn, so both see the night as long.
        spent = [Spent(), Spent()]
        for number in range(CHANGES // block):
            caches = modes[number % 2][1]
            with override_settings(CACHES=caches) if caches else nullcontext():
                spent[number % 2] += changed(night, users, phones, block)
        for (label, _caches), theirs in zip(modes, spent, strict=True):
            print(
                f"  {page}, {label:<19} {theirs.per_phone() * 1000:6.2f} ms a phone a change, "
                f"{theirs.per_phone() * PHONES * 1000:6.1f} ms a change, "
                f"shared parts rendered {theirs.renders / theirs.changes:.1f} times"
            )
        ratio = spent[0].per_phone() / spent[1].per_phone()
        print(f"  {page}: the node's CPU a change, cached / cache off: {ratio:.2f}")
        if changed is night_changes:
            # What a two-core node could hold if the CPU were all that counted: each save
            # and its six phones' fetches, on both cores (no waiting, no front, no push).
            for (label, _caches), theirs in zip(modes, spent, strict=True):
                each = theirs.save() + theirs.per_phone() * PHONES
                print(
                    f"  saves a second two cores could hold, {label}: {CORES / each:5.0f} "
                    f"(the save itself {theirs.save() * 1000:.1f} ms)"
                )
    # The night page behind the front, its live part carried in the message, against
    # the phones fetching it (the shared parts cached either way), in turns.
    night, users = a_table()
    phones = phones_for(users)
    carried_changes(night, users, phones, SEATS)  # warm
    ways = (("carried in the message", carried_changes), ("each phone fetching", night_changes))
    spent = [Spent(), Spent()]
    for number in range(CHANGES // SEATS):
        spent[number % 2] += ways[number % 2][1](night, users, phones, SEATS)
    for (label, _way), theirs in zip(ways, spent, strict=True):
        each = theirs.save() + theirs.per_phone() * PHONES
        besides = theirs.per_phone() * PHONES * 1000
        print(
            f"  night page behind the front, {label:<23} {besides:6.1f} ms a change besides"
            f" the save; saves a second two cores could hold: {CORES / each:4.0f}"
        )
    carried_a_minute, pushed, polled = requests_a_minute()
    print(
        f"Requests reaching the app per phone a minute, a change every {CHANGE_EVERY_S} s: "
        f"{carried_a_minute:.1f} with the live part carried (a fetch a new round), "
        f"{pushed:.1f} fetching each change, {polled:.1f} polling every {POLL_EVERY_S} s "
        f"({polled / carried_a_minute:.1f}x fewer)"
    )


if __name__ == "__main__":
    main()
