"""What the next page says after a change a form posted."""

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest

from scorekeeper.services.errors import Refused


def change_and_say(request: HttpRequest, change: Callable[[], object], done: str = "") -> bool:
    """Make ``change``; the next page says its refusal in words, or ``done`` (nothing
    when it is empty). Whether it was made."""
    try:
        change()
    except Refused as error:
        messages.error(request, str(error))
        return False
    if done:
        messages.success(request, done)
    return True
