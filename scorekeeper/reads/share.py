"""A night's settlement as plain text, for the group chat: its standings, the loss
cap, and who pays whom (with "settle everything tonight", earlier nights included)."""

from django.utils import timezone

from scorekeeper.formatting import money, signed
from scorekeeper.reads.owed import Folded
from scorekeeper.reads.results import NightResults


def share_text(results: NightResults, folded: Folded | None = None) -> str:
    """The settlement as plain text for the group chat; with ``folded``, what earlier
    nights still owe and the payments that square everything."""
    night = results.night
    started = timezone.localtime(night.started_at)
    rounds = f"{results.rounds} round{'s' if results.rounds != 1 else ''}"
    per_point = money(night.point_cents, night.currency)
    lines = [
        f"{night.group.name} · {started:%a} {started.day} {started:%b} · {night.game_title}",
        f"{rounds} · {per_point}/pt" + ("" if night.is_over else " · still playing"),
        "",
    ]
    lines += [
        f"{player.seat.name} {signed(player.points)} {money(player.cents, night.currency)}"
        for player in results.players
    ]
    for player in results.capped:
        lines.append(
            f"{player.seat.name} capped at {money(night.loss_cap_cents, night.currency)}"
            f" ({money(player.forgiven, night.currency)} not paid)"
        )
    lines.append("")
    if folded is not None:
        lines += [
            f"{line.person.name} from earlier nights: {money(line.cents, night.currency)}"
            for line in folded.earlier
        ]
        lines.append("")
        payments = [
            f"{payment.payer.name} → {payment.payee.name} {money(payment.cents, payment.currency)}"
            for payment in folded.payments
        ]
        lines += payments or ["Nobody owes anything, earlier nights included."]
    elif results.payments:
        lines += [
            f"{line.payer.name} → {line.payee.name} {money(line.cents, night.currency)}"
            + (" ✓ paid" if line.is_paid else "")
            for line in results.payments
        ]
    else:
        lines.append("Nobody owes anything.")
    return "\n".join(lines)
