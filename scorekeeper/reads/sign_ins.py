"""What a phone is told about its account: the sign-ins on other phones."""

from scorekeeper.models import SignInNotice, User


def unread_notices(user: User, session_key: str | None) -> list[SignInNotice]:
    """The sign-in notices the phone with ``session_key`` shows, oldest first (one
    query): those of sign-ins after it was signed in, not read yet on an older phone."""
    return list(SignInNotice.objects.unread_on(user, session_key).select_related("made_by"))
