"""A night's settlement as plain text, for the group chat: its standings, the loss
cap, and who pays whom (with "settle everything tonight", earlier nights included)."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.dates import weekday
from scorekeeper.i18n import money
from scorekeeper.reads.owed import Folded
from scorekeeper.reads.results import NightResults
from scorekeeper.table.formatting import signed
from scorekeeper.terms import game_name


def share_text(results: NightResults, folded: Folded | None = None) -> str:
    """The settlement as plain text for the group chat; with ``folded``, what earlier
    nights still owe and the payments that square everything."""
    night = results.night
    rounds = ngettext("%(count)d round", "%(count)d rounds", results.rounds) % {
        "count": results.rounds
    }
    per_point = _("%(amount)s/pt") % {"amount": money(night.point_cents, night.currency)}
    day = weekday(night.started_at)
    lines = [
        f"{night.group.name} · {day} · {game_name(night.game)}",
        " · ".join([rounds, per_point] + ([] if night.is_over else [_("still playing")])),
        "",
    ]
    lines += [
        f"{player.seat.name} {signed(player.points)} {money(player.cents, night.currency)}"
        for player in results.players
    ]
    for player in results.capped:
        lines.append(
            _("%(name)s capped at %(cap)s (%(forgiven)s not paid)")
            % {
                "name": player.seat.name,
                "cap": money(night.loss_cap_cents, night.currency),
                "forgiven": money(player.forgiven, night.currency),
            }
        )
    lines.append("")
    if folded is not None:
        lines += [
            _("%(name)s from earlier nights: %(amount)s")
            % {"name": line.person.name, "amount": money(line.cents, night.currency)}
            for line in folded.earlier
        ]
        lines.append("")
        payments = [
            f"{payment.payer.name} → {payment.payee.name} {money(payment.cents, payment.currency)}"
            for payment in folded.payments
        ]
        lines += payments or [_("Nobody owes anything, earlier nights included.")]
    elif results.payments:
        lines += [
            (
                _("%(payer)s → %(payee)s %(amount)s ✓ paid")
                if line.is_paid
                else "%(payer)s → %(payee)s %(amount)s"
            )
            % {
                "payer": line.payer.name,
                "payee": line.payee.name,
                "amount": money(line.cents, night.currency),
            }
            for line in results.payments
        ]
    else:
        lines.append(_("Nobody owes anything."))
    return "\n".join(lines)
