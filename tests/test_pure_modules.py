"""The folders that know nothing about the web: the rules engine (``scorekeeper/ofc``)
and the other rules of the table (``scorekeeper/table``). They are checked as folders,
so a module added to either is checked without anyone listing it."""

import doctest
import importlib
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PURE_FOLDERS = ("scorekeeper.ofc", "scorekeeper.table")


def _modules() -> list[str]:
    found = []
    for package in PURE_FOLDERS:
        found.append(package)
        path = importlib.import_module(package).__path__
        found += [info.name for info in pkgutil.walk_packages(path, prefix=f"{package}.")]
    return found


MODULES = _modules()


def test_the_folders_hold_the_pure_modules():
    # Guards the walk itself: an empty walk would make the tests below pass by vacuity.
    assert "scorekeeper.ofc.scoring" in MODULES
    assert "scorekeeper.table.settlement" in MODULES
    assert len(MODULES) >= 20


def test_importing_the_pure_folders_imports_no_django():
    # A fresh, isolated interpreter: this test run has loaded Django already.
    code = (
        "import importlib, sys\n"
        f"for name in {MODULES!r}: importlib.import_module(name)\n"
        "leaked = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "assert not leaked, leaked\n"
    )
    subprocess.run([sys.executable, "-I", "-c", code], check=True, cwd=ROOT)


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0


def test_the_docstring_examples_are_there():
    attempted = sum(doctest.testmod(importlib.import_module(n)).attempted for n in MODULES)
    assert attempted > 50


def test_mypy_checks_the_folders_whole():
    files = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["files"]
    assert sorted(files) == sorted(name.replace(".", "/") for name in PURE_FOLDERS)
