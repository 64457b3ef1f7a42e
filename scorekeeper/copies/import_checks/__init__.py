"""A file brought in, a whole site (``manage.py restore``) or one group as a new group
(``restore --as-new-group``), is checked row by row as if each row were typed, before
anything of it is written: the whole file is taken, or nothing.

- Only the tables the file's kind is written with (``tables``: what ``backup`` or
  ``backup --group`` writes), never another app's (a django-axes lockout, a session,
  a permission) nor one of this app that the kind does not carry.
- Every row can be read as a row of its table, with its key, and points only at rows
  before it in the file (the order both kinds are written in).
- Every field as its column takes it (length, number range, not blank: the model's
  own field checks) and as the database's check constraints take it.
- What people type goes through the checks of the forms and services that take it
  when typed: a name as the sign-up form's (and a guest's as the seat service's), a
  group's name as its form's, its currency and house rules as the services', a
  night's game and rules as the night's start does, how someone likes to be paid
  through the account page's own form (and kept as that form keeps it: the IBAN
  compact and in capitals, a link with its https://), cards as the card page reads them.

Each problem is said in words, with its row (counted from 1 in the file's list of
rows) and field as the file names it: "Record 12 (pay details of Anna), iban: The
check digits of this IBAN do not match its number ...".
The package's modules: :mod:`.refusal` (the refusal in words, and the one
transaction the checked rows are written in), :mod:`.records` (every record of a
table this kind of file carries, its key, its fields and the table's constraints:
:func:`~.records.check_file`) and :mod:`.as_typed` (each table's own checks, as the
forms and services make them when the row is typed).
"""
