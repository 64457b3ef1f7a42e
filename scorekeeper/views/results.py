"""The end of the night: the settlement, the group's history, and the exports."""

from collections.abc import Iterator

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scorekeeper.forms.groups import InviteLinkForm
from scorekeeper.forms.payments import OwedPaymentForm, PaymentForm, SettleEverythingForm
from scorekeeper.i18n import money
from scorekeeper.models import Group, Night, Payment, User
from scorekeeper.models.owed import CANNOT_FOLD
from scorekeeper.models.payments import TabPayment
from scorekeeper.reads import exports
from scorekeeper.reads.groups import group_page, owed_part
from scorekeeper.reads.history import group_table, member_records, player_nights
from scorekeeper.reads.owed import folded_settlement
from scorekeeper.reads.pay_details import group_pay_context, night_pay_context
from scorekeeper.reads.polls import settlement_now
from scorekeeper.reads.records import player_record
from scorekeeper.reads.results import night_results, reading
from scorekeeper.services import payments as payment_services
from scorekeeper.services.errors import Refused
from scorekeeper.views.access import (
    AuthenticatedRequest,
    HtmxHttpRequest,
    member_group,
    member_night,
    site_url,
)
from scorekeeper.views.outcomes import change_and_say
from scorekeeper.views.paging import older_than
from scorekeeper.views.polling import shown_version, unchanged_poll
from scorekeeper.views.seasons import season_asked
from scorekeeper.views.shared_parts import shared_settlement


