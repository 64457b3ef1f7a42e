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

import polib
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


# --- A template's own punctuation and spacing between translated text and values ---
#
# "Karten fehlen noch von: du, Anna." was a translated label, a translated "you", and
# the template's own ", " and "." around the names: German could neither put "you" in
# its case nor write the sentence in its order, and Chinese got an English comma and
# full stop in its text. A template may lay out whole messages and values (a label
# and its value, items in elements of their own, a " · " between facts, a title's
# parts), but the marks a sentence is made of (, . : ; and brackets) and the spaces
# inside one run of text belong to the message, so each language writes its own:
#
# 4. **Marks of its own** (templates): one of , . : ; ( ) written by the template next
#    to a translated message or a value (with only spaces or markup between), as in
#    ``{% translate "Fouled:" %} {{ reason }}. {% translate "No royalties." %}`` or
#    ``{% for name in names %}, {{ name }}{% endfor %}``; and ``|join:", "``.
# 5. **Messages side by side** (templates): two translated messages, or a value and a
#    translated message, with nothing but a space between them in one run of text, as
#    in ``{% translate "Saved." %} {% translate "You can change it." %}`` (Chinese
#    leaves no space after "。"). A label that ends in a colon may be followed by what
#    it introduces; a message in an element of its own is not in the same run of text.
# 6. **Marks of its own** (Python): ``+ "."`` or ``", ".join(...)`` (a mark with a
#    space after it, as prose writes it) or an f-string's ", " / ": " between two
#    values, in a module that translates: ``i18n.listed``, ``series``, ``clauses``,
#    ``sentence`` and ``sentences`` join in the reader's language.

VALUE, MESSAGE, LABEL, OTHER = "\x01", "\x02", "\x04", "\x03"
CONTROL = {"if", "elif", "else", "endif", "for", "endfor", "empty", "with", "endwith"}
MARK = r"[,.:;()]"
# Between them, spaces and inline markup (<strong>, <a href="{{ value }}">…); a block
# (a paragraph, a list item, a line break) ends a run of text.
INLINE = r"</?(?:a|abbr|b|code|em|i|label|mark|small|span|strong|time)>"
BETWEEN = rf"(?:\s|{INLINE})*"
TEXT = f"[{VALUE}{MESSAGE}{LABEL}]"
MARK_GLUE = re.compile(rf"{TEXT}{BETWEEN}{MARK}|{MARK}{BETWEEN}{TEXT}")
SIDE_BY_SIDE = re.compile(rf"{MESSAGE}\s+[{MESSAGE}{LABEL}{VALUE}]|{VALUE}\s+[{MESSAGE}{LABEL}]")
JOIN = re.compile(r"""\|join:(["'])(?P<separator>.*?)\1""")


def flattened(source: str) -> str:
    """The template as the reader's run of text sees it: each message one mark, each
    value one mark, control tags gone (either branch may follow), other tags opaque."""
    parts = []
    inside = False
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            word = token.contents.split()[0]
            if BLOCK.match(token.contents):
                inside = True
                parts.append(MESSAGE)
            elif word in {"endblocktranslate", "endblocktrans"}:
                inside = False
            elif inside or word in CONTROL:
                continue
            elif simple := TRANSLATE.match(token.contents):
                parts.append(LABEL if simple["text"].rstrip().endswith(":") else MESSAGE)
            else:
                parts.append(OTHER)
        elif inside or token.token_type == TokenType.COMMENT:
            continue
        elif token.token_type == TokenType.VAR:
            parts.append(VALUE)
        else:
            parts.append(token.contents)
    return "".join(parts)


def lines(match: re.Match) -> str:
    return "\n" * match.group().count("\n")


def glue_findings(source: str, name: str = "") -> list[str]:
    found = []
    text = flattened(source)
    shown = str.maketrans({VALUE: "{{v}}", MESSAGE: "{%t%}", LABEL: "{%t:%}", OTHER: "{%%}"})
    # A tag's insides are no text: a value in an attribute is not glued to anything.
    plain = re.sub(r"<(/?)(\w*)[^<>]*>", lambda tag: tag.expand(r"<\1\2") + lines(tag) + ">", text)
    for pattern, kind in ((MARK_GLUE, "marks of its own"), (SIDE_BY_SIDE, "messages side by side")):
        for match in pattern.finditer(plain):
            line = plain.count("\n", 0, match.start()) + 1
            found.append(f"{name}:{line}: {kind}: {match.group().translate(shown)!r}")
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.VAR:
            for join in JOIN.finditer(token.contents):
                found.append(f"{name}:{token.lineno}: joined with {join['separator']!r}")
    return found


def translates(tree: ast.AST) -> bool:
    return any(
        isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation"
        for node in ast.walk(tree)
    )


