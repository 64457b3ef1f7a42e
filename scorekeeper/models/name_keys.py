"""The name as every lookup compares it, kept in a column of its own beside the name.

A person's name, a seat's and a season's are the same name when their
:func:`~scorekeeper.table.names.name_key` is the same ("Émile" and "ÉMILE", "Straße"
and "STRASSE", a full-width "Ａｎｎａ" and "Anna"). The database cannot work that out
(SQLite's case-insensitive match knows only ASCII capitals, and no database folds
"ß" to "ss"), so each row keeps its key, the unique constraints hold the keys apart
and every lookup by name asks for the key.

The key is never set: whenever it is read (by a save, a ``bulk_create``, a restore's
raw save, a backup being written) it is worked out from the row's name as it is at
that moment. So no door and no file brought in can store a key that disagrees with
its name, whichever way the row is written.
"""

from typing import Any

from django.db import models
from django.db.models.query_utils import DeferredAttribute

from scorekeeper.table.names import name_key

# What case folding can make of one character at most ("ΐ" is three): the key of a
# name of n characters fits in 3n.
FOLDED_PER_CHARACTER = 3


class _WorkedOutFromTheName(DeferredAttribute):
    """The key of the row's name, whatever was put in the attribute."""

    field: "NameKeyField"

    def __get__(self, instance: Any, cls: Any = None) -> Any:
        if instance is None:
            return self
        return name_key(getattr(instance, self.field.of))

    def __set__(self, instance: Any, value: Any) -> None:
        # Kept only so that Django counts the column as loaded; never read back.
        instance.__dict__[self.field.attname] = value


class NameKeyField(models.CharField):
    """The :func:`~scorekeeper.table.names.name_key` of the row's field ``of``."""

    descriptor_class = _WorkedOutFromTheName

    def __init__(self, *args: Any, of: str = "name", longest: int = 30, **kwargs: Any) -> None:
        self.of = of
        kwargs.setdefault("max_length", FOLDED_PER_CHARACTER * longest)
        kwargs.setdefault("editable", False)
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, _path, args, kwargs = super().deconstruct()
        # A plain text column to the migrations, so that none of them imports this
        # module (they are frozen: tests/test_layers.py).
        return name, "django.db.models.CharField", args, kwargs
