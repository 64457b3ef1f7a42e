"""History from a spreadsheet: a CSV file of past nights, read and checked line by line.

One row per player per night (a date, a name, their points or their money, and if the
sheet has them the stake, the game and the currency), or the app's own CSV export (one
row per player per round, with the night's id and the round's number). The columns are
found by their names in a header row (:data:`~.cells.COLUMNS`), the delimiter by looking at it
(a comma, a semicolon or a tab). Dates are ISO (``2024-03-07``, or the export's
``2024-03-07T20:15:00+01:00``) or day first: ``7-3-2024``, ``7.3.2024``, ``7/3/2024``;
never month first, which cannot be told from day first.

Nothing here writes, and nothing here speaks a language: what does not add up comes
back as :class:`~.sheet.Problem` values with the line they are on, which the page puts into
words. A night is made of rounds whose points add up to zero, as the app records them:
the export's rounds as they were, a spreadsheet's night as one round, or as few more
as it takes to keep each hand within the app's range (:func:`~.nights.split_rounds`).

The package's modules: :mod:`.limits` (how big a file may be), :mod:`.sheet` (what a
reading comes to: nights and problems), :mod:`.cells` (a header, a date, points,
money, a scoring system), :mod:`.reading` (the file as CSV records, and
:func:`~.reading.read_sheet`), :mod:`.nights` (rows checked and made into nights),
:mod:`.tokens` (nights kept in a signed token and checked again) and :mod:`.people`
(who each name of a file is).
"""