def is_mark(node: ast.AST, spaced: bool) -> bool:
    """A string of marks and spaces alone (``"."``, ``", "``); with ``spaced``, only a
    mark followed by a space, as prose writes it (``","`` joins data)."""
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return False
    text = node.value
    if spaced:
        return bool(re.fullmatch(rf"{MARK} +", text))
    return bool(re.fullmatch(rf"\s*{MARK}[\s,.:;()]*", text))


def mark_findings(source: str, name: str = "") -> list[str]:
    tree = ast.parse(source)
    if not translates(tree):
        return []
    found = []
    # "a" + "." + "b" puts a mark inside something (a decimal point); "a" + "." ends it.
    inside = {
        id(node.left)
        for node in ast.walk(tree)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
    }
    for node in sorted(ast.walk(tree), key=lambda node: getattr(node, "lineno", 0)):
        where = f"{name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            ends = id(node) not in inside and is_mark(node.right, False)
            if ends or is_mark(node.left, True) or is_mark(node.right, True):
                found.append(f"{where}: a mark of its own added with +")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "join"
            and is_mark(node.func.value, True)
        ):
            found.append(f"{where}: joined with {node.func.value.value!r}")
        elif isinstance(node, ast.JoinedStr):
            values = node.values
            for index in range(1, len(values) - 1):
                middle = values[index]
                if (
                    isinstance(values[index - 1], ast.FormattedValue)
                    and isinstance(values[index + 1], ast.FormattedValue)
                    and is_mark(middle, True)
                ):
                    found.append(f"{where}: {middle.value!r} between two values")
    return found


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda path: path.name)
def test_no_template_puts_its_own_marks_or_spaces_between_messages_and_values(path):
    assert glue_findings(path.read_text(), path.name) == []


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_puts_its_own_marks_between_translated_words(path):
    assert mark_findings(path.read_text(), path.name) == []


def test_the_marks_check_names_each_kind_and_nothing_laid_out():
    glued = (
        '{% load i18n %}<p><strong>{% translate "Fouled:" %}</strong> {{ reason }}. '
        '{% translate "No royalties." %}</p>'
        '<p>{% translate "Still to set:" %} {% if mine %}{% translate "you" %}{% endif %}'
        "{% for name in waiting %}, {{ name }}{% endfor %}</p>"
        '<p>{% translate "Saved." %} {% translate "You can change it." %}</p>'
        '<p>{{ points }} {% translate "(fouled)" %}</p><p>{{ names|join:", " }}</p>'
    )
    kinds = [finding.split(": ")[1] for finding in glue_findings(glued)]
    assert kinds == ["marks of its own"] * 2 + ["messages side by side"] * 2 + ["joined with ', '"]
    laid_out = (
        '{% load i18n %}{% block title %}{% translate "Settle" %} · {{ group }}{% endblock %}'
        '<p>{% translate "Dealer:" %} <strong>{{ dealer }}</strong></p>'
        '<p>{{ name }} <span class="badge">{% translate "left" %}</span></p>'
        "<p>{% blocktranslate with reason=reason %}Fouled: {{ reason }}.{% endblocktranslate %}"
        ' <a href="{% url "rules" %}?a={{ x }}&amp;b=1">{% translate "Rules" %}</a></p>'
        "<p>{{ least }}–{{ most }}</p>"
        '<p>{% translate "Saved." %}</p><p>{% translate "Rules:" %} {{ rules }}</p>'
    )
    assert glue_findings(laid_out) == []
    code = (
        "from django.utils.translation import gettext as _\n"
        "a = error[:1].upper() + error[1:] + '.'\n"
        "b = '; '.join(reasons)\n"
        "c = f'{scoring}, {royalties}'\n"
        "d = ','.join(ids) + f'{name}.{ext}' + ' · '.join(facts) + whole + '.' + cents\n"
    )
    assert [finding.split(": ", 1)[1] for finding in mark_findings(code)] == [
        "a mark of its own added with +",
        "joined with '; '",
        "', ' between two values",
    ]
    assert mark_findings(code.replace("from django.utils.translation", "from x")) == []


# --- Chinese: its own marks, and one way of spacing round placeholders ---
#
# The rule for spaces in the zh_Hans catalogue, one for every message:
#
# - A placeholder that holds a word the app itself writes in Chinese (a row, a hand,
#   a card, a game, how many times, what happened, why: WORDS below) joins the
#   Chinese around it with no space, as the word would if it were written there:
#   "中道%(hand)s", "%(name)s 的%(row)s", "%(game)s需要…".
# - A placeholder that holds a name and then such a word ("Anna 的头道": NAME_THEN_WORD
#   below) is a name on its left and a word on its right: "在 %(whose_row)s出现".
# - Every other placeholder (a name, a number, an amount, a date, a code, ranks or
#   cards as letters) is set off from a Chinese character by one space on each side:
#   "第 %(number)d 手", "%(name)s 的", "头道 %(cards)s".
# - No space between a placeholder and full-width punctuation ("：%(names)s。"), nor
#   between two Chinese characters or a Chinese character and full-width punctuation.
#
# And Chinese text takes full-width marks: no ASCII , : ; . next to a Chinese
# character or to a placeholder in a Chinese sentence (decimals "7.3.2024", times,
# addresses "https://", "PayPal.Me" and ellipses are not sentence marks).

