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


def problem_words(problem: Problem) -> str:
    """What does not add up, in the reader's language, with its line."""
    values = {
        "line": problem.line,
        "text": problem.text,
        "limit": problem.number,
        "name": problem.text,
    }
    if problem.kind is Kind.TOO_BIG:
        return _(
            "The file is too big: a file of %(size)d MB or more is not imported. "
            "Split it into files of a few years each."
        ) % {"size": MAX_BYTES // 1_000_000}
    if problem.kind is Kind.TOO_MANY_LINES:
        return _(
            "The file has %(limit)s lines or more, more than one import takes. "
            "Split it into files of a few years each."
        ) % {"limit": decimal(MAX_LINES, 0)}
    if problem.kind is Kind.TOO_MANY_HANDS:
        return _(
            "The file comes to more than %(limit)s results of players, more than one import "
            "takes. Split it into files of a few years each."
        ) % {"limit": decimal(MAX_ENTRIES, 0)}
    if problem.kind is Kind.LINE_TOO_LONG:
        return (
            _(
                "Line %(line)d is longer than %(limit)d characters, longer than any line of "
                "past nights. Check that this is the right file."
            )
            % values
        )
    if problem.kind is Kind.NOT_CSV:
        return (
            _(
                "Line %(line)d cannot be read as CSV: a quote is not closed, or a cell is far "
                "too long. Save the spreadsheet as CSV again and upload that."
            )
            % values
        )
    if problem.kind is Kind.TOO_SLOW:
        return _(
            "The file took too long to read, so nothing of it was imported. "
            "Split it into smaller files."
        )
    if problem.kind is Kind.NOT_JSON:
        return _(
            "The file starts as JSON but cannot be read as JSON. "
            "Upload the app's JSON export as it was downloaded."
        )
    if problem.kind is Kind.NOT_EXPORT:
        return _(
            "The JSON file does not read as the app's export: %(text)s is not what the "
            "export writes there. Upload the export as it was downloaded."
        ) % {"text": problem.text or "/"}
    if problem.kind is Kind.EXPORT_NOT_ZERO:
        return _(
            "In the JSON file, a round of the night of %(date)s adds up to %(sum)s points, "
            "not zero."
        ) % {"date": day(date.fromisoformat(problem.text)), "sum": signed(problem.number)}
    if problem.kind is Kind.NOT_TEXT:
        return _("The file is not text. Save the spreadsheet as CSV (UTF-8) and upload that.")
    if problem.kind is Kind.EMPTY:
        return _("The file is empty.")
    if problem.kind in (Kind.MISSING_COLUMN, Kind.NO_POINTS_COLUMN):
        return (
            _(
                "Line %(line)d: the columns are not all there. The first line names them: "
                "date, name, and points or money."
            )
            % values
        )
    if problem.kind is Kind.MISSING_VALUE:
        return _("Line %(line)d has nothing in its “%(text)s” column.") % values
    if problem.kind is Kind.BAD_DATE:
        return (
            _(
                "Line %(line)d: “%(text)s” is not a date this page reads. Write 2024-03-07, "
                "or the day first: 7-3-2024, 7.3.2024 or 7/3/2024."
            )
            % values
        )
    if problem.kind is Kind.BAD_NAME:
        return (
            _(
                "Line %(line)d: “%(text)s” is not a name the app takes: letters and spaces, "
                "at most 30."
            )
            % values
        )
    if problem.kind is Kind.BAD_NUMBER:
        return _("Line %(line)d: “%(text)s” is not a number this page reads.") % values
    if problem.kind is Kind.BAD_ROUND:
        return _("Line %(line)d: “%(text)s” is not the number of a round.") % values
    if problem.kind is Kind.UNKNOWN_GAME:
        return _("Line %(line)d: “%(text)s” is not one of the app's games.") % values
    if problem.kind is Kind.UNKNOWN_SCORING:
        return (
            _(
                "Line %(line)d: “%(text)s” is not a scoring system. Write 1-6, 2-4, 1-1-1, "
                "or scoop 3 majority 0 for a table's own."
            )
            % values
        )
    if problem.kind is Kind.UNKNOWN_CURRENCY:
        return _("Line %(line)d: “%(text)s” is not a currency code such as EUR.") % values
    if problem.kind is Kind.NAME_TWICE:
        return _("Line %(line)d: %(name)s is in the same night twice.") % values
    if problem.kind is Kind.HAND_TOO_BIG:
        return _("Line %(line)d: %(points)s points is more than one hand comes to.") % {
            "line": problem.line,
            "points": signed(problem.number),
        }
    if problem.kind is Kind.NIGHT_TOO_BIG:
        return _(
            "Line %(line)d: %(points)s points for %(name)s is more than a night holds. "
            "Add a stake column, so that the money is counted in points."
        ) % {**values, "points": signed(problem.number)}
    if problem.kind is Kind.POINTS_AND_MONEY:
        return (
            _("Line %(line)d gives money where the other lines of its night give points.") % values
        )
    if problem.kind is Kind.TWO_STAKES:
        return (
            _(
                "Line %(line)d gives another stake, currency or game than the first line "
                "of its night."
            )
            % values
        )
    if problem.kind is Kind.MONEY_NOT_POINTS:
        return _("Line %(line)d: the money is not the points at the night's stake.") % values
    when = day(date.fromisoformat(problem.text)) if problem.text else ""
    if problem.kind is Kind.NOT_ZERO_MONEY:
        return _(
            "Line %(line)d: the money of the night of %(date)s adds up to %(sum)s, not zero."
        ) % {"line": problem.line, "date": when, "sum": money(problem.number, problem.currency)}
    if problem.kind is Kind.NOT_ZERO_ROUND:
        return _(
            "Line %(line)d: a round of the night of %(date)s adds up to %(sum)s points, not zero."
        ) % {"line": problem.line, "date": when, "sum": signed(problem.number)}
    return _("Line %(line)d: the points of the night of %(date)s add up to %(sum)s, not zero.") % {
        "line": problem.line,
        "date": when,
        "sum": signed(problem.number),
    }


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
