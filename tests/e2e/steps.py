"""Steps the browser tests share, as a player does them on the phone."""

ROWS = ("top", "middle", "bottom")


def pick_cards(page, rows) -> None:
    """Each row, then its cards on the picker's deck: a whole hand, no typing.
    ``rows`` holds the top, middle and bottom cards as text ("Qs Qd 5c")."""
    for row, cards in zip(ROWS, rows, strict=True):
        page.locator(f".board-row[data-row='{row}'] .row-name").click()
        for code in cards.split():
            page.locator(f".deck button[data-card='{code}']").click()
