"""The modules that know nothing about the web: the rules engine, the dealer
button, the settlement, the chart and the formatting of points and money."""

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper import button, chart, formatting, settlement

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "module",
    [
        "scorekeeper.ofc",
        "scorekeeper.ofc.contract",
        "scorekeeper.button",
        "scorekeeper.settlement",
        "scorekeeper.chart",
        "scorekeeper.formatting",
    ],
)
def test_importing_a_pure_module_imports_no_django(module):
    # A fresh, isolated interpreter: this test run has loaded Django already.
    code = (
        f"import sys, {module}\n"
        "leaked = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "assert not leaked, leaked\n"
    )
    subprocess.run([sys.executable, "-I", "-c", code], check=True, cwd=ROOT)


@pytest.mark.parametrize("module", [button, settlement, chart, formatting])
def test_the_docstring_examples_hold(module):
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0
