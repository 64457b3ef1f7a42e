"""Bringing a group's history in: ``manage.py restore`` of a site whose group played
300 nights, the import of that group's CSV export and of its JSON export (300 nights
each) into a new group, and
the slowest save of another phone while the worst file of the hostile set (the slowest
to be answered) is uploaded. Run: ``.venv/bin/python bench/imports.py``.

A throwaway SQLite file, in this process through Django's test client; the other phone
saves from a thread of its own with its own connection, as a second request would.
"""

import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
folder = tempfile.mkdtemp()
os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
os.environ["OFCBOARD_TEST_STATIC_ROOT"] = tempfile.mkdtemp()

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

NIGHTS = 30 if os.environ.get("OFCBOARD_BENCH_QUICK") == "1" else 300


def main() -> None:
    setup_test_environment()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    from tests.helpers import enter, finish, log_in, make_group, make_night
    from tests.management.test_backup import empty_the_database
    from tests.views.test_hostile_files import HOSTILE
    from tests.views.test_import import csv_file

    group = make_group(members=("Anna", "Bram", "Chris"))
    for _ in range(NIGHTS):
        night = make_night(("Anna", "Bram", "Chris"), group=group)
        for points in (5, -3, 8):
            enter(night, "Anna", points)
            enter(night, "Bram", -points)
            enter(night, "Chris", 0)
        finish(night)
    client = log_in(Client(), "Anna")
    export = b"".join(client.get(reverse("group_export", args=[group.pk, "csv"])).streaming_content)
    as_json = b"".join(
        client.get(reverse("group_export", args=[group.pk, "json"])).streaming_content
    )

    backup = Path(folder) / "site.json"
    call_command("backup", str(backup), stdout=open(os.devnull, "w"))  # noqa: SIM115
    empty_the_database()
    started = time.perf_counter()
    call_command("restore", str(backup), stdout=open(os.devnull, "w"))  # noqa: SIM115
    restore = time.perf_counter() - started

    other = make_group("Copy", members=("Anna",))
    client = log_in(Client(), "Anna")
    url = reverse("group_import", args=[other.pk])
    started = time.perf_counter()
    preview = client.post(url, {"file": csv_file(export)})
    token = preview.context["confirm"]["nights"].value()
    answer = client.post(url, {"nights": token})
    imported = time.perf_counter() - started
    assert answer.status_code == 302, answer.status_code

    from_json = make_group("From JSON", members=("Anna",))
    json_url = reverse("group_import", args=[from_json.pk])
    started = time.perf_counter()
    preview = client.post(json_url, {"file": csv_file(as_json, "group.json")})
    assert preview.context["problems"] == [], preview.context["problems"]
    token = preview.context["confirm"]["nights"].value()
    answer = client.post(json_url, {"nights": token})
    imported_json = time.perf_counter() - started
    assert answer.status_code == 302, answer.status_code

    answers = {}
    for name, data in HOSTILE.items():
        started = time.perf_counter()
        client.post(url, {"file": csv_file(data)})
        answers[name] = time.perf_counter() - started
    worst = max(answers, key=answers.__getitem__)

    night = make_night(("Anna", "Bram"), group=group)
    saves: list[float] = []
    done = threading.Event()

    def phone() -> None:
        points = 1
        while not done.is_set():
            started = time.perf_counter()
            enter(night, "Anna", points)
            enter(night, "Bram", -points)
            saves.append((time.perf_counter() - started) / 2)
            points += 1
        connection.close()

    thread = threading.Thread(target=phone, daemon=True)
    thread.start()
    time.sleep(0.2)
    started = time.perf_counter()
    client.post(url, {"file": csv_file(HOSTILE[worst])})
    during = time.perf_counter() - started
    time.sleep(0.1)
    done.set()
    thread.join(timeout=10)

    print(f"restore of a site with a group of {NIGHTS} nights: {restore:.2f} s")
    print(
        f"import of that group's CSV export ({len(export) // 1000} KB), "
        f"upload and confirm: {imported:.2f} s"
    )
    print(
        f"import of its JSON export ({len(as_json) // 1000} KB), "
        f"upload and confirm: {imported_json:.2f} s"
    )
    print(f"hostile files answered in: {max(answers.values()):.2f} s at most ({worst})")
    print(
        f"another phone's slowest save during it ({during:.2f} s): "
        f"{max(saves) * 1000:.0f} ms over {len(saves)} saves"
    )


if __name__ == "__main__":
    main()