CHINESE = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
HAN = "[\u2e80-\u2fdf\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
FULL_WIDTH = "[，。：；、（）“”‘’！？《》「」]"
PLACEHOLDER = re.compile(r"%\((?P<named>\w+)\)[sd]|\{(?P<braced>\w+)\}")
WORDS = {
    "row", "rows", "hand", "card", "game", "times", "what", "reason", "fault",
    "lower", "upper", "difference", "suit", "currency_name", "ways",
}  # fmt: skip
NAME_THEN_WORD = {"whose_row", "whose_rows"}
PLAIN_PLACEHOLDER = r"%\(\w+\)[sd]|\{\w+\}"
# An ASCII mark after a Chinese character (not "https:"), before one, or (in a
# Chinese sentence) after a placeholder; not inside a number or a word ("7.3.2024",
# "PayPal.Me", "...").
ASCII_MARK = re.compile(rf"{HAN}[,:;.]|(?<![.\d\w])[,:;.] *{HAN}")
MARK_AFTER_PLACEHOLDER = re.compile(rf"(?:{PLAIN_PLACEHOLDER})(?:[,:;]|\.(?![.\w]))")


def chinese_findings(text: str) -> list[str]:
    """What in one Chinese translation breaks the rule above."""
    plain = re.sub(r"<[^<>]+>", "", text)
    plain = re.sub(r"https?://\S*", "URL", plain)
    found = [f"ASCII mark: {m.group()!r}" for m in ASCII_MARK.finditer(plain)]
    if re.search(HAN, plain) is None:
        return found
    found += [f"ASCII mark: {m.group()!r}" for m in MARK_AFTER_PLACEHOLDER.finditer(plain)]
    for pattern in (rf"{HAN}\s+{HAN}", rf"{HAN}\s+{FULL_WIDTH}", rf"{FULL_WIDTH}\s+{HAN}"):
        found += [f"a space inside Chinese: {m.group()!r}" for m in re.finditer(pattern, plain)]
    for match in PLACEHOLDER.finditer(plain):
        name = match["named"] or match["braced"]
        before = re.search(r"(.?)(\s*)$", plain[: match.start()], re.DOTALL)
        after = re.match(r"(\s*)(.?)", plain[match.end() :], re.DOTALL)
        sides = (
            (before[2], before[1], name in WORDS),
            (after[1], after[2], name in WORDS or name in NAME_THEN_WORD),
        )
        for gap, neighbour, word in sides:
            shown = f"{match.group()!r} and {neighbour!r}"
            if re.fullmatch(FULL_WIDTH, neighbour) and gap:
                found.append(f"a space between {shown}")
            elif re.fullmatch(HAN, neighbour) and word and gap:
                found.append(f"a space between the word {shown}")
            elif re.fullmatch(HAN, neighbour) and not word and gap != " ":
                found.append(f"not one space between {shown}")
    return found


def test_chinese_takes_its_own_marks_and_spaces_placeholders_one_way():
    catalogue = polib.pofile(str(CHINESE))
    found = []
    for entry in catalogue:
        if entry.obsolete:
            continue
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for text in texts:
            found += [f"{entry.msgid[:50]!r}: {finding}" for finding in chinese_findings(text)]
    assert found == []


def test_the_chinese_check_names_each_kind_and_passes_what_is_right():
    assert chinese_findings("还没摆牌: %(names)s.") == [
        "ASCII mark: '牌:'",
        "ASCII mark: '%(names)s.'",
    ]
    assert chinese_findings("头道 %(hand)s") == ["a space between the word '%(hand)s' and '道'"]
    assert chinese_findings("%(name)s的 牌") == [
        "a space inside Chinese: '的 牌'",
        "not one space between '%(name)s' and '的'",
    ]
    assert chinese_findings("等待 %(names)s 。") == ["a space between '%(names)s' and '。'"]
    assert chinese_findings("%(card)s在 %(whose_row)s 出现了%(times)s") == [
        "a space between the word '%(whose_row)s' and '出'"
    ]
    right = [
        "第 %(number)d 手已记入：<strong>%(points)s</strong>。",
        "%(name)s 的%(row)s有 %(count)d 张",
        "头道 %(cards)s",
        "请写 2024-03-07，或日在前：7-3-2024、7.3.2024 或 7/3/2024。",
        "请输入以 https:// 开头的网址。",
        "PayPal.Me 链接",
        "{card}，在你的牌面：{row}",
        "%(card)s在 %(whose_row)s出现了%(times)s",
    ]
    assert [chinese_findings(text) for text in right] == [[]] * len(right)
