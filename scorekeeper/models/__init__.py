"""Tables, the database constraints that no code path may break, and what a row
knows about itself (a night's rules, its open round, who may enter for a seat).

One module per subject; everything is importable from here, as Django expects.
"""

from scorekeeper.models.accounts import User, UserManager
from scorekeeper.models.boards import (
    MAX_POINTS,
    Board,
    parse_board,
    player_board,
    points_in_range,
    points_out_of_range,
)
from scorekeeper.models.changes import Change
from scorekeeper.models.groups import (
    Group,
    GroupQuerySet,
    Membership,
    MembershipQuerySet,
    RetiredCode,
    new_invite_token,
)
from scorekeeper.models.nights import Entry, Night, NightQuerySet, Round, RoundEdit, Seat
from scorekeeper.models.pay_details import PayDetails
from scorekeeper.models.payments import Payment
from scorekeeper.models.seasons import Season
from scorekeeper.models.seat_draws import SeatDraw
from scorekeeper.models.sign_ins import Phone, SignInCode, SignInNotice

__all__ = [
    "MAX_POINTS",
    "Board",
    "Change",
    "Entry",
    "Group",
    "GroupQuerySet",
    "Membership",
    "MembershipQuerySet",
    "Night",
    "NightQuerySet",
    "PayDetails",
    "Payment",
    "Phone",
    "RetiredCode",
    "Round",
    "RoundEdit",
    "Season",
    "Seat",
    "SeatDraw",
    "SignInCode",
    "SignInNotice",
    "User",
    "UserManager",
    "new_invite_token",
    "parse_board",
    "player_board",
    "points_in_range",
    "points_out_of_range",
]
