"""Importing past nights from a spreadsheet: the upload, and the preview's confirmation
with the signed nights it showed (no file is kept between the two)."""

import hashlib
import secrets
from datetime import date

from django import forms
from django.core import signing
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.dates import day
from scorekeeper.i18n import decimal, money
from scorekeeper.table.formatting import signed
from scorekeeper.table.history_json import is_json, read_history
from scorekeeper.table.spreadsheet.limits import MAX_BYTES, MAX_ENTRIES, MAX_LINES
from scorekeeper.table.spreadsheet.reading import count_lines, read_sheet
from scorekeeper.table.spreadsheet.sheet import Kind, Problem, Sheet, SheetNight
from scorekeeper.table.spreadsheet.tokens import from_data, to_data

# A preview's nights may be imported within this many seconds of the upload.
TOKEN_AGE = 60 * 60


_COLUMNS_MISSING = gettext_lazy(
    "Line %(line)d: the columns are not all there. The first line names them: "
    "date, name, and points or money."
)

# Each problem in words: whole sentences, filled in from the values problem_words
# gives them (line, text, name, limit, size, points, sum, date).
PROBLEM_MESSAGES = {
    Kind.TOO_BIG: gettext_lazy(
        "The file is too big: a file of %(size)d MB or more is not imported. "
        "Split it into files of a few years each."
    ),
    Kind.TOO_MANY_LINES: gettext_lazy(
        "The file has %(limit)s lines or more, more than one import takes. "
        "Split it into files of a few years each."
    ),
    Kind.TOO_MANY_HANDS: gettext_lazy(
        "The file comes to more than %(limit)s results of players, more than one import "
        "takes. Split it into files of a few years each."
    ),
    Kind.LINE_TOO_LONG: gettext_lazy(
        "Line %(line)d is longer than %(limit)d characters, longer than any line of "
        "past nights. Check that this is the right file."
    ),
    Kind.NOT_CSV: gettext_lazy(
        "Line %(line)d cannot be read as CSV: a quote is not closed, or a cell is far "
        "too long. Save the spreadsheet as CSV again and upload that."
    ),
    Kind.TOO_SLOW: gettext_lazy(
        "The file took too long to read, so nothing of it was imported. "
        "Split it into smaller files."
    ),
    Kind.NOT_JSON: gettext_lazy(
        "The file starts as JSON but cannot be read as JSON. "
        "Upload the app's JSON export as it was downloaded."
    ),
    Kind.NOT_EXPORT: gettext_lazy(
        "The JSON file does not read as the app's export: %(text)s is not what the "
        "export writes there. Upload the export as it was downloaded."
    ),
    Kind.EXPORT_NOT_ZERO: gettext_lazy(
        "In the JSON file, a round of the night of %(date)s adds up to %(sum)s points, not zero."
    ),
    Kind.NOT_TEXT: gettext_lazy(
        "The file is not text. Save the spreadsheet as CSV (UTF-8) and upload that."
    ),
    Kind.EMPTY: gettext_lazy("The file is empty."),
    Kind.MISSING_COLUMN: _COLUMNS_MISSING,
    Kind.NO_POINTS_COLUMN: _COLUMNS_MISSING,
    Kind.MISSING_VALUE: gettext_lazy("Line %(line)d has nothing in its “%(text)s” column."),
    Kind.BAD_DATE: gettext_lazy(
        "Line %(line)d: “%(text)s” is not a date this page reads. Write 2024-03-07, "
        "or the day first: 7-3-2024, 7.3.2024 or 7/3/2024."
    ),
    Kind.BAD_NAME: gettext_lazy(
        "Line %(line)d: “%(text)s” is not a name the app takes: letters and spaces, at most 30."
    ),
    Kind.BAD_NUMBER: gettext_lazy("Line %(line)d: “%(text)s” is not a number this page reads."),
    Kind.BAD_ROUND: gettext_lazy("Line %(line)d: “%(text)s” is not the number of a round."),
    Kind.UNKNOWN_GAME: gettext_lazy("Line %(line)d: “%(text)s” is not one of the app's games."),
    Kind.UNKNOWN_SCORING: gettext_lazy(
        "Line %(line)d: “%(text)s” is not a scoring system. Write 1-6, 2-4, 1-1-1, "
        "or scoop 3 majority 0 for a table's own."
    ),
    Kind.UNKNOWN_CURRENCY: gettext_lazy(
        "Line %(line)d: “%(text)s” is not a currency code such as EUR."
    ),
    Kind.NAME_TWICE: gettext_lazy("Line %(line)d: %(name)s is in the same night twice."),
    Kind.HAND_TOO_BIG: gettext_lazy(
        "Line %(line)d: %(points)s points is more than one hand comes to."
    ),
    Kind.NIGHT_TOO_BIG: gettext_lazy(
        "Line %(line)d: %(points)s points for %(name)s is more than a night holds. "
        "Add a stake column, so that the money is counted in points."
    ),
    Kind.POINTS_AND_MONEY: gettext_lazy(
        "Line %(line)d gives money where the other lines of its night give points."
    ),
    Kind.TWO_STAKES: gettext_lazy(
        "Line %(line)d gives another stake, currency or game than the first line of its night."
    ),
    Kind.MONEY_NOT_POINTS: gettext_lazy(
        "Line %(line)d: the money is not the points at the night's stake."
    ),
    Kind.NOT_ZERO_MONEY: gettext_lazy(
        "Line %(line)d: the money of the night of %(date)s adds up to %(sum)s, not zero."
    ),
    Kind.NOT_ZERO_ROUND: gettext_lazy(
        "Line %(line)d: a round of the night of %(date)s adds up to %(sum)s points, not zero."
    ),
    Kind.NOT_ZERO: gettext_lazy(
        "Line %(line)d: the points of the night of %(date)s add up to %(sum)s, not zero."
    ),
}
# The problems whose text is a night's date.
_DATED = {Kind.EXPORT_NOT_ZERO, Kind.NOT_ZERO_MONEY, Kind.NOT_ZERO_ROUND, Kind.NOT_ZERO}


