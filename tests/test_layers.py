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
