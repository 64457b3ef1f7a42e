"""Steps the browser tests share, as a player does them on the phone."""

from pathlib import Path

ROWS = ("top", "middle", "bottom")

# The night page fills in its total and sends its form at the agreed moment (``at``, ms
# since 1970): page.evaluate(SAVE_AT, [points, at]).
SAVE_AT = """([points, at]) => {
  window.setTimeout(() => {
    const form = document.querySelector("#entry-form form");
    form.querySelector("input[name=points]").value = String(points);
    form.requestSubmit();
  }, Math.max(0, at - Date.now()));
}"""


def pick_cards(page, rows) -> None:
    """Each row, then its cards on the picker's deck: a whole hand, no typing.
    ``rows`` holds the top, middle and bottom cards as text ("Qs Qd 5c")."""
    for row, cards in zip(ROWS, rows, strict=True):
        page.locator(f".board-row[data-row='{row}'] .row-name").click()
        for code in cards.split():
            page.locator(f".deck button[data-card='{code}']").click()


def screenshots(page, folder: Path, prefix: str = "") -> None:
    """The whole page at 390 and 360 px wide, light and dark, into ``folder``
    (``{prefix}390-light.png`` ...); the page is 390 px wide again after."""
    folder.mkdir(parents=True, exist_ok=True)
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 844})
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=str(folder / f"{prefix}{width}-{scheme}.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
