"""The home page, groups, and joining one through its invitation link."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.forms.accounts import LoginForm, SignUpForm
from scorekeeper.forms.groups import (
    CurrencyForm,
    GroupForm,
    HouseRulesForm,
    InviteLinkForm,
    currency_name,
)
from scorekeeper.models import Group, RetiredCode
from scorekeeper.reads.groups import (
    group_nights,
    group_page,
    member_sentence,
    night_history_page,
)
from scorekeeper.reads.pay_details import group_pay_context
from scorekeeper.reads.polls import group_now
from scorekeeper.reads.rules import group_rules_summary
from scorekeeper.services import groups as group_services
from scorekeeper.services.errors import LookAlike, Refused
from scorekeeper.services.groups import CODE_TAKEN_BACK
from scorekeeper.site.throttle import code_refusal, count_wrong_code, signup_refusal
from scorekeeper.table.codes import read_code
from scorekeeper.views.access import (
    AuthenticatedRequest,
    HtmxHttpRequest,
    member_group,
    site_url,
)
from scorekeeper.views.paging import older_than, shown_through
from scorekeeper.views.polling import polled, unchanged_poll
from scorekeeper.views.shared_parts import shared_group_list


@require_GET
@login_required
def home(request: AuthenticatedRequest) -> HttpResponse:
    my_groups = Group.objects.for_member(request.user).order_by("name")
    if len(my_groups) == 1 and "stay" not in request.GET:
        return redirect("group_detail", group_id=my_groups[0].pk)
    return render(request, "scorekeeper/home.html", {"groups": my_groups, "form": GroupForm()})


@require_POST
@login_required
def group_create(request: AuthenticatedRequest) -> HttpResponse:
    form = GroupForm(request.POST)
    if form.is_valid():
        try:
            group = group_services.create_group(
                name=form.cleaned_data["name"], created_by=request.user
            )
        except Refused as error:
            form.add_error("name", str(error))
        else:
            return redirect("group_detail", group_id=group.pk)
    groups = Group.objects.for_member(request.user).order_by("name")
    return render(request, "scorekeeper/home.html", {"groups": groups, "form": form})


@require_GET
@login_required
def group_detail(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """The group page, its finished nights newest first a page at a time: the phone
    asks for the older ones (``?before=`` a night) as the list is scrolled."""
    group = member_group(request, group_id)
    before = older_than(request)
    if before is not None and request.htmx:
        context = {"group": group, "more": True, **night_history_page(group, before=before)}
        return render(request, "scorekeeper/group.html#night-list", context)
    context = {
        **group_page(group, site_url(request), request.user, before=before),
        "link_form": InviteLinkForm(),
        **group_pay_context(group),
    }
    return render(request, "scorekeeper/group.html", context)


@require_GET
@login_required
@unchanged_poll(group_now)
def group_live(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    """The polled list of nights, while a night started, changed or ended since the
    phone's ``version``."""
    group = member_group(request, group_id)
    now = polled(request)  # read before the rows, once (see group_nights)
    # A phone that scrolled down keeps what it shows (the poll says down to where).
    through = shown_through(request)
    if now is None:
        nights = group_nights(group, through=through)
        return render(request, "scorekeeper/group.html#live", {"group": group, **nights})
    # Every member's phone shows the same list: rendered by the first to ask.
    return HttpResponse(shared_group_list(group, now.version, through))


