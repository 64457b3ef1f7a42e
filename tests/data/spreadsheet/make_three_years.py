"""Makes three_years.csv and three_years_good.csv: three years of weekly nights (150,
from Friday 7 January 2022) as a Dutch spreadsheet saves them (semicolons, day-first
dates, decimal commas), one line per player per night, with the same nine people
spelled as people type them ("Bram", "bram", "Bram "). The first file also has three
lines that do not add up: a night whose points come to +1, a name twice in a night, and
a date that does not exist. The same seed always makes the same files:

    .venv/bin/python tests/data/spreadsheet/make_three_years.py
"""

import random
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPELLINGS = {
    "Anna": ["Anna", "anna", "ANNA"],
    "Bram": ["Bram", "bram", "Bram "],
    "Chris": ["Chris", " chris"],
    "Dirk": ["Dirk"],
    "Eva": ["Eva", "eva"],
    "Femke": ["Femke"],
    "Gus": ["Gus", "gus"],
    "Hanna": ["Hanna"],
    "Ivo": ["Ivo", "IVO"],
}
NIGHTS = 150
NOT_ZERO_NIGHT = 40  # its first player's points are one too many
TWICE_NIGHT = 90  # Bram comes twice
BAD_DATE = "31-02-2023"


def nights(rng: random.Random, *, broken: bool) -> list[list[str]]:
    rows = []
    for index in range(NIGHTS):
        day = date(2022, 1, 7) + timedelta(weeks=index)
        stake = "0,10" if index < 75 else "0,25"
        people = rng.sample(sorted(SPELLINGS), rng.randint(3, 6))
        points = [rng.randint(-60, 60) for _ in people[1:]]
        points.insert(0, -sum(points))
        if broken and index == NOT_ZERO_NIGHT:
            points[0] += 1
        for person, value in zip(people, points, strict=True):
            name = rng.choice(SPELLINGS[person])
            rows.append([day.strftime("%d-%m-%Y"), name, f"{value:+d}", stake, "standard"])
        if broken and index == TWICE_NIGHT:
            twice = rng.choice(SPELLINGS[people[0]])
            rows.append([day.strftime("%d-%m-%Y"), twice, "+0", stake, "standard"])
    return rows


def write(path: Path, rows: list[list[str]]) -> None:
    lines = ["Date;Name;Points;Stake;Game"] + [";".join(row) for row in rows]
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")


def main() -> None:
    bad = nights(random.Random(33), broken=True)
    bad.insert(len(bad) // 2, [BAD_DATE, "Eva", "+5", "0,10", "standard"])
    write(HERE / "three_years.csv", bad)
    write(HERE / "three_years_good.csv", nights(random.Random(33), broken=False))


if __name__ == "__main__":
    main()
