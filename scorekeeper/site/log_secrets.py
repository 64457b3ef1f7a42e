"""The secrets some addresses carry kept out of the server's log.

An invitation link (/join/<token>/), a big screen's read-only link (/screen/<token>/)
and a one-time sign-in page (/signin/<code>/) are secrets in their address: whoever
reads one may join the group, watch the night or sign in. Django writes the address
of every answer of 400 and over to the log ("Too Many Requests: /join/<token>/" for
each wrong password on an invitation page, "Not Found: ..." for a link taken back),
and the log is read by more people, and kept longer, than the links. So the part of
such an address after its first step is written as "…", in every record that reaches
the log's handler (ofcboard/settings.py, LOGGING), whichever logger wrote it.
"""

import logging
import re
from typing import Any

SECRET_PAGES = ("join", "screen", "signin")
HIDDEN = "…"

# The step after /join/ (or /screen/, /signin/) at the start of an address: after
# the start of the text, a space, a quote, a bracket or "=" (a path as Django logs it,
# "?next=/join/..."), or after a host (a whole link, "http://192.168.1.20:8000/join/...").
# A night's own /nights/<id>/screen/ page holds no secret and stays as it is.
_SECRET_ADDRESS = re.compile(
    r"(?P<before>(?:^|[\s\"'(<\[=,]|//[^/\s\"'<>]+)/(?:" + "|".join(SECRET_PAGES) + r")/)"
    r"[^/\s?#\"'<>\]),]+"
)


def hide_secrets(text: str) -> str:
    """``text`` with the secret of every secret address in it written as "…".

    >>> hide_secrets("Too Many Requests: /join/AB2CD3EF/")
    'Too Many Requests: /join/…/'
    >>> hide_secrets("Referer http://10.0.0.2:8000/screen/XyZ/live/ and /nights/4/screen/live/")
    'Referer http://10.0.0.2:8000/screen/…/live/ and /nights/4/screen/live/'
    """
    return _SECRET_ADDRESS.sub(lambda found: found["before"] + HIDDEN, text)


def _hidden(value: Any) -> Any:
    # Only text is changed: a number keeps its type for a "%d" in the message.
    return hide_secrets(value) if isinstance(value, str) else value


class HideSecrets(logging.Filter):
    """A filter for the log's handlers: the record's message and its arguments with
    every secret address hidden (:func:`hide_secrets`). It changes the record itself,
    so every handler after it, and whatever keeps the record, sees it hidden."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = hide_secrets(record.msg)
        if isinstance(record.args, dict):
            record.args = {key: _hidden(value) for key, value in record.args.items()}
        elif isinstance(record.args, tuple):
            record.args = tuple(_hidden(value) for value in record.args)
        return True
