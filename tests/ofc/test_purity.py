import subprocess
import sys


def test_importing_the_engine_imports_no_django():
    code = (
        "import sys, scorekeeper.ofc, scorekeeper.ofc.contract\n"
        "leaked = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "assert not leaked, leaked\n"
    )
    subprocess.run([sys.executable, "-I", "-c", code], check=True, cwd=_root())


def _root() -> str:
    from pathlib import Path

    return str(Path(__file__).resolve().parents[2])
