"""Forms of a night: starting it, entering a total, fixing a round, seats."""

from decimal import Decimal
from itertools import pairwise

from django import forms
from django.db.models import QuerySet
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper.forms.fields import MoneyField, PointsInput, SaveKeyField
from scorekeeper.models import Entry, Night, Seat, User
from scorekeeper.ofc import HOUSE_RULES, PRESETS, Game
from scorekeeper.table.formatting import as_major
from scorekeeper.terms import GAME_NAMES

# A hidden field that is missing or malformed: the page was made by another version
# of the app, or edited by hand. Reloading it is the answer either way.
OUT_OF_DATE = gettext_lazy("This page is out of date. Reload it and try again.")

GAME_CHOICES = [(game_id, GAME_NAMES.get(game_id, game.name)) for game_id, game in PRESETS.items()]
MAX_SEATS = max(game.max_players for game in PRESETS.values())


class StartNightForm(forms.Form):
    game = forms.ChoiceField(choices=GAME_CHOICES)
    point_value = MoneyField(
        label=_("Point value"),
        min_value=Decimal("0"),
        max_value=Decimal("1000"),
        example=10,
        error_messages={
            "invalid": _("Enter the value of one point, for example %(example)s."),
            "max_decimal_places": ngettext_lazy(
                "A point value has at most %(max)s decimal, for example %(example)s.",
                "A point value has at most %(max)s decimals, for example %(example)s.",
                "max",
            ),
            "min_value": _("The point value cannot be negative."),
            "max_value": _("A point can be worth at most %(most)s."),
        },
    )
    loss_cap = MoneyField(
        label=_("Loss cap for the night (blank: none)"),
        required=False,
        min_value=Decimal("0.01"),
        max_value=Decimal("100000"),
        example=2000,
        error_messages={
            "invalid": _(
                "Enter the most anyone pays tonight, for example %(example)s, or leave it blank."
            ),
            "max_decimal_places": ngettext_lazy(
                "A loss cap has at most %(max)s decimal, for example %(example)s.",
                "A loss cap has at most %(max)s decimals, for example %(example)s.",
                "max",
            ),
            "min_value": _("A loss cap must be more than zero; leave it blank for none."),
            "max_value": _("A loss cap can be at most %(most)s."),
        },
    )
    beside_running = forms.BooleanField(
        required=False, label=_("Start a second table (another night is running)")
    )
    fantasyland = forms.BooleanField(required=False, label=_("Fantasyland"))
    stay_full_house_middle = forms.BooleanField(
        required=False, label=_("A full house or better in the middle keeps Fantasyland")
    )
    stay_wheel_middle = forms.BooleanField(
        required=False, label=_("A 7-5-4-3-2 middle keeps Fantasyland")
    )
    stay_limit = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=20,
        label=_("Stays in a row (blank: no limit)"),
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )
    hold_button = forms.BooleanField(
        required=False, label=_("Hold the button for the first hand after Fantasyland")
    )
    draw = forms.BooleanField(
        required=False, label=_("Draw for seats and the first dealer (the app shuffles)")
    )
    dealer = forms.TypedChoiceField(
        coerce=int,
        choices=[(i, format_lazy(_("Seat {number}"), number=i)) for i in range(1, MAX_SEATS + 1)],
        label=_("Deals first"),
        widget=forms.RadioSelect,
    )

    def __init__(
        self, *args, members=(), seat_count: int = MAX_SEATS, currency: str = "EUR", **kwargs
    ):
        super().__init__(*args, **kwargs)
        # Amounts are typed and stored in the group's currency's own unit (yen, cents).
        self.fields["point_value"].for_currency(currency)
        self.fields["loss_cap"].for_currency(currency)
        self.seat_count = seat_count
        self.members = {member.pk: member for member in members}
        choices = [("", "—")] + [(str(m.pk), m.name) for m in members]
        for i in range(1, seat_count + 1):
            self.fields[f"seat_{i}"] = forms.ChoiceField(
                choices=choices, required=False, label=gettext("Seat %(number)d") % {"number": i}
            )
            self.fields[f"guest_{i}"] = forms.CharField(
                required=False,
                max_length=60,
                label=gettext("Seat %(number)d guest") % {"number": i},
                widget=forms.TextInput(
                    attrs={"placeholder": gettext("or a guest's name"), "autocapitalize": "words"}
                ),
            )

    def seat_rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        return [(i, self[f"seat_{i}"], self[f"guest_{i}"]) for i in range(1, self.seat_count + 1)]

    def clean(self):
        data = super().clean()
        seats = []
        dealer_seat = None
        for i in range(1, self.seat_count + 1):
            member = data.get(f"seat_{i}")
            guest = (data.get(f"guest_{i}") or "").strip()
            if member and guest:
                self.add_error(
                    f"guest_{i}", gettext("Pick a member or type a guest's name, not both.")
                )
                continue
            if member:
                seats.append((None, self.members[int(member)]))
            elif guest:
                seats.append((guest, None))
            else:
                continue
            if data.get("dealer") == i:
                dealer_seat = len(seats) - 1
        if len(seats) < 2:
            raise forms.ValidationError(gettext("Seat at least two players."))
        if dealer_seat is None and not data.get("draw"):
            self.add_error("dealer", gettext("Pick who deals first among the seated players."))
        data["seats"] = seats
        data["dealer_index"] = dealer_seat
        return data

    def rules(self, game: Game) -> dict:
        """The house rules that differ from the preset, so the preset stays the reference."""
        chosen = {name: self.cleaned_data.get(name) for name in HOUSE_RULES}
        if not chosen["fantasyland"]:
            chosen["stay_limit"] = game.stay_limit
        return {name: value for name, value in chosen.items() if getattr(game, name) != value}


