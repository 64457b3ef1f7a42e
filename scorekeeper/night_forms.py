"""Forms of a night: starting it, entering a total, fixing a round, seats."""

from decimal import Decimal
from itertools import pairwise

from django import forms

from scorekeeper.games import HOUSE_RULES
from scorekeeper.ofc.games import PRESETS, Game
from scorekeeper.services.nights import MAX_POINTS

GAME_CHOICES = [(game_id, game.name) for game_id, game in PRESETS.items()]
MAX_SEATS = max(game.max_players for game in PRESETS.values())


class PointsInput(forms.IntegerField):
    """A hand's total as typed on a phone: "-7", "−7" (a real minus) or "+5"."""

    default_error_messages = {
        "required": "Enter a total, for example 12 or −7.",
        "invalid": "A total is a whole number, for example 12 or −7.",
        "min_value": f"A total must be between −{MAX_POINTS} and {MAX_POINTS}.",
        "max_value": f"A total must be between −{MAX_POINTS} and {MAX_POINTS}.",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", -MAX_POINTS)
        kwargs.setdefault("max_value", MAX_POINTS)
        attrs = {"inputmode": "numeric", "autocomplete": "off", "class": "points"}
        kwargs.setdefault("widget", forms.TextInput(attrs=attrs))
        super().__init__(**kwargs)

    def to_python(self, value):
        if isinstance(value, str):
            value = value.strip().replace("\u2212", "-").replace(" ", "")
            if value.startswith("+"):
                value = value[1:]
        return super().to_python(value)


class MoneyField(forms.DecimalField):
    """An amount typed on a phone: "0,10" as well as "0.10", a currency sign allowed."""

    def __init__(self, **kwargs):
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal"}))
        super().__init__(**kwargs)

    def to_python(self, value):
        if isinstance(value, str):
            value = value.strip().strip("€$£¥₹").strip().replace(",", ".")
        return super().to_python(value)


class StartNightForm(forms.Form):
    game = forms.ChoiceField(choices=GAME_CHOICES)
    point_value = MoneyField(
        label="Point value",
        min_value=Decimal("0"),
        max_value=Decimal("1000"),
        error_messages={
            "invalid": "Enter the value of one point, for example 0.10.",
            "max_decimal_places": "A point is worth whole cents, for example 0.10.",
            "min_value": "The point value cannot be negative.",
            "max_value": "A point can be worth at most 1000.",
        },
    )
    loss_cap = MoneyField(
        label="Loss cap for the night (blank: none)",
        required=False,
        min_value=Decimal("0.01"),
        max_value=Decimal("100000"),
        error_messages={
            "invalid": "Enter the most anyone pays tonight, for example 20.00, or leave it blank.",
            "max_decimal_places": "The cap is in whole cents, for example 20.00.",
            "min_value": "A loss cap must be more than zero; leave it blank for none.",
            "max_value": "A loss cap can be at most 100000.",
        },
    )
    beside_running = forms.BooleanField(
        required=False, label="Start a second table (another night is running)"
    )
    fantasyland = forms.BooleanField(required=False, label="Fantasyland")
    stay_full_house_middle = forms.BooleanField(
        required=False, label="A full house or better in the middle keeps Fantasyland"
    )
    stay_wheel_middle = forms.BooleanField(
        required=False, label="A 7-5-4-3-2 middle keeps Fantasyland"
    )
    stay_limit = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=20,
        label="Stays in a row (blank: no limit)",
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )
    hold_button = forms.BooleanField(
        required=False, label="Hold the button for the first hand after Fantasyland"
    )
    dealer = forms.TypedChoiceField(
        coerce=int,
        choices=[(i, f"Seat {i}") for i in range(1, MAX_SEATS + 1)],
        label="Deals first",
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, members=(), seat_count: int = MAX_SEATS, **kwargs):
        super().__init__(*args, **kwargs)
        self.seat_count = seat_count
        self.members = {member.pk: member for member in members}
        choices = [("", "—")] + [(str(m.pk), m.name) for m in members]
        for i in range(1, seat_count + 1):
            self.fields[f"seat_{i}"] = forms.ChoiceField(
                choices=choices, required=False, label=f"Seat {i}"
            )
            self.fields[f"guest_{i}"] = forms.CharField(
                required=False,
                max_length=60,
                label=f"Seat {i} guest",
                widget=forms.TextInput(
                    attrs={"placeholder": "or a guest's name", "autocapitalize": "words"}
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
                self.add_error(f"guest_{i}", "Pick a member or type a guest's name, not both.")
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
            raise forms.ValidationError("Seat at least two players.")
        if dealer_seat is None:
            self.add_error("dealer", "Pick who deals first among the seated players.")
        data["seats"] = seats
        data["dealer_index"] = dealer_seat
        return data

    def rules(self, game: Game) -> dict:
        """The house rules that differ from the preset, so the preset stays the reference."""
        chosen = {name: self.cleaned_data.get(name) for name in HOUSE_RULES}
        if not chosen["fantasyland"]:
            chosen["stay_limit"] = game.stay_limit
        return {name: value for name, value in chosen.items() if getattr(game, name) != value}


def initial_for(game: Game, point_cents: int, rules: dict) -> dict:
    initial = {name: rules.get(name, getattr(game, name)) for name in HOUSE_RULES}
    return {
        **initial,
        "game": game.id,
        "point_value": (Decimal(point_cents) / 100).quantize(Decimal("0.01")),
        "dealer": 1,
    }


class EntryForm(forms.Form):
    round = forms.IntegerField(widget=forms.HiddenInput)
    seat = forms.IntegerField(widget=forms.HiddenInput)
    points = PointsInput(
        label="Your total",
        widget=forms.TextInput(
            attrs={
                "inputmode": "numeric",
                "autocomplete": "off",
                "class": "points",
                "enterkeyhint": "done",
            }
        ),
    )
    fantasyland = forms.CharField(required=False, max_length=20)

    def claim(self) -> tuple[str, bool]:
        """(made, stayed) for the service from the one Fantasyland field."""
        value = self.cleaned_data.get("fantasyland", "")
        if value == "stayed":
            return "", True
        return value, False


class EditRoundForm(forms.Form):
    def __init__(self, *args, entries=(), **kwargs):
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
    member = forms.ChoiceField(required=False, label="Member")
    guest = forms.CharField(required=False, max_length=60, label="or a guest's name")
    position = forms.TypedChoiceField(coerce=int, label="Sits")

    def __init__(self, *args, members=(), seats=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].choices = [("", "—")] + [(str(m.pk), m.name) for m in members]
        # Seats are a circle: "after the last" is the default, the others cut in.
        choices = []
        if seats:
            last = max(seats, key=lambda seat: seat.position)
            choices.append((last.position + 1, f"after {last.name} (last)"))
        choices += [
            (after.position, f"between {before.name} and {after.name}")
            for before, after in pairwise(seats)
        ]
        # Assigned once: a choice field's widget copies the list when it is set.
        self.fields["position"].choices = choices

    def clean(self):
        data = super().clean()
        if bool(data.get("member")) == bool((data.get("guest") or "").strip()):
            raise forms.ValidationError("Pick a member or type a guest's name.")
        return data
