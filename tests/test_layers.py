"""Each kind of code imports only the kinds below it: writes never borrow a page's
reads, and nothing below the services writes. What a write checks lives in the pure
rules (scorekeeper/table, scorekeeper/ofc) or on the models, and the reads use the same."""

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[1] / "scorekeeper"

# A folder, and the folders of the app it may never import.
NEVER = {
    "services": {"reads", "views", "forms"},
    "models": {"reads", "services", "views", "forms"},
    "reads": {"services", "views"},
    "forms": {"services", "views"},
}


def imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("folder", sorted(NEVER))
def test_a_folder_never_imports_the_layers_above_it(folder):
    files = sorted((APP / folder).glob("*.py"))
    assert files, folder
    wrong = [
        f"{path.relative_to(APP.parent)} imports {name}"
        for path in files
        for name in sorted(imported(path))
        for above in NEVER[folder]
        if name == f"scorekeeper.{above}" or name.startswith(f"scorekeeper.{above}.")
    ]
    assert wrong == []


def test_the_check_sees_an_import_of_a_read(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from scorekeeper.reads.results import night_results\n")
    assert "scorekeeper.reads.results" in imported(sample)


def live_code_in(path: Path) -> list[str]:
    """Where a migration uses the app's live code, by line: an import from
    ``scorekeeper`` outside its migrations, or a use of an imported ``scorekeeper``
    module. A field's ``default=`` naming a function (0001's
    ``scorekeeper.models.new_invite_token``) is Django's own reference, which its
    migration state needs importable; it runs none of our code in the migration."""
    tree = ast.parse(path.read_text(), str(path))
    in_a_default = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.keyword) and node.arg == "default"
        for inner in ast.walk(node.value)
    }
    used = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "scorekeeper":
            if not (node.module or "").startswith("scorekeeper.migrations"):
                used.append(f"line {node.lineno}: from {node.module} import ...")
        elif (
            isinstance(node, ast.Name) and node.id == "scorekeeper" and id(node) not in in_a_default
        ):
            used.append(f"line {node.lineno}: scorekeeper...")
    return used


def test_a_migration_keeps_a_frozen_copy_of_what_it_computes():
    # Style item 18: a later change to the app must never change what an old
    # migration stores, nor break it.
    migrations = sorted((APP / "migrations").glob("0*.py"))
    assert len(migrations) > 20
    used = [f"{path.name} {line}" for path in migrations for line in live_code_in(path)]
    assert used == []


def test_the_migration_check_sees_live_code_and_lets_a_default_be(tmp_path):
    sample = tmp_path / "0099_sample.py"
    sample.write_text(
        "import scorekeeper.models\n"
        "from scorekeeper.table.codes import new_code\n"
        "from scorekeeper.migrations import helpers\n"
        "def run(apps, editor):\n"
        "    from scorekeeper.table.paying import compact_iban\n"
        "    scorekeeper.models.groups.grouped('x')\n"
        "FIELD = CharField(default=scorekeeper.models.new_invite_token)\n"
    )
    assert live_code_in(sample) == [
        "line 2: from scorekeeper.table.codes import ...",
        "line 5: from scorekeeper.table.paying import ...",
        "line 6: scorekeeper...",
    ]


def test_text_is_normalised_only_where_names_titles_and_amounts_are_read():
    # One normaliser each (issue 44): a person's name and a title in table/names.py,
    # an amount of money in table/amounts.py; everything else calls them.
    normalising = sorted(
        str(path.relative_to(APP))
        for path in APP.rglob("*.py")
        if "migrations" not in path.parts and "unicodedata.normalize(" in path.read_text()
    )
    assert normalising == ["table/amounts.py", "table/names.py"]
