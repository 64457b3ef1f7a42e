"""The live pages' streams: who may listen is checked here, by the same rule as the
page (a member of the night's group; anyone holding a big screen's shared link), in
one query; then the front holds the connection (scorekeeper/services/push.py). A stream
refused answers as its page would: a redirect to log in, the pages' 404, the link
taken back."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from scorekeeper.models import Night
from scorekeeper.reads.polls import group_now, night_now
from scorekeeper.services import push
from scorekeeper.views.access import AuthenticatedRequest
from scorekeeper.views.groups import link_gone


@require_GET
@login_required
def night_stream(request: AuthenticatedRequest, night_id: int) -> HttpResponse:
    """The night page's, its card pages', its settlement's and its big screen's."""
    if night_now(request.user, night_id=night_id) is None:
        raise Http404
    return push.hand_to_the_front(push.night_channel(night_id))


@require_GET
@login_required
def group_stream(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    if group_now(request.user, group_id=group_id) is None:
        raise Http404
    return push.hand_to_the_front(push.group_channel(group_id))


@require_GET
def shared_screen_stream(request: HttpRequest, token: str) -> HttpResponse:
    night_id = Night.objects.shared(token).values_list("pk", flat=True).first()
    if night_id is None:
        return link_gone(request)
    return push.hand_to_the_front(push.night_channel(night_id))
