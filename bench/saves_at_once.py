"""Phones saving at the same instant, through the front: from a save to every other
phone showing it, with one, two and four of a table's four phones saving at once.
Run: ``.venv/bin/python bench/saves_at_once.py`` (``--rounds 10`` for a quick run).

Four phones (Debian's Chromium driven by Playwright, 390x844, as the browser tests run
it) open one night's page, each logged in as one of its players, on the server as
bench/push.py starts it (``python -m ofcboard.serve --front yes``). Each time, the
saving phones fill in a new total and send their forms at one agreed moment of the
machine's clock (a barrier in the pages, as in tests/e2e/test_four_phones_at_once.py);
every page notes, with a MutationObserver, when each player's line first reads its
new total. The figure for a save is the latest of the other phones to show it, from
the agreed moment. The totals never add up to zero, so the round stays open and each
save is a change of a total every phone is showing.
"""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.push import HOST, Server, Tables, ms, pct  # noqa: E402
from tests.e2e.steps import SAVE_AT  # noqa: E402

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Every page: when each player's line first read what is awaited of it.
WATCH = """() => {
  window.benchWanted = {};
  window.benchSeen = {};
  const look = () => {
    for (const [name, wanted] of Object.entries(window.benchWanted)) {
      if (name in window.benchSeen) continue;
      const line = document.querySelector(`.entry-line[data-seat="${CSS.escape(name)}"] .pts`);
      if (line && line.textContent.trim() === wanted) {
        window.benchSeen[name] = performance.timeOrigin + performance.now();
      }
    }
  };
  new MutationObserver(look).observe(document.body, {
    subtree: true, childList: true, characterData: true,
  });
  window.benchAwait = (wanted) => { window.benchWanted = wanted; window.benchSeen = {}; look(); };
}"""


def delays(browser, server: Server, table, rounds: int, at_once: int) -> list[float]:
    """Seconds from each save's agreed moment to the last other phone showing it."""
    from scorekeeper.models import Seat
    from tests.e2e.conftest import PHONE

    base = f"http://{HOST}:{server.port}"
    phones = []  # (the player's name, their phone's page)
    for phone in table.phones[:4]:
        context = browser.new_context(viewport=PHONE, base_url=base)
        name, value = phone.cookie.split("=", 1)
        context.add_cookies([{"name": name, "value": value, "url": base}])
        page = context.new_page()
        page.goto(f"/nights/{table.night}/")
        page.evaluate(WATCH)
        phones.append((Seat.objects.get(pk=phone.seat).name, page))
    deadline = time.monotonic() + 20
    while not all(
        page.evaluate("document.documentElement.dataset.streamState") == "open"
        for _, page in phones
    ):
        if time.monotonic() > deadline:
            raise SystemExit("A page did not open its stream through the front.")
        time.sleep(0.05)
    found: list[float] = []
    for number in range(rounds):
        savers = [phones[(number + n) % 4] for n in range(at_once)]
        wanted = {
            name: f"+{(number * 7 + index * 13) % 90 + 1}" for index, (name, _) in enumerate(savers)
        }
        for _, page in phones:
            page.evaluate("(wanted) => window.benchAwait(wanted)", wanted)
        at = int(time.time() * 1000) + 300
        for name, page in savers:
            page.evaluate(SAVE_AT, [int(wanted[name][1:]), at])
        for name, _ in savers:
            seen = []
            for other, page in phones:
                if other == name:
                    continue
                page.wait_for_function(
                    f"() => {name!r} in window.benchSeen", timeout=15_000, polling=20
                )
                seen.append(page.evaluate(f"window.benchSeen[{name!r}]"))
            found.append((max(seen) - at) / 1000)
        time.sleep(0.4)  # a moment between hands
    for _, page in phones:
        page.context.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    print(f"Saves at the same instant through the front: 4 phones, {args.rounds} times each")
    table = Tables().first(1)[0]

    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

    results = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        with Server(front=True, workers=1) as server:
            for at_once in (1, 2, 4):
                results[at_once] = delays(browser, server, table, args.rounds, at_once)
        browser.close()
    print(f"  {'phones saving at once':<28}{'p50':<10}{'p95':<10}max")
    for at_once, found in results.items():
        figures = [ms(pct(found, share)) for share in (0.5, 0.95, 1.0)]
        print(f"  {at_once:<28}{figures[0]:<10}{figures[1]:<10}{figures[2]}")
    print("  goal: p95 under 1 s and never over 3 s with two and four at once")


if __name__ == "__main__":
    main()