@require_GET
@login_required
def night_settle(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    return render(request, "scorekeeper/settlement.html", _settlement(night, request.user))


@require_GET
@login_required
@unchanged_poll(settlement_now)
def night_settle_live(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    """The settlement's live part, all of it from one read: redrawn once the night
    changed (a payment marked or taken back on another phone, a round while it runs,
    its end), else 204."""
    night = member_night(request, night_id)
    page = render(
        request, "scorekeeper/settlement.html#settlement-live", _settlement(night, request.user)
    )
    return shown_version(page, night)


def _settlement(night: Night, reader: User) -> dict:
    results = night_results(night)
    context = {
        "night": night,
        "group": night.group,
        "results": results,
        # The reader's own lines first, in words; everyone else's below.
        "reading": reading(results, reader),
    }
    context |= night_pay_context(night)
    folded = folded_settlement(night) if night.group.settle_everything else None
    if folded is not None:
        context["folded"] = folded
    # Settling everything, but this night's view of it cannot be made: its own
    # settlement, and words saying why.
    if night.group.settle_everything and folded is None:
        context["cannot_fold"] = CANNOT_FOLD
    # The standings, the chart and what to share: rendered once for every phone.
    shared = shared_settlement(night, results, folded)
    context |= {"shared": shared, "share_text": shared.share_text}
    return context


@require_POST
@login_required
def payment_mark(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    form = PaymentForm(data=request.POST, night=night)
    if not form.is_valid():
        if "payer" in form.errors or "payee" in form.errors:
            messages.error(request, _("That payment is not between players of this night."))
        else:
            messages.error(request, _("That payment could not be read. Try again."))
        return redirect("night_settle", night_id=night.pk)
    payer, payee = form.cleaned_data["payer"], form.cleaned_data["payee"]
    cents = form.cleaned_data["cents"]
    try:
        payment_services.mark_paid(
            night=night,
            payer=payer,
            payee=payee,
            cents=cents,
            marked_by=request.user,
            another_payment=form.cleaned_data["another_payment"],
        )
    except Refused as error:
        messages.error(request, str(error))
    else:
        amount = money(cents, night.currency)
        messages.success(
            request,
            _("%(payer)s paid %(payee)s %(amount)s: marked.")
            % {"payer": payer.name, "payee": payee.name, "amount": amount},
        )
    return redirect("night_settle", night_id=night.pk)


@require_POST
@login_required
def payment_undo(request: AuthenticatedRequest, night_id: int, payment_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    payment = get_object_or_404(
        Payment.objects.select_related("payer", "payee"), pk=payment_id, night=night
    )
    change_and_say(
        request,
        lambda: payment_services.unmark_paid(night=night, payment=payment, by=request.user),
        _("%(payer)s → %(payee)s is open again.")
        % {"payer": payment.payer.name, "payee": payment.payee.name},
    )
    return redirect("night_settle", night_id=night.pk)


def _pay_owed(request: AuthenticatedRequest, group: Group, night: Night | None = None) -> None:
    """Pay what the posted form says is owed; the outcome goes to the messages."""
    form = OwedPaymentForm(data=request.POST)
    if not form.is_valid():
        messages.error(
            request, form.errors.get("amount", [_("That payment could not be read.")])[0]
        )
        return
    data = form.cleaned_data
    try:
        tab = payment_services.pay_owed(
            group=group,
            payer=data["payer"],
            payee=data["payee"],
            cents=data["amount"],
            currency=data["currency"],
            fingerprint=data["fingerprint"],
            marked_by=request.user,
            night=night,
        )
    except Refused as error:
        messages.error(request, str(error))
    else:
        amount = money(tab.cents, tab.currency)
        messages.success(
            request,
            _("%(payer)s paid %(payee)s %(amount)s: marked.")
            % {"payer": tab.payer_name, "payee": tab.payee_name, "amount": amount},
        )


@require_GET
@login_required
def group_owed(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """What is still owed across the group's nights: the group page at its "Still
    owed" part, or for htmx only that part."""
    group = member_group(request, group_id)
    if request.htmx:
        context = {"group": group, **owed_part(group, request.user), **group_pay_context(group)}
        return render(request, "scorekeeper/group.html#owed", context)
    context = {**group_page(group, site_url(request), request.user), "link_form": InviteLinkForm()}
    context |= group_pay_context(group)
    return render(request, "scorekeeper/group.html", context)


@require_POST
@login_required
def owed_pay(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    _pay_owed(request, group)
    return redirect(reverse("group_detail", args=[group.pk]) + "#owed")


@require_POST
@login_required
def owed_undo(request: AuthenticatedRequest, group_id: int, payment_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    payment = get_object_or_404(TabPayment, pk=payment_id, group=group)
    change_and_say(
        request,
        lambda: payment_services.undo_owed_payment(group=group, payment=payment, by=request.user),
        _("%(payer)s → %(payee)s %(amount)s is owed again.")
        % {
            "payer": payment.payer_name,
            "payee": payment.payee_name,
            "amount": money(payment.cents, payment.currency),
        },
    )
    return redirect(reverse("group_detail", args=[group.pk]) + "#owed")


@require_POST
@login_required
def night_owed_pay(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    _pay_owed(request, night.group, night)
    return redirect("night_settle", night_id=night.pk)


@require_POST
@login_required
def settle_everything(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    form = SettleEverythingForm(data=request.POST)
    form.is_valid()  # a lone checkbox: missing or odd means off
    on = bool(form.cleaned_data.get("on"))
    change_and_say(
        request,
        lambda: payment_services.set_settle_everything(group=night.group, on=on, by=request.user),
        _("Settlements now include what earlier nights still owe.")
        if on
        else _("Settlements now show each night on its own."),
    )
    return redirect("night_settle", night_id=night.pk)


@require_GET
@login_required
def group_table_view(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    """The table across the group's finished nights: all time, or ``?season=`` a year
    or one of the group's own seasons."""
    group = member_group(request, group_id)
    seasons = season_asked(request, group)
    context = {"group": group, "seasons": seasons, "tables": group_table(group, seasons.shown)}
    return render(request, "scorekeeper/group_table.html", context)


@require_GET
@login_required
def player_history_view(request: HtmxHttpRequest, group_id: int, user_id: int) -> HttpResponse:
    """A player's record across all their nights (or ``?season=``'s), and their nights
    newest first a page at a time (``?before=`` a night loads the older ones as the
    list is scrolled)."""
    group = member_group(request, group_id)
    # Anyone who was ever a member, including those who left: their nights stay.
    user = get_object_or_404(User.objects.filter(memberships__group=group), pk=user_id)
    seasons = season_asked(request, group)
    before = older_than(request)
    page = player_nights(group, user, before=before, season=seasons.shown)
    context = {"group": group, "player": user, "page": page, "seasons": seasons}
    if before is not None and request.htmx:
        return render(request, "scorekeeper/player_history.html#night-rows", context)
    record = player_record(group, user, seasons.shown)
    context |= {"history": record.history, "record": record}
    return render(request, "scorekeeper/player_history.html", context)


@require_GET
@login_required
def players_view(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    records = member_records(group)
    return render(request, "scorekeeper/players.html", {"group": group, "records": records})


def _download(chunks: Iterator[str], fmt: str, name: str) -> StreamingHttpResponse:
    # Streamed as it is made: a long night's export starts at once, never whole in memory.
    content_type = "text/csv" if fmt == "csv" else "application/json"
    response = StreamingHttpResponse(chunks, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response


def _render_export(
    group: Group, nights: QuerySet[Night], fmt: str, name: str
) -> StreamingHttpResponse:
    if fmt == "csv":
        return _download(exports.export_csv_chunks(group, nights), fmt, name)
    if fmt == "json":
        return _download(exports.export_json_chunks(group, nights), fmt, name)
    raise Http404("Exports come as csv or json.")


@require_GET
@login_required
def night_export(request: AuthenticatedRequest, night_id: int, fmt: str) -> HttpResponse:
    night = member_night(request, night_id)
    date = timezone.localtime(night.started_at).date().isoformat()
    nights = Night.objects.filter(pk=night.pk)
    return _render_export(night.group, nights, fmt, f"ofc-night-{date}-{night.pk}")


@require_GET
@login_required
def group_export(request: AuthenticatedRequest, group_id: int, fmt: str) -> HttpResponse:
    group = member_group(request, group_id)
    return _render_export(group, group.nights.all(), fmt, f"ofc-group-{group.pk}")
