"""What a person keeps on their account besides their name: the language they read."""

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from scorekeeper.models import User
from scorekeeper.services.errors import Refused


@transaction.atomic
def remember_language(*, user: User, language: str) -> None:
    """Keep ``language`` (a code of settings.LANGUAGES) on ``user``'s account."""
    if language not in dict(settings.LANGUAGES):
        raise Refused(_("That language is not offered."))
    User.objects.filter(pk=user.pk).update(language=language)
    user.language = language
