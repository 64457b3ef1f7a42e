"""The shapes of what the app's addresses carry: row ids and link tokens."""

import re

# A row's id as the database holds it (Django's BigAutoField: a signed 64-bit integer).
LARGEST_ID = 2**63 - 1
# The alphabet and lengths the app's link tokens are made of (secrets.token_urlsafe).
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")


def row_id(text: str) -> int | None:
    """``text`` as a row's id, or None when it is not a plain number an id can be
    (a 5,000-digit number is None before Python is asked to read it).

    >>> row_id("42"), row_id("9" * 5000), row_id(str(2**63)), row_id("٤٢")
    (42, None, None, None)
    """
    if not (text.isascii() and text.isdecimal()) or len(text) > len(str(LARGEST_ID)):
        return None
    number = int(text)
    return number if number <= LARGEST_ID else None


class IdConverter:
    """``<id:night_id>``: as Django's ``<int:...>``, but a number no row can have is no
    match (404, as for a row that does not exist), never a database error."""

    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        number = row_id(value)
        if number is None:
            raise ValueError(value)  # Django's resolver: this route does not match
        return number

    def to_url(self, value: int) -> str:
        return str(value)
