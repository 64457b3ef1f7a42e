"""How big a file of past nights may be, and how long it may take to read."""

# A file this big, or this long, is refused before anything of it is read into nights.
# Under the front's limit on any request (ofcboard/front.py MAX_BODY, 1 MiB), with room
# for the form around the file: behind the front a bigger file never reaches the app.
MAX_BYTES = 1_000_000
MAX_LINES = 100_000
# No hand comes to more than this many points either way (the app's Entry range).
MAX_HAND_POINTS = 999
# A player's night is split into at most this many hands; beyond it, a stake is missing.
MAX_ROUNDS_A_NIGHT = 100
# All the hands a file may make, every player's in every night counted.
MAX_ENTRIES = 200_000
# No line of a sheet of nights is longer than this (a row of the export with its cards
# is under 300 characters): a longer one is refused before the CSV reader sees it, and
# so is a cell longer than a line, which only a quote left open makes.
MAX_LINE_CHARS = 2_000
# The delimiter is told from this much of the first line at most.
HEADER_CHARS = 2_000
# A file is read within this many seconds, or refused: the phones' saves wait on none.
READ_SECONDS = 1.5
