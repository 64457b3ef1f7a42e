"""The rules of the table that are not the scoring itself: the dealer button, who pays
whom, the seat draw, names, payment details, the chart's geometry and the writing of
points and money. Pure Python like the engine beside it (``scorekeeper.ofc``): nothing
here imports Django, and every module is checked as part of this folder (mypy strict,
no Django import, doctests run)."""
