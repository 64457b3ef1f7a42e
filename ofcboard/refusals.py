"""The two refusals the server gives before the app sees a request, worded once for
the app server (ofcboard/serve.py, in the language Django would answer in) and for
the front (ofcboard/front.py, a page per language that nginx picks)."""

from ofcboard.ready import gettext_noop

# The one form that takes a file (a spreadsheet to import) says the same limit.
TOO_LARGE = gettext_noop(
    "That is more than the app takes at once (1 MB). A spreadsheet to import must "
    "be smaller: split it into files of a few years each."
)
# A save's 503 is kept and sent again by the phone; a login form's is read.
BUSY = gettext_noop("The server is busy for a moment. Please try again.")
