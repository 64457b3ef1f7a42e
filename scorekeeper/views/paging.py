"""Lists loaded a page at a time as they are scrolled: which page a request asks for."""

from django.http import HttpRequest


def older_than(request: HttpRequest) -> int | None:
    """The ``?before=`` of a request for an older page, or None for the newest one
    (also when it is not a plain number a database column can hold)."""
    before = request.GET.get("before", "")
    if before.isascii() and before.isdecimal() and len(before) <= 18:
        return int(before)
    return None
