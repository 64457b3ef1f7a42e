"""How many examples a property test draws: the count it names, in make test; a
quarter of it in make quick, whose profile draws 25 where hypothesis draws 100
(tests/conftest.py), new ones each run; ten times it with OFCBOARD_HYPOTHESIS=deep."""

from hypothesis import settings


def examples(count: int) -> int:
    return max(1, count * settings.default.max_examples // 100)
