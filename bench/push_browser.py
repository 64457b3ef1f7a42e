"""A save reaching the other phones at the table, in a browser, through the front and
without it. Run: ``.venv/bin/python bench/push_browser.py`` (``--saves 10`` for a
quick run).

Three phones (Debian's Chromium driven by Playwright, 390x844, as the browser tests
run it) open one night's page, each logged in as one of its players, on the server
as bench/push.py starts it (``python -m ofcboard.serve --front yes``, then without
``--front``). The first phone saves its total SAVES times, as a player does (typed in
the box, Save tapped), a different one each time; for each save, the time from the
tap (and from the save's answer) until the two other phones' pages show it, timed in
the pages themselves: a MutationObserver notes when the player's line first reads the
new total (performance.timeOrigin + performance.now(), one clock for every page of
the machine). The figure for a save is the later of the two phones.
"""

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.push import HOST, Server, Table, Tables, ms, pct  # noqa: E402

# Playwright's sync API keeps an event loop running in this thread (as in the tests).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Each of the other phones: the moment the player's line first reads what is awaited.
WATCH = """name => {
  window.benchWanted = null;
  window.benchSeen = null;
  const look = () => {
    if (window.benchWanted === null || window.benchSeen !== null) return;
    const line = document.querySelector(`.entry-line[data-seat="${CSS.escape(name)}"] .pts`);
    if (line && line.textContent.trim() === window.benchWanted) {
      window.benchSeen = performance.timeOrigin + performance.now();
    }
  };
  new MutationObserver(look).observe(document.body, {
    subtree: true, childList: true, characterData: true,
  });
  window.benchAwait = (wanted) => { window.benchWanted = wanted; window.benchSeen = null; look(); };
}"""

# The saving phone: when Save was tapped, and when the save's answer came in.
TAPS = """() => {
  window.benchTapped = null;
  window.benchAnswered = null;
  document.addEventListener("click", (event) => {
    if (event.target.closest("#entry-form button[type=submit]")) {
      window.benchTapped = performance.timeOrigin + performance.now();
    }
  }, true);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name.includes("/entry/")) {
        window.benchAnswered = performance.timeOrigin + entry.responseEnd;
      }
    }
  }).observe({ type: "resource", buffered: false });
}"""


def saves_seen(browser, server: Server, table: Table, saves: int) -> dict[str, list[float]]:
    """The delays, in seconds, of ``saves`` saves by the table's first player until both
    other phones show them: from the tap and from the save's answer."""
    from tests.e2e.conftest import PHONE

    base = f"http://{HOST}:{server.port}"
    pages = []
    for phone in table.phones[:3]:
        context = browser.new_context(viewport=PHONE, base_url=base)
        name, value = phone.cookie.split("=", 1)
        context.add_cookies([{"name": name, "value": value, "url": base}])
        page = context.new_page()
        streams: list[str] = []
        page.on("request", lambda request, streams=streams: streams.append(request.url))
        page.goto(f"/nights/{table.night}/")
        pages.append((page, streams))
    saver, others = pages[0][0], [page for page, _ in pages[1:]]
    if server.front:
        deadline = time.monotonic() + 10
        while not all(any("/streams/" in url for url in streams) for _, streams in pages):
            if time.monotonic() > deadline:
                raise SystemExit("A page did not open its stream through the front.")
            saver.wait_for_timeout(50)
        saver.wait_for_timeout(500)  # the streams' answers in
    saver.evaluate(TAPS)
    for page in others:
        page.evaluate(WATCH, table.player)
    delays: dict[str, list[float]] = {"tap": [], "answer": []}
    box = saver.locator("#id_points")
    for number in range(1, saves + 1):
        points = number % 50 + 1  # never the total saved just before
        for page in others:
            page.evaluate("wanted => window.benchAwait(wanted)", f"+{points}")
        box.fill(str(points))
        saver.locator("#entry-form").get_by_role("button", name="Save").click()
        for page in others:
            page.wait_for_function("() => window.benchSeen !== null", timeout=15_000, polling=20)
        seen = max(page.evaluate("window.benchSeen") for page in others)
        saver.wait_for_function("() => window.benchAnswered !== null", timeout=15_000)
        tapped, answered = saver.evaluate("[window.benchTapped, window.benchAnswered]")
        saver.evaluate("window.benchAnswered = null")
        delays["tap"].append((seen - tapped) / 1000)
        delays["answer"].append((seen - answered) / 1000)
        # The next total after a pause as a player's: a moment apart from the polls' beat.
        saver.wait_for_timeout(random.uniform(300, 1300))
    for page, _ in pages:
        page.context.close()
    return delays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--saves", type=int, default=50)
    parser.add_argument("--workers", type=int, default=1, help="app server processes")
    args = parser.parse_args()
    print(f"A save reaching the other phones in a browser: 3 phones, {args.saves} saves")
    db = Tables()
    table = db.first(1)[0]

    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

    results = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for front in (True, False):
            with Server(front=front, workers=args.workers) as server:
                results[front] = saves_seen(browser, server, table, args.saves)
        browser.close()
    print(f"  {'until both other phones show it':<40}{'through the front':<22}without (2 s poll)")
    for label, key, share in (
        ("from the tap: p50", "tap", 0.5),
        ("              p95", "tap", 0.95),
        ("              max", "tap", 1.0),
        ("from the save's answer: p50", "answer", 0.5),
        ("                        p95", "answer", 0.95),
    ):
        shown = [ms(pct(results[front][key], share)) for front in (True, False)]
        print(f"  {label:<40}{shown[0]:<22}{shown[1]}")
    means = [ms(statistics.fmean(results[front]["tap"])) for front in (True, False)]
    print(f"  {'from the tap: mean':<40}{means[0]:<22}{means[1]}")
    print("  goal: p95 under 300 ms through the front")


if __name__ == "__main__":
    main()
