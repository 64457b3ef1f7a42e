"""The Dutch, Chinese and German catalogues: complete, consistent, and compiled as committed.

The compiled ``.mo`` files are kept in the repository so that ``make run`` on a fresh
machine needs no GNU gettext; these tests compile each ``.po`` with polib (pure
Python) and compare the result with the committed ``.mo``. That each language says the
game's and the app's words one way (its ``GLOSSARY.md``) is tests/test_terms.py's check.
"""

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils.translation import to_locale

LOCALE = Path(settings.BASE_DIR) / "locale"
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]
# One catalogue a language: the scripts' words come with the page (data attributes).
CATALOGUES = [LOCALE / to_locale(code) / "LC_MESSAGES" / "django.po" for code in TRANSLATED]
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


def ids(path: Path) -> str:
    return path.parent.parent.name


def entries(catalogue) -> dict:
    """(context, msgid) -> translation(s), for comparing a .po with a .mo."""
    return {
        (entry.msgctxt, entry.msgid): (
            tuple(sorted(entry.msgstr_plural.items())) if entry.msgid_plural else entry.msgstr
        )
        for entry in catalogue
        if not entry.obsolete
    }


def test_every_language_of_the_settings_has_its_catalogues():
    assert {"nl", "zh-hans"} <= set(TRANSLATED)
    for path in CATALOGUES:
        assert path.exists(), path
        assert path.with_suffix(".mo").exists(), path


@pytest.mark.parametrize("path", CATALOGUES, ids=ids)
def test_every_message_is_translated_and_none_is_fuzzy(path):
    catalogue = polib.pofile(str(path))
    live = [entry for entry in catalogue if not entry.obsolete]
    assert len(live) > 300
    assert [entry.msgid for entry in catalogue.untranslated_entries()] == []
    assert [entry.msgid for entry in catalogue.fuzzy_entries()] == []
    assert "fuzzy" not in catalogue.metadata_as_entry().flags
    for entry in live:
        if entry.msgid_plural:
            forms = 2 if "nplurals=2" in catalogue.metadata["Plural-Forms"] else 1
            assert len(entry.msgstr_plural) == forms, entry.msgid
            assert all(entry.msgstr_plural.values()), entry.msgid


@pytest.mark.parametrize("path", CATALOGUES, ids=ids)
def test_each_translation_keeps_the_placeholders_of_its_message(path):
    for entry in polib.pofile(str(path)):
        wanted = set(PLACEHOLDER.findall(entry.msgid_plural or entry.msgid))
        texts = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for text in texts:
            found = set(PLACEHOLDER.findall(text))
            # A plural's singular may say "one" in words instead of its count.
            assert found <= wanted and wanted - found <= {"%(count)d", "%(count)s"}, (
                entry.msgid,
                text,
            )


@pytest.mark.parametrize("path", CATALOGUES, ids=ids)
def test_the_committed_mo_file_is_the_po_file_compiled(path, tmp_path):
    compiled = tmp_path / "compiled.mo"
    polib.pofile(str(path)).save_as_mofile(str(compiled))
    assert entries(polib.mofile(str(path.with_suffix(".mo")))) == entries(
        polib.mofile(str(compiled))
    ), f"{path.with_suffix('.mo')} is out of date: run manage.py compilemessages"
