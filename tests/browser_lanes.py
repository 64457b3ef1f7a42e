"""make test's hand-out of tests to its workers: each test file goes to whichever worker
is free, as xdist's --dist loadscope hands them out, in the order they are found (the
slowest first, tests/conftest.py), except the browser tests, which run in a few lanes
that take turns test by test, and the files that start servers and fronts of their
own, which run one after another in a lane of theirs: each lane on one worker. A file
stays on one worker, so that the servers and fronts its tests share (module fixtures)
start once a run. Handed out freely, the server files ran at the start all at once,
beside both browsers, and a fresh-clone run failed two tests that time an answer.

With runs of tests handed out in the order they are found (xdist's default), one
worker got every browser test and went on alone for minutes after the others had
finished; with every test free (--dist worksteal), four browsers drew their pages at
once, slowed each other down, and tests that time an answer ran at the fullest load.
(xdist's own --dist loadgroup would say this with marks, but it names a group by
rewriting the test's id, which pytest 9.2 no longer reads: pytest-xdist issue 1386.)"""

import pytest
from xdist.scheduler import LoadScopeScheduling

BROWSER_TESTS = "tests/e2e/"
SERVER_TESTS = (
    "tests/test_benchmarks.py",
    "tests/test_deployed_site.py",
    "tests/test_faults.py",
    "tests/test_front.py",
    "tests/test_front_attacks.py",
    "tests/test_many_nodes.py",
    "tests/test_serve.py",
    "tests/test_server_front.py",
)


class BrowserLanes(LoadScopeScheduling):
    def __init__(self, config: pytest.Config, log, *, lanes: int) -> None:
        super().__init__(config, log)
        # Not by size (loadscope's default): the slowest files first, as found.
        config.option.loadscopereorder = False
        self.lanes = lanes
        self.lane_of: dict[str, str] = {}

    def _split_scope(self, nodeid: str) -> str:
        # xdist hands out one scope at a time to one worker: a file, or a lane.
        if nodeid.startswith(SERVER_TESTS):
            return "server lane"
        if not nodeid.startswith(BROWSER_TESTS):
            return super()._split_scope(nodeid)
        if nodeid not in self.lane_of:
            # The browser tests take turns, in the order found (slowest files first).
            self.lane_of[nodeid] = f"browser lane {len(self.lane_of) % self.lanes}"
        return self.lane_of[nodeid]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--browser-lanes",
        type=int,
        default=0,
        help="run the browser tests on this many workers, every other test on any",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    lanes = config.getoption("browser_lanes")
    return BrowserLanes(config, log, lanes=lanes) if lanes else None
