"""The next night like the last: "Who's here tonight?" offers last time's table, and
the night starts with those ticked, through start_night."""

from collections.abc import Collection
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.models import Group, Night, Round, Seat, User
from scorekeeper.ofc import PRESETS, Game
from scorekeeper.services.errors import Refused
from scorekeeper.services.nights import SeatRequest, start_night
from scorekeeper.terms import game_name


@dataclass(frozen=True)
class Chair:
    """One person "Who's here tonight?" offers: ``key`` is what the form ticks
    (``seat-<id>`` for a seat of last time, ``member-<id>`` for a member who did not
    play then)."""

    key: str
    name: str
    user: User | None
    position: int | None = None  # last time's seat, clockwise; None for "Also here?"
    left_early: bool = False  # left the table before last time's end

    def request(self) -> SeatRequest:
        return SeatRequest(user=self.user) if self.user else SeatRequest(guest_name=self.name)


@dataclass(frozen=True)
class LastTable:
    """What the group's last finished night leaves for the next one."""

    night: Night
    players: list[Chair]  # who sat last time and may sit again, in their seats
    others: list[Chair]  # members now who did not play last time
    missing: list[str]  # members of last time who are no longer in the group
    stopped_at: int  # the seat position of last time's last dealer (0: no round)

    @property
    def game(self) -> Game:
        return PRESETS[self.night.game].with_house_rules(self.night.rules)

    def first_dealer(self, sitting: list[Chair]) -> int:
        """The index in ``sitting`` of who deals first: the seat after last time's
        dealer, clockwise, among last time's players who sit down again (the first of
        them when none sits after; the first seat when none of them is here)."""
        again = [index for index, chair in enumerate(sitting) if chair.position is not None]
        later = [index for index in again if sitting[index].position > self.stopped_at]
        return (later or again or [0])[0]

    def sitting(self, here: Collection[str]) -> list[Chair]:
        """The chairs ticked ``here`` (their keys), in the order they sit down: last
        time's players in their seats, then the members added."""
        return [chair for chair in self.players + self.others if chair.key in here]

    def dealer(self, here: Collection[str]) -> Chair | None:
        """Who deals first with those ticked ``here``; None while nobody is ticked."""
        sitting = self.sitting(here)
        return sitting[self.first_dealer(sitting)] if sitting else None


@dataclass(frozen=True)
class SameTable:
    night: Night
    missing: list[str]  # members of last time who are no longer in the group
    left_out: list[str]  # last time's players left unticked tonight


def last_night(group: Group) -> Night | None:
    """The group's newest finished night, as the group page lists it first."""
    return group.nights.filter(ended_at__isnull=False).order_by("-started_at", "-pk").first()


def last_table(group: Group) -> LastTable:
    """Last time's table as "Who's here tonight?" offers it; refused in words when no
    night has finished yet."""
    last = last_night(group)
    if last is None:
        raise Refused(_("No night has finished yet, so there is no last table to copy."))
    members = [membership.user for membership in group.current_memberships()]
    current = {user.pk for user in members}
    seats: list[Seat] = list(last.seats.select_related("user").order_by("position"))
    stopped = (
        Round.objects.filter(night=last, recorded_at__isnull=False).order_by("-number").first()
        or Round.objects.filter(night=last).order_by("-number").first()
    )
    players = [
        Chair(
            key=f"seat-{seat.pk}",
            name=seat.name,
            user=seat.user,
            position=seat.position,
            left_early=seat.last_round is not None,
        )
        for seat in seats
        if seat.user_id is None or seat.user_id in current
    ]
    sat = {seat.user_id for seat in seats}
    return LastTable(
        night=last,
        players=players,
        others=[
            Chair(key=f"member-{user.pk}", name=user.name, user=user)
            for user in members
            if user.pk not in sat
        ],
        missing=[seat.name for seat in seats if seat.user_id and seat.user_id not in current],
        stopped_at=stopped.dealer.position if stopped else 0,
    )


@transaction.atomic
def start_same_table(*, group: Group, started_by: User, here: Collection[str]) -> SameTable:
    """Start a night like the group's last finished one with those ticked ``here``
    (keys of :func:`last_table`'s chairs): last time's players in their seats, then
    the members added, the button one seat on from where it stopped
    (:meth:`LastTable.first_dealer`), and that night's game, point value, loss cap and
    house rules. Refused in words, with nothing started, for fewer than two players,
    more than the game seats, or someone no longer offered; start_night's own
    refusals stand."""
    table = last_table(group)
    chairs = {chair.key: chair for chair in table.players + table.others}
    unknown = [key for key in here if key not in chairs]
    if unknown:
        raise Refused(
            _("Someone ticked is no longer in the group. Reload the page and tick again.")
        )
    sitting = table.sitting(here)
    game = table.game
    if len(sitting) < 2:
        raise Refused(_("Tick at least two players to start the night."))
    if len(sitting) > game.max_players:
        raise Refused(
            ngettext(
                "%(game)s seats at most %(most)d player: untick someone.",
                "%(game)s seats at most %(most)d players: untick someone.",
                game.max_players,
            )
            % {"game": game_name(game), "most": game.max_players}
        )
    last = table.night
    night = start_night(
        group=group,
        started_by=started_by,
        game_id=last.game,
        rules=dict(last.rules),
        point_cents=last.point_cents,
        seats=[chair.request() for chair in sitting],
        first_dealer=table.first_dealer(sitting),
        loss_cap_cents=last.loss_cap_cents,
    )
    return SameTable(
        night=night,
        missing=table.missing,
        left_out=[chair.name for chair in table.players if chair.key not in here],
    )
