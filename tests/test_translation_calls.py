"""Every refusal, message, form label and form error of the app goes through gettext.

A static check over the source: where a sentence for the person at the table is
made (a service's Refused, a view's message, a form's label, error or placeholder),
a bare string or f-string is English on every phone, whatever its language.
"""

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parent.parent / "scorekeeper"
FOLDERS = ("services", "views", "forms", "models", "reads")
SOURCES = [
    *sorted(path for folder in FOLDERS for path in (APP / folder).glob("*.py")),
    APP / "terms.py",
    APP / "i18n.py",
]
MESSAGE_LEVELS = {"debug", "info", "success", "warning", "error"}
TEXT_KEYWORDS = {"label", "empty_label", "help_text", "placeholder"}


def is_bare_text(node: ast.AST) -> bool:
    """A literal sentence: a non-empty string, an f-string, or text glued to them."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and any(ch.isalpha() for ch in node.value)
    if isinstance(node, ast.JoinedStr):
        return any(is_bare_text(part) for part in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return is_bare_text(node.left) or is_bare_text(node.right)
    return False


def spoken_arguments(call: ast.Call) -> list[ast.AST]:
    """The arguments of ``call`` that become words on a page."""
    function = call.func
    name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
    owner = getattr(function, "value", None)
    spoken: list[ast.AST] = []
    if name in {"Refused", "ValidationError", "NameTaken"}:
        spoken += call.args[:1]
    if name in MESSAGE_LEVELS and getattr(owner, "id", "") == "messages":
        spoken += call.args[1:2]
    if name == "add_error":
        spoken += call.args[1:2]
    if name == "setdefault" and call.args and getattr(call.args[0], "value", "") in TEXT_KEYWORDS:
        spoken += call.args[1:2]
    for keyword in call.keywords:
        if keyword.arg in TEXT_KEYWORDS:
            spoken.append(keyword.value)
        if keyword.arg in {"error_messages", "attrs"} and isinstance(keyword.value, ast.Dict):
            for key, value in zip(keyword.value.keys, keyword.value.values, strict=True):
                if keyword.arg == "error_messages" or getattr(key, "value", "") in TEXT_KEYWORDS:
                    spoken.append(value)
    return spoken


def untranslated(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            found += [
                f"{path.name}:{argument.lineno}: {ast.unparse(argument)[:70]}"
                for argument in spoken_arguments(node)
                if is_bare_text(argument)
            ]
        # Form classes' error messages: default_error_messages = {...} / error_messages = {...}
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            names = {getattr(target, "id", "") for target in node.targets}
            if names & {"default_error_messages", "error_messages"}:
                found += [
                    f"{path.name}:{value.lineno}: {ast.unparse(value)[:70]}"
                    for value in node.value.values
                    if is_bare_text(value)
                ]
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_words_for_people_go_through_gettext(path):
    assert untranslated(path) == []


def test_the_check_finds_a_bare_refusal_and_a_bare_label(tmp_path):
    source = tmp_path / "example.py"
    source.write_text(
        "raise Refused(f'{name} is not at the table.')\n"
        "messages.success(request, 'Saved.')\n"
        "forms.CharField(label='Group name', error_messages={'required': 'Give a name.'})\n"
        "raise Refused(_('This night is over.'))\n"
        "raise Refused(refusal)\n"
    )
    assert len(untranslated(source)) == 4
