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


# A number's minus in a message is the real one (U+2212), as the pages write totals
# and amounts; a hyphen stays where it joins ("2-7 Pineapple", "K7QM-3XPD", dates).
HYPHEN_MINUS = re.compile(r"(?<![\w\-\u2212])-(?=\d|%\(\w+\)[sd]|\{\w+\})")


def test_a_hyphen_before_a_number_is_found_but_not_one_that_joins():
    assert HYPHEN_MINUS.search("between -%(most)d and %(most)d")
    assert HYPHEN_MINUS.search("for example -7")
    assert not HYPHEN_MINUS.search("between −%(most)d and %(most)d")
    assert not HYPHEN_MINUS.search("2-7 Pineapple, like K7QM-3XPD, or 7-3-2024")


@pytest.mark.parametrize("path", CATALOGUES, ids=ids)
def test_no_message_puts_a_hyphen_minus_before_a_number(path):
    wrong = [
        text
        for entry in polib.pofile(str(path))
        if not entry.obsolete
        for text in (entry.msgid, entry.msgid_plural)
        if text and HYPHEN_MINUS.search(text)
    ]
    assert wrong == []


# One style of quotation marks a language, outside the HTML of a message (whose
# attributes keep ASCII quotes): Dutch and Chinese “…”, German „…“.
QUOTES = {"nl": ("“", "”"), "de": ("„", "“"), "zh-hans": ("“", "”")}


def quotes_of_another_style(text: str, opening: str, closing: str) -> bool:
    marks = "".join(re.findall(r"[\"„“”«»]", re.sub(r"<[^<>]+>", "", text)))
    return marks != (opening + closing) * (len(marks) // 2) or len(marks) % 2 == 1


def test_quotes_of_another_style_are_found():
    assert quotes_of_another_style('De groep "%(name)s":', "“", "”")
    assert quotes_of_another_style("De groep „%(name)s”:", "“", "”")
    assert not quotes_of_another_style('Zie <a href="x">“Opslaan”</a>.', "“", "”")
    assert quotes_of_another_style("Die Gruppe “%(name)s”:", "„", "“")


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_language_quotes_one_way(code):
    path = LOCALE / to_locale(code) / "LC_MESSAGES" / "django.po"
    wrong = []
    for entry in polib.pofile(str(path)):
        texts = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        wrong += [text for text in texts if quotes_of_another_style(text, *QUOTES[code])]
    assert wrong == []