def initial_for(game: Game, point_cents: int, rules: dict, currency: str = "EUR") -> dict:
    initial = {name: rules.get(name, getattr(game, name)) for name in HOUSE_RULES}
    return {
        **initial,
        "game": game.id,
        "point_value": as_major(point_cents, currency),
        "dealer": 1,
    }


class EntryForm(forms.Form):
    """One seat's total for the open round; ``seat`` is one of the night's own seats."""

    round = forms.IntegerField(widget=forms.HiddenInput)
    seat = forms.ModelChoiceField(
        queryset=Seat.objects.none(),
        widget=forms.HiddenInput,
        error_messages={"invalid_choice": _("That seat is not at this table.")},
    )
    # Fields the page fills in, not the player: a problem with one is said as one thing.
    PAGE_FIELDS = ("round", "seat", "fantasyland")
    points = PointsInput(
        label=_("Your total"),
        widget=forms.TextInput(
            attrs={
                "inputmode": "numeric",
                "autocomplete": "off",
                "class": "points",
                "enterkeyhint": "done",
                "aria-describedby": "entry-errors",
            }
        ),
    )
    fantasyland = forms.CharField(required=False, max_length=20)
    key = SaveKeyField()

    def __init__(self, *args, night: Night, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].queryset = night.seats.all()

    def clean(self):
        data = super().clean()
        if [self.errors.pop(name) for name in self.PAGE_FIELDS if name in self.errors]:
            raise forms.ValidationError(OUT_OF_DATE, code="out_of_date")
        return data

    def claim(self) -> tuple[str, bool]:
        """(made, stayed) for the service from the one Fantasyland field."""
        value = self.cleaned_data.get("fantasyland", "")
        if value == "stayed":
            return "", True
        return value, False


class EditRoundForm(forms.Form):
    """New totals for every entry of a recorded round, and the round's state as the
    page showed it (``services.round_fixes.fix_state``), so a fix from an out-of-date page
    is refused instead of overwriting another."""

    state = forms.CharField(
        widget=forms.HiddenInput,
        max_length=40,
        error_messages={
            "required": OUT_OF_DATE,
            "max_length": OUT_OF_DATE,
        },
    )

    def __init__(self, *args, entries: "list[Entry] | tuple[()]" = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.entries = list(entries)
        for entry in self.entries:
            self.fields[f"points_{entry.seat_id}"] = PointsInput(
                label=entry.seat.name, initial=entry.points
            )

    def points(self) -> dict[int, int]:
        return {
            entry.seat_id: self.cleaned_data[f"points_{entry.seat_id}"] for entry in self.entries
        }


class AddSeatForm(forms.Form):
    """A late arrival: a member who is not seated (``members``), or a guest."""

    member = forms.ModelChoiceField(
        queryset=User.objects.none(), required=False, label=_("Member"), empty_label=_("—")
    )
    guest = forms.CharField(required=False, max_length=60, label=_("or a guest's name"))
    position = forms.TypedChoiceField(coerce=int, label=_("Sits"))

    def __init__(self, *args, members: "QuerySet[User]", seats: "list[Seat]", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = members
        # Seats are a circle: "after the last" is the default, the others cut in.
        choices = []
        if seats:
            last = max(seats, key=lambda seat: seat.position)
            choices.append(
                (last.position + 1, gettext("after %(name)s (last)") % {"name": last.name})
            )
        choices += [
            (
                after.position,
                gettext("between %(first)s and %(second)s")
                % {"first": before.name, "second": after.name},
            )
            for before, after in pairwise(seats)
        ]
        # Assigned once: a choice field's widget copies the list when it is set.
        self.fields["position"].choices = choices

    def clean(self):
        data = super().clean()
        if bool(data.get("member")) == bool((data.get("guest") or "").strip()):
            raise forms.ValidationError(gettext("Pick a member or type a guest's name."))
        return data
