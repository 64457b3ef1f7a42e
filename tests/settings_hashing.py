"""The test settings, with passwords hashed as production hashes them (Django's own
PBKDF2, about half a second of a core each): for the server test of wrong passwords
sent as fast as a script can (tests/test_server_front.py)."""

from tests.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
