"""Lists loaded a page at a time as they are scrolled: which page a request asks for."""

from django.http import HttpRequest

from scorekeeper.converters import row_id


def older_than(request: HttpRequest) -> int | None:
    """The ``?before=`` of a request for an older page, or None for the newest one
    (also when it is not a plain number a database column can hold)."""
    return _row(request, "before")


def shown_through(request: HttpRequest) -> int | None:
    """The ``?through=`` of a poll: the last row the phone shows, having scrolled
    down to it (None when it shows the newest page)."""
    return _row(request, "through")


def _row(request: HttpRequest, name: str) -> int | None:
    return row_id(request.GET.get(name, ""))
