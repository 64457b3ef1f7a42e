"""Fixing or taking back a round that went through: a fix of its totals from the
rounds page (refused when the page was out of date), and the undo that reopens the
last round."""

import hashlib
from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _

from scorekeeper.dates import time_of_day
from scorekeeper.i18n import clauses, money
from scorekeeper.models import (
    Change,
    Entry,
    Night,
    Round,
    RoundEdit,
    User,
)
from scorekeeper.models.payments import TabPart
from scorekeeper.services.card_results import store_card_results
from scorekeeper.services.errors import Refused
from scorekeeper.services.locks import at_table, night_change, record
from scorekeeper.services.rounds import check_points
from scorekeeper.table.formatting import signed


def fix_state(round_: Round, entries: Iterable[Entry]) -> str:
    """The round as a fix page shows it: its last correction and its totals
    (``"12-3f9a0c1b"``). The page sends it back with the fix, and a fix made from a
    page whose round changed since is refused (:func:`edit_round`)."""
    last_edit = round_.edits.order_by("-pk").values_list("pk", flat=True).first() or 0
    totals = ",".join(f"{e.seat_id}:{e.points}" for e in sorted(entries, key=lambda e: e.seat_id))
    return f"{last_edit}-{hashlib.sha256(totals.encode()).hexdigest()[:8]}"


class OutOfDateFix(Refused):
    """A fix made from a page that no longer shows the round as it is."""


def _changed_since(round_: Round, seen: str) -> str:
    """What happened to the round since the page showing ``seen`` was opened."""
    head = seen.partition("-")[0]
    since = int(head) if head.isdigit() else 0
    edits = round_.edits.filter(pk__gt=since).select_related("edited_by")
    what = []
    for edit in edits:
        who = edit.edited_by.name if edit.edited_by else gettext("someone")
        when = time_of_day(edit.edited_at)
        if edit.kind == RoundEdit.Kind.UNDO:
            what.append(
                gettext("%(who)s reopened it with undo at %(when)s") % {"who": who, "when": when}
            )
            continue
        changes = clauses(
            f"{name} {signed(old)} → {signed(new)}" for name, old, new in edit.changes
        )
        what.append(
            gettext("%(who)s changed it at %(when)s: %(changes)s")
            % {"who": who, "when": when, "changes": changes}
        )
    if not what:
        what.append(gettext("its totals changed"))
    return gettext(
        "Round %(number)d changed while this page was open (%(what)s). Your fix was not "
        "saved: the totals below are the round's now; make your fix again if it is "
        "still needed."
    ) % {"number": round_.number, "what": clauses(what)}


@transaction.atomic
def edit_round(
    *,
    night: Night,
    number: int,
    points: dict[int, int],
    edited_by: User,
    seen: str | None = None,
) -> Round:
    """Correct a recorded round's totals; the change is kept in the round's history.

    ``seen`` is the round's :func:`fix_state` as the fixing page showed it: when the
    round changed since (someone else's fix saved first), the fix is refused with
    :class:`OutOfDateFix`, saying what changed and by whom.
    """
    with night_change(night, by=edited_by, may=at_table) as night:
        round_ = night.rounds.filter(number=number, recorded_at__isnull=False).first()
        if round_ is None:
            raise Refused(
                _("Round %(number)d has not gone through, so there is nothing to fix.")
                % {"number": number}
            )
        _refuse_under_paid_money(night)
        if seen is not None:
            current = fix_state(round_, round_.entries.all())
            if seen != current:
                raise OutOfDateFix(_changed_since(round_, seen))
        entries = {entry.seat_id: entry for entry in round_.entries.select_related("seat")}
        if set(points) != set(entries):
            raise Refused(_("Give a total for every player of the round."))
        for value in points.values():
            check_points(value)
        total = sum(points.values())
        if total != 0:
            raise Refused(_off_zero(total))
        changes = []
        for seat_id, entry in entries.items():
            if entry.points != points[seat_id]:
                changes.append([entry.seat.name, entry.points, points[seat_id]])
                entry.points = points[seat_id]
                entry.save(update_fields=["points"])
        if changes:
            RoundEdit.objects.create(round=round_, edited_by=edited_by, changes=changes)
            record(Change.Kind.ROUND_FIXED, round=number, changes=changes)
        return round_


def _off_zero(total: int) -> str:
    """Why a fix whose totals do not add up to zero is refused, by how far they are off."""
    count = abs(total)
    if total > 0:
        text = ngettext(
            "The totals must add up to zero; they are %(count)d point too many.",
            "The totals must add up to zero; they are %(count)d points too many.",
            count,
        )
    else:
        text = ngettext(
            "The totals must add up to zero; they are %(count)d point too few.",
            "The totals must add up to zero; they are %(count)d points too few.",
            count,
        )
    return text % {"count": count}


def _refuse_under_paid_money(night: Night) -> None:
    """A fix would change what was settled under a payment already made: refused in
    words naming the payment, until it is taken back (a night's mark on its settlement
    page, a payment across nights on the group page)."""
    mark = night.payments.select_related("payer", "payee").first()
    if mark is not None:
        payer, payee, cents = mark.payer.name, mark.payee.name, mark.cents
    else:
        part = TabPart.objects.filter(seat__night=night).select_related("payment").first()
        if part is None:
            return
        payer, payee, cents = part.payment.payer_name, part.payment.payee_name, part.payment.cents
    raise Refused(
        _(
            "Money from this night was paid already (%(payer)s → %(payee)s %(amount)s). "
            "Take that payment back first, then fix the round."
        )
        % {"payer": payer, "payee": payee, "amount": money(cents, night.currency)}
    )


@transaction.atomic
def undo_last_round(*, night: Night, by: User) -> Round:
    """Take back the last round that went through: it opens again for editing."""
    with night_change(night, by=by, may=at_table) as night:
        if night.is_over:
            raise Refused(_("This night is over."))
        current = night.open_round()
        last = night.rounds.filter(recorded_at__isnull=False).order_by("-number").first()
        if last is None:
            raise Refused(_("No round has gone through yet."))
        if current is not None and current.entries.exists():
            raise Refused(
                _(
                    "Round %(number)d already has entries; a round can only be undone "
                    "before anyone enters the next hand."
                )
                % {"number": current.number}
            )
        if current is not None:
            current.delete()
        last.recorded_at = None
        last.recorded_sum = None
        last.reopened_by = by
        last.save(update_fields=["recorded_at", "recorded_sum", "reopened_by"])
        store_card_results([last.pk])  # a round not recorded has no card results
        RoundEdit.objects.create(round=last, edited_by=by, changes=[], kind=RoundEdit.Kind.UNDO)
        record(Change.Kind.ROUND_UNDONE, round=last.number)
        return last