def problem_words(problem: Problem) -> str:
    """What does not add up, in the reader's language, with its line."""
    values: dict[str, object] = {
        "line": problem.line,
        "text": problem.text,
        "limit": problem.number,
        "name": problem.text,
        "size": MAX_BYTES // 1_000_000,
        "points": signed(problem.number),
        "sum": signed(problem.number),
    }
    if problem.kind in _DATED:
        values["date"] = day(date.fromisoformat(problem.text)) if problem.text else ""
    if problem.kind is Kind.TOO_MANY_LINES:
        values["limit"] = decimal(MAX_LINES, 0)
    if problem.kind is Kind.TOO_MANY_HANDS:
        values["limit"] = decimal(MAX_ENTRIES, 0)
    if problem.kind is Kind.NOT_EXPORT:
        values["text"] = problem.text or "/"
    if problem.kind is Kind.NOT_ZERO_MONEY:
        values["sum"] = money(problem.number, problem.currency)
    return str(PROBLEM_MESSAGES[problem.kind] % values)


class UploadForm(forms.Form):
    """A file of past nights, read and checked as it comes (never kept on disk): the
    app's JSON export, told by its content (:func:`is_json`), or a CSV file."""

    file = forms.FileField(
        label=gettext_lazy("CSV or JSON file"),
        error_messages={
            "required": gettext_lazy("Choose a CSV or JSON file to upload."),
            "empty": gettext_lazy("The file is empty."),
        },
    )

    def __init__(self, *args, currency: str, point_cents: int, games: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.reading = {"currency": currency, "point_cents": point_cents, "games": games}
        self.sheet = Sheet()
        self.is_json = False

    def clean_file(self) -> UploadedFile:
        upload: UploadedFile = self.cleaned_data["file"]
        # The size first, then the lines counted as the file streams by: a file over
        # either limit is refused before any of it is read into nights.
        if (upload.size or 0) >= MAX_BYTES:
            raise forms.ValidationError(problem_words(Problem(0, Kind.TOO_BIG)))
        if count_lines(upload.chunks()) >= MAX_LINES:
            raise forms.ValidationError(problem_words(Problem(0, Kind.TOO_MANY_LINES)))
        upload.seek(0)
        data = upload.read(MAX_BYTES)
        self.is_json = is_json(data)
        if self.is_json:
            self.sheet = read_history(data, games=set(self.reading["games"].values()))
        else:
            self.sheet = read_sheet(data, **self.reading)
        return upload


def sign_nights(nights: tuple[SheetNight, ...], salt: str) -> str:
    """The preview's nights as a signed token the confirmation posts back, with a
    number of its own: the same file previewed again is another preview (imported
    again if confirmed), while this one imports once (ConfirmForm.preview)."""
    upload = secrets.token_hex(8)
    return signing.dumps({"upload": upload, "nights": to_data(nights)}, salt=salt, compress=True)


class ConfirmForm(forms.Form):
    """The preview's nights, signed, and whether they were settled at the time."""

    nights = forms.CharField(widget=forms.HiddenInput)
    settled = forms.BooleanField(
        required=False,
        label=gettext_lazy("Settled at the time"),
        help_text=gettext_lazy(
            "Every night's payments are marked paid, so the imported nights owe nothing. "
            "Leave it off and what they come to is owed, as for any night."
        ),
    )

    def __init__(self, *args, salt: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.salt = salt

    @property
    def preview(self) -> str:
        """A fingerprint of the preview confirmed (of its signed nights), which the
        import keeps on the record so that the same preview imports once."""
        token = str(self.data.get("nights", ""))
        return hashlib.sha256(token.encode()).hexdigest()[:32]

    def clean_nights(self) -> list[SheetNight]:
        try:
            data = signing.loads(self.cleaned_data["nights"], salt=self.salt, max_age=TOKEN_AGE)
            return from_data(data["nights"])
        except (signing.BadSignature, ValueError, TypeError, KeyError):
            raise forms.ValidationError(
                _("This preview is too old or was changed. Upload the file again.")
            ) from None
