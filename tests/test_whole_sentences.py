"""Every sentence a person reads is one message, so a translator can order it.

A sentence glued from separately translated pieces ("Anna, Bram" + ": cards are in; "
+ "Chris" + " typed a total…") cannot be put in Dutch or Chinese word order. This
static check reads every template and every module of the app and finds the three
shapes such glue takes; it names nothing that is a whole message:

1. **A piece that continues a sentence**: a message (template or Python) that begins
   with a space or with a joining mark (, ; : ， ； ：), such as ": cards are in; "
   or ", by %(name)s". No whole sentence, label or button starts that way.
2. **A bare phrase before a value** (templates): ``{% translate "Waiting for" %}``
   followed, with nothing but spaces between, by ``{{ a value }}`` or a loop over
   values. A label that ends in a colon ("Dealer:") or a sentence that ends in its
   own stop ("Saved.") is whole and may be followed by anything; a phrase inside an
   element of its own (``<button>{% translate "Save" %}</button>``) is not followed by
   a value and is not named either.
3. **Translated text joined in code** (Python): ``+`` or ``+=`` with a gettext call
   (or a gettext call formatted with ``%``) on either side, or a gettext call inside
   an f-string: the pieces must be one message with placeholders instead.
"""

import ast
import re
from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
MODULES = sorted(
    path for path in (ROOT / "scorekeeper").rglob("*.py") if "migrations" not in path.parts
)
GETTEXT = {"gettext", "_", "ngettext", "pgettext", "npgettext", "gettext_lazy", "pgettext_lazy"}
# A message that begins like this carries on a sentence begun elsewhere; one with
# no word in it at all (", " between the items of a list) is a separator instead.
CONTINUES = re.compile(r"^(\s|[,;:，；：])(?=.*\w)")
# A message that ends like this is whole: a sentence, or a label for what follows.
WHOLE = re.compile(r"[.!?:…。！？：)]\s*$")
TRANSLATE = re.compile(r"""^(?:translate|trans)\s+(?P<q>["'])(?P<text>.*?)(?P=q)""")
BLOCK = re.compile(r"^(?:blocktranslate|blocktrans)\b")


def template_findings(source: str, name: str = "") -> list[str]:
    found = []
    tokens = Lexer(source).tokenize()
    for index, token in enumerate(tokens):
        if token.token_type != TokenType.BLOCK:
            continue
        simple = TRANSLATE.match(token.contents)
        if BLOCK.match(token.contents):
            text = block_text(tokens, index)
            if CONTINUES.match(text):
                found.append(f"{name}:{token.lineno}: continues a sentence: {text!r}")
        elif simple:
            text = simple["text"]
            if CONTINUES.match(text):
                found.append(f"{name}:{token.lineno}: continues a sentence: {text!r}")
            elif not WHOLE.search(text) and value_follows(tokens, index):
                found.append(f"{name}:{token.lineno}: a phrase glued to a value: {text!r}")
    return found


def block_text(tokens: list, index: int) -> str:
    """The singular text of the blocktranslate starting at ``index``."""
    parts = []
    for token in tokens[index + 1 :]:
        if token.token_type == TokenType.BLOCK and token.contents.split()[0] in {
            "plural",
            "endblocktranslate",
            "endblocktrans",
        }:
            break
        parts.append(token.contents if token.token_type == TokenType.TEXT else "%(v)s")
    return "".join(parts)


def value_follows(tokens: list, index: int) -> bool:
    """Whether a value comes right after the tag at ``index``: only spaces between,
    then ``{{ … }}`` or a ``{% for %}`` over values."""
    for token in tokens[index + 1 :]:
        if token.token_type == TokenType.TEXT:
            if token.contents.strip():
                return False
            continue
        if token.token_type == TokenType.VAR:
            return True
        if token.token_type == TokenType.BLOCK:
            return token.contents.split()[0] == "for"
        return False
    return False


def is_gettext(node: ast.AST) -> bool:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        node = node.left
    if not isinstance(node, ast.Call):
        return False
    function = node.func
    called = function.id if isinstance(function, ast.Name) else getattr(function, "attr", "")
    return called in GETTEXT


def message_of(node: ast.Call) -> str | None:
    called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
    position = 1 if called.startswith(("pgettext", "npgettext")) else 0
    if len(node.args) > position and isinstance(node.args[position], ast.Constant):
        value = node.args[position].value
        return value if isinstance(value, str) else None
    return None


def python_findings(source: str, name: str = "") -> list[str]:
    found = []
    nodes = sorted(ast.walk(ast.parse(source)), key=lambda node: getattr(node, "lineno", 0))
    for node in nodes:
        where = f"{name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            if is_gettext(node.left) or is_gettext(node.right):
                found.append(f"{where}: translated text joined with +")
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
            if is_gettext(node.value):
                found.append(f"{where}: translated text joined with +=")
        elif isinstance(node, ast.JoinedStr):
            for part in node.values:
                if isinstance(part, ast.FormattedValue) and is_gettext(part.value):
                    found.append(f"{where}: translated text inside an f-string")
        elif isinstance(node, ast.Call) and is_gettext(node):
            text = message_of(node)
            if text and CONTINUES.match(text):
                found.append(f"{where}: continues a sentence: {text!r}")
    return found


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda path: path.name)
def test_no_template_glues_a_sentence_from_pieces(path):
    assert template_findings(path.read_text(), path.name) == []


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_glues_translated_text(path):
    assert python_findings(path.read_text(), path.name) == []


def test_the_check_names_each_kind_of_glue_and_nothing_whole():
    glued = (
        '{% load i18n %}<p>{% translate "Waiting for" %} {% for s in seats %}{{ s }}'
        '{% endfor %}{% translate ": cards are in; " %}{{ names }}</p>'
        "<p>{% blocktranslate count n=k %}, {{ n }} to go{% plural %}, {{ n }} to go"
        "{% endblocktranslate %}</p>"
        '<p>{% translate "Saved last" %} {{ name }}</p>'
    )
    assert len(template_findings(glued)) == 4
    whole = (
        '{% load i18n %}<p>{% translate "Dealer:" %} <strong>{{ dealer }}</strong></p>'
        '<button>{% translate "Save" %}</button>{% translate "Cards saved." %} {{ note }}'
        "<p>{% blocktranslate with names=x %}Waiting for {{ names }}.{% endblocktranslate %}</p>"
    )
    assert template_findings(whole) == []
    code = (
        "from django.utils.translation import gettext as _\n"
        "a = _('Round %(n)d') % {'n': 1} + ' · ' + name\n"
        "a += _(', then %(ranks)s') % {'ranks': r}\n"
        "b = f'{_(\"Total\")} {points}'\n"
        "c = _('%(names)s play here.') % {'names': listed(names)}\n"
    )
    assert [finding.split(": ", 1)[1] for finding in python_findings(code)] == [
        "translated text joined with +",
        "translated text joined with +=",
        "continues a sentence: ', then %(ranks)s'",
        "translated text inside an f-string",
    ]
