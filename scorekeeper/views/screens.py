"""The big screen: one night for a tablet or TV in the middle of the table, read-only
and live. Members open it from the night page; whoever is at the table may share a
read-only link to it (no login, this night only) and take the link back."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseStopPolling

from scorekeeper.models import Night
from scorekeeper.reads.groups import link_qr
from scorekeeper.reads.night_state import night_state
from scorekeeper.reads.polls import night_now, shared_night_now
from scorekeeper.reads.results import night_chart
from scorekeeper.services import push
from scorekeeper.services.nights import share_screen, stop_sharing_screen
from scorekeeper.site.front_pass import stream_url
from scorekeeper.views.access import AuthenticatedRequest, member_night, site_url
from scorekeeper.views.groups import link_gone
from scorekeeper.views.outcomes import change_and_say
from scorekeeper.views.polling import unchanged_poll


def _screen_context(night: Night, live_url: str) -> dict:
    """What the big screen shows, first and at every poll: the standings, who the round
    waits for, and the night's chart in the players' colours; and the night's screen
    stream, the same for a member's screen and a shared one: told the version alone,
    not the members' night page (views/pushed_parts.py)."""
    return {
        "night": night,
        "state": night_state(night),
        "chart": night_chart(night),
        "live_url": live_url,
        "stream_url": stream_url(push.screen_channel(night.pk)),
    }


def _screen(request: HttpRequest, night: Night, live_url: str, template: str) -> HttpResponse:
    return render(request, template, _screen_context(night, live_url))


@require_GET
@login_required
def night_screen(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    context = {
        **_screen_context(
            night,
            reverse("night_screen_live", args=[night.pk]),
        ),
        "group": night.group,
        "at_table": night.is_at_table(request.user),
    }
    if night.screen_token:
        link = site_url(request).rstrip("/") + reverse("shared_screen", args=[night.screen_token])
        context.update(share_url=link, qr=link_qr(link))
    return render(request, "scorekeeper/night_screen.html", context)


@require_GET
@login_required
@unchanged_poll(night_now)
def night_screen_live(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    night = member_night(request, night_id)
    live_url = reverse("night_screen_live", args=[night.pk])
    return _screen(request, night, live_url, "scorekeeper/night_screen.html#screen")


def _shared_night(token: str) -> Night | None:
    return Night.objects.shared(token).select_related("group").first()


@require_GET
def shared_screen(request: HttpRequest, token: str) -> HttpResponse:
    night = _shared_night(token)
    if night is None:
        return link_gone(request)
    context = {
        **_screen_context(
            night,
            reverse("shared_screen_live", args=[token]),
        ),
        "shared": True,
    }
    return render(request, "scorekeeper/night_screen.html", context)


@require_GET
@unchanged_poll(shared_night_now)
def shared_screen_live(request: HttpRequest, token: str) -> HttpResponse:
    night = _shared_night(token)
    if night is None:
        # The link was taken back: say so in place of the screen, and stop asking.
        return render(
            request,
            "scorekeeper/night_screen.html#screen-gone",
            status=HttpResponseStopPolling.status_code,
        )
    live_url = reverse("shared_screen_live", args=[token])
    return _screen(request, night, live_url, "scorekeeper/night_screen.html#screen")


@require_POST
@login_required
def screen_link(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    """Share the read-only link (``share=yes``), or take it back."""
    night = member_night(request, night_id)
    change = share_screen if request.POST.get("share") == "yes" else stop_sharing_screen
    change_and_say(request, lambda: change(night=night, by=request.user))
    return redirect(reverse("night_screen", args=[night.pk]) + "#share")
