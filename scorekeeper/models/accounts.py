"""People: an account signs in with the same name the others see at the table."""

from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.db import models
from django.utils import timezone

from scorekeeper.models.name_keys import NameKeyField
from scorekeeper.table.names import MAX_NAME_LENGTH, name_key


class UserManager(BaseUserManager):
    def get_by_natural_key(self, username: str | None) -> "User":
        # "tom" logs in as "Tom", "ÉMILE" as "Émile": by the one name key.
        return self.get(name_key=name_key(username or ""))

    def create_user(self, name: str, password: str | None = None) -> "User":
        """An account; without a password (None) it signs in by its session and by
        sign-in codes only. Hashing is done here only for callers that hold no lock:
        the services hash first (services/accounts.py, hashed_password)."""
        user = self.model(name=name)
        user.set_password(password)
        user.save(using=self._db)
        return user


class User(AbstractBaseUser):
    """A person: signs in with the same name the others see at the table."""

    name = models.CharField(max_length=MAX_NAME_LENGTH, unique=True)
    name_key = NameKeyField(longest=MAX_NAME_LENGTH)  # models/name_keys.py
    is_active = models.BooleanField(default=True)
    date_joined = models.DateTimeField(default=timezone.now)
    # The language picked with the switcher, one of settings.LANGUAGES ("" until then:
    # the phone's own Accept-Language).
    language = models.CharField(max_length=10, blank=True, default="")
    # Set when a phone is signed in by someone else's code (models/sign_ins.py):
    # until then the pay details cannot be changed.
    # (and, for an account without a password, adding one: services/sign_ins.py)
    pay_details_held_until = models.DateTimeField(null=True, blank=True)
    # Whether a sign-in notice waits to be read (models/sign_ins.SignInNotice): read
    # with the user on every request, so a page looks the notices up only when one does.
    has_sign_in_notice = models.BooleanField(default=False)

    USERNAME_FIELD = "name"
    objects = UserManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["name_key"], name="user_name_unique_ignoring_case"),
        ]

    def __str__(self) -> str:
        return self.name

    def held_until(self) -> datetime | None:
        """When the hold on the pay details (and on adding a password) ends, as the
        database has it now, not as this row was read; None when nothing is held."""
        now = type(self).objects.filter(pk=self.pk)
        held = now.values_list("pay_details_held_until", flat=True).first()
        return held if held is not None and held > timezone.now() else None
