"""The benchmarks are documented commands: they must keep running as the code moves.
(They print figures; nothing here times anything.)"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "script", ["bench/poll.py", "bench/engine.py", "bench/pages.py", "bench/renders.py"]
)
def test_the_benchmark_runs_and_prints_its_figures(script):
    env = {**os.environ, "OFCBOARD_BENCH_QUICK": "1"}
    env.pop("DATABASE_URL", None)
    result = subprocess.run(
        [sys.executable, script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    expected = {
        "poll": "req/s",
        "engine": "ours / treys",
        "pages": "within 3x",
        "renders": "a phone a change",
    }[Path(script).stem]
    assert expected in result.stdout