@require_POST
@login_required
def group_new_link(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    form = InviteLinkForm(request.POST)
    if form.is_valid():
        group_services.replace_invite_link(
            group=group,
            by=request.user,
            valid_for=form.lifetime(),
            uses=form.cleaned_data["uses"],
        )
    return redirect(reverse("group_detail", args=[group.pk]) + "#invite")


@require_POST
@login_required
def group_leave(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    try:
        group_services.leave_group(group=group, user=request.user)
    except Refused as error:
        messages.error(request, str(error))
        return redirect("group_detail", group_id=group.pk)
    messages.success(
        request,
        _("You left %(group)s. Your past results stay in its history.") % {"group": group.name},
    )
    return redirect(reverse("home") + "?stay=1")


@require_POST
@login_required
def group_remove_member(request: AuthenticatedRequest, group_id: int, user_id: int) -> HttpResponse:
    """The group's keeper takes a member out (services/groups.remove_member)."""
    group = member_group(request, group_id)
    membership = group.current_memberships().filter(user_id=user_id).first()
    if membership is None:
        raise Http404("Not a member of this group.")
    try:
        group_services.remove_member(group=group, member=membership.user, by=request.user)
    except Refused as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _(
                "%(name)s is removed from the group: their phones can no longer open it. "
                "If they know the join code, make a new code and link below."
            )
            % {"name": membership.user.name},
        )
    return redirect(reverse("group_detail", args=[group.pk]) + "#members")


@require_http_methods(["GET", "POST"])
@login_required
def group_house_rules(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    """The group's own royalties and scoring: the defaults every night starts with."""
    group = member_group(request, group_id)
    house = HouseRulesForm(request.POST or None, base=group.house_rules)
    if request.method == "POST":
        rules = None
        if "standard" in request.POST:
            rules = {k: v for k, v in group.house_rules.items() if k != "royalties"}
        elif house.is_valid():
            rules = house.table_rules()
        if rules is not None:
            try:
                group_services.set_house_rules(group=group, by=request.user, rules=rules)
            except Refused as error:
                house.add_error(None, str(error))
            else:
                messages.success(request, _("The house rules are saved for the next nights."))
                return redirect("group_house_rules", group_id=group.pk)
    context = {
        "group": group,
        "house": house,
        "summary": group_rules_summary(group),
        "currency_form": CurrencyForm(current=group.currency),
    }
    return render(request, "scorekeeper/house_rules.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def group_currency(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    """The currency the group's next nights play in, on the house rules page."""
    group = member_group(request, group_id)
    form = CurrencyForm(request.POST or None, current=group.currency)
    if request.method == "POST" and form.is_valid():
        try:
            group_services.set_currency(
                group=group, by=request.user, currency=form.cleaned_data["currency"]
            )
        except Refused as error:
            form.add_error("currency", str(error))
        else:
            messages.success(
                request,
                _("The next nights play in %(currency_name)s.")
                % {"currency_name": currency_name(group.currency, get_language() or "en")},
            )
            return redirect(reverse("group_house_rules", args=[group.pk]) + "#currency")
    if request.method == "GET":
        return redirect(reverse("group_house_rules", args=[group.pk]) + "#currency")
    context = {
        "group": group,
        "house": HouseRulesForm(base=group.house_rules),
        "summary": group_rules_summary(group),
        "currency_form": form,
    }
    return render(request, "scorekeeper/house_rules.html", context, status=400)


NO_SUCH_CODE = gettext_lazy("No group has this code: check it with the person who gave it to you.")


def link_gone(
    request: HttpRequest, reason: str = "", *, heading: str = "", status: int = 404
) -> HttpResponse:
    context = {"reason": reason, "heading": heading}
    return render(request, "scorekeeper/link_gone.html", context, status=status)


def _no_group(request: HttpRequest, code: str | None) -> HttpResponse:
    """A code (typed, or in a link) that lets nobody in: taken back, or never was."""
    retired = RetiredCode.objects.filter(code=code).exists() if code else False
    if retired:
        return link_gone(request, str(CODE_TAKEN_BACK), heading=_("This code no longer works"))
    count_wrong_code(request)
    return link_gone(request, str(NO_SUCH_CODE), heading=_("No group has this code"))


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """A group's join page, from its link or QR (``/join/K7QM3XPD/``) or its code typed
    at the front page: a name is all it asks."""
    refusal = code_refusal(request)
    if refusal:
        return link_gone(request, refusal, heading=_("Wait a moment"), status=429)
    code = read_code(token)
    group = Group.objects.filter(invite_token=code).first() if code else None
    if group is None:
        return _no_group(request, code)
    if code != token:  # typed in small letters, with a dash: the page's own address
        return redirect("join", token=code)
    user = request.user
    if user.is_authenticated and group.has_member(user):
        return redirect("group_detail", group_id=group.pk)
    gone = group.invite_refusal()
    if gone:
        return link_gone(request, gone, heading=_("This code no longer works"))

    signup_form = SignUpForm(prefix="signup")
    login_form = LoginForm(request, prefix="login")
    action = request.POST.get("action", "")
    refusal = join_refusal = ""
    if request.method == "POST":
        if user.is_authenticated and action == "join":
            try:
                group_services.join_by_link(group=group, token=code, user=user)
            except LookAlike as error:
                join_refusal = str(error)
            except Refused as error:
                return link_gone(request, str(error))
            else:
                return redirect("group_detail", group_id=group.pk)
        if action == "signup":
            signup_form = SignUpForm(request.POST, prefix="signup")
            # Counted once valid: empty posts never use up the link.
            refusal = signup_refusal(request, link=code) if signup_form.is_valid() else ""
            if refusal:
                signup_form.add_error(None, refusal)
            elif signup_form.is_valid():
                try:
                    user = group_services.sign_up_and_join(
                        group=group, token=code, **signup_form.cleaned_data
                    )
                except Refused as error:
                    signup_form.add_error("name", str(error))
                else:
                    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                    return redirect("group_detail", group_id=group.pk)
        elif action == "login":
            login_form = LoginForm(request, data=request.POST, prefix="login")
            if login_form.is_valid():
                member = login_form.get_user()
                try:
                    group_services.join_by_link(group=group, token=code, user=member)
                except LookAlike as error:
                    login_form.add_error(None, str(error))
                except Refused as error:
                    return link_gone(request, str(error))
                else:
                    login(request, member)
                    return redirect("group_detail", group_id=group.pk)

    context = {
        "group": group,
        "member_sentence": member_sentence(group),
        "signup_form": signup_form,
        "login_form": login_form,
        "show_login": action == "login" or request.GET.get("login") == "1",
        "join_refusal": join_refusal,
    }
    throttled = refusal or login_form.throttled
    return render(request, "scorekeeper/join.html", context, status=429 if throttled else 200)
