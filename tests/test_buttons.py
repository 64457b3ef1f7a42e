"""Buttons in Dutch and German say what they do as an infinitive phrase.

Each glossary (``locale/<language>/GLOSSARY.md``, its "Buttons" section) lists the
infinitives a button may say (*opslaan*, *beëindigen*, *worden* of *Lid worden van …*)
and the few answers that are not actions (*Begrepen*). Every label of a ``<button>``,
a form's submit, or the account form's ``button=`` in the templates must hold one of
those infinitives, or be an answer: an order (*Typ je totaal*, *Tippe … ein*) or what
happens (*%(name)s vertrekt*) is not a button's voice.
"""

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"
LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = ["nl", "de"]

BUTTON = re.compile(
    r"<button\b[^>]*>(?P<label>.*?)</button>"
    r"|<input\b[^>]*\btype=\"submit\"[^>]*>"
    r"|\bbutton=(?P<given>_\(\"[^\"]*\"\))",
    re.DOTALL,
)
MESSAGE = re.compile(
    r"(?:{%\s*translate\s+|_\()\"(?P<plain>[^\"]*)\""
    r"|{%\s*blocktranslate\b[^%]*%}(?P<block>.*?){%\s*endblocktranslate\s*%}",
    re.DOTALL,
)
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


def as_msgid(block: str) -> str:
    """A blocktranslate's text as makemessages writes its msgid (the singular)."""
    singular = re.split(r"{%\s*plural\s*%}", block)[0]
    return re.sub(r"{{\s*(\w+)\s*}}", r"%(\1)s", singular)


def button_messages(text: str) -> set[str]:
    """The msgids of the button labels in a template's text."""
    found = set()
    for button in BUTTON.finditer(text):
        inside = button["label"] or button["given"] or button.group()
        for message in MESSAGE.finditer(inside):
            found.add(
                message["plain"] if message["plain"] is not None else as_msgid(message["block"])
            )
    return found


def all_button_messages() -> set[str]:
    return set().union(
        *(button_messages(path.read_text(encoding="utf-8")) for path in TEMPLATES.rglob("*.html"))
    )


def button_words(language: str) -> tuple[set[str], set[str]]:
    """The glossary's infinitives and answers for buttons."""
    text = (LOCALE / language / "GLOSSARY.md").read_text(encoding="utf-8")
    lines = dict(re.findall(r"^(Infinitives|Answers): (.+)$", text, re.MULTILINE))
    split = lambda line: {word.strip().lower() for word in line.split(",") if word.strip()}  # noqa: E731
    return split(lines["Infinitives"]), split(lines["Answers"])


def not_a_button_phrase(label: str, infinitives: set[str], answers: set[str]) -> bool:
    words = re.findall(r"\w+", PLACEHOLDER.sub(" ", label).lower())
    return " ".join(words) not in answers and not infinitives.intersection(words)


def test_the_labels_of_buttons_submits_and_the_account_form_are_found():
    found = all_button_messages()
    assert {"Save", "Join %(group)s", "%(name)s leaves", "Sign in and join", "Got it"} <= found
    assert "Import %(count)s night" in found  # a plural, by its singular
    assert "Older nights" not in found  # a link, not a button


def test_a_label_without_a_listed_infinitive_is_found():
    infinitives, answers = button_words("nl")
    assert not_a_button_phrase("Typ je totaal", infinitives, answers)
    assert not_a_button_phrase("Word lid van %(group)s", infinitives, answers)
    assert not_a_button_phrase("%(name)s vertrekt", infinitives, answers)
    assert not not_a_button_phrase("Lid worden van %(group)s", infinitives, answers)
    assert not not_a_button_phrase("Begrepen", infinitives, answers)
    infinitives, answers = button_words("de")
    assert not_a_button_phrase("Tippe dein Ergebnis ein", infinitives, answers)
    assert not not_a_button_phrase("Dein Ergebnis eintippen", infinitives, answers)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_button_is_an_infinitive_phrase_of_the_glossarys_list(language):
    infinitives, answers = button_words(language)
    catalogue = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    wrong = []
    for msgid in sorted(all_button_messages()):
        entry = catalogue.find(msgid)
        assert entry is not None, msgid
        labels = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        wrong += [
            f"{msgid!r} → {label!r}"
            for label in labels
            if not_a_button_phrase(label, infinitives, answers)
        ]
    assert wrong == [], "\n".join(wrong)
