"""The shapes of what the app's addresses carry: row ids and link tokens."""

import re
import secrets

# A row's id as the database holds it (Django's BigAutoField: a signed 64-bit integer).
LARGEST_ID = 2**63 - 1
# The alphabet and lengths the app's link tokens (an invitation link's, a big screen's
# shared link's) are made of: what new_link_token makes, and what its columns hold.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")
TOKEN_LENGTH = 64


def new_link_token() -> str:
    """A token for a link that lets whoever holds it in: 24 random bytes, 192 bits,
    well past the 128 an unguessable link needs, in the alphabet of an address.

    >>> token = new_link_token()
    >>> is_link_token(token), len(token), token == new_link_token()
    (True, 32, False)
    """
    return secrets.token_urlsafe(24)


def is_link_token(text: str) -> bool:
    """Whether ``text`` is of the shape link tokens are made in: only such text reaches
    the database (a NUL byte or 5,000 characters would not).

    >>> is_link_token("A" * 16), is_link_token("A" * 15), is_link_token("a token with spaces")
    (True, False, False)
    """
    return TOKEN_SHAPE.fullmatch(text) is not None


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
