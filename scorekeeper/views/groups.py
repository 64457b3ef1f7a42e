"""The home page, groups, and joining one through its invitation link."""

import re

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.forms.accounts import LoginForm, SignUpForm
from scorekeeper.forms.groups import GroupForm
from scorekeeper.models import Group
from scorekeeper.reads.groups import group_nights, group_page, member_sentence
from scorekeeper.services import groups as group_services
from scorekeeper.services.errors import Refused
from scorekeeper.views.access import AuthenticatedRequest, member_group

TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")


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
def group_detail(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    context = group_page(group, request.build_absolute_uri("/"))
    return render(request, "scorekeeper/group.html", context)


@require_GET
@login_required
def group_live(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    """The polled list of nights: answered without rendering while the group's nights
    are as the phone's ``version`` says (no night started, changed or ended since)."""
    group = member_group(request, group_id)
    if request.GET.get("version", "") == group.nights_version():
        return HttpResponse(status=204)
    context = {"group": group, **group_nights(group)}
    return render(request, "scorekeeper/group.html#live", context)


@require_POST
@login_required
def group_new_link(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    group = member_group(request, group_id)
    group_services.replace_invite_link(group=group)
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


def link_gone(request: HttpRequest) -> HttpResponse:
    return render(request, "scorekeeper/link_gone.html", status=404)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    # Only the alphabet tokens are made of reaches the database (a NUL byte would not).
    well_formed = TOKEN_SHAPE.fullmatch(token)
    group = Group.objects.filter(invite_token=token).first() if well_formed else None
    if group is None:
        return link_gone(request)
    user = request.user
    if user.is_authenticated and group.memberships.filter(user=user, left_at=None).exists():
        return redirect("group_detail", group_id=group.pk)

    signup_form = SignUpForm(prefix="signup")
    login_form = LoginForm(request, prefix="login")
    action = request.POST.get("action", "")
    if request.method == "POST":
        if user.is_authenticated and action == "join":
            group_services.join_group(group=group, user=user)
            return redirect("group_detail", group_id=group.pk)
        if action == "signup":
            signup_form = SignUpForm(request.POST, prefix="signup")
            if signup_form.is_valid():
                try:
                    user = group_services.sign_up_and_join(group=group, **signup_form.cleaned_data)
                except Refused as error:
                    signup_form.add_error("name", str(error))
                else:
                    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                    return redirect("group_detail", group_id=group.pk)
        elif action == "login":
            login_form = LoginForm(request, data=request.POST, prefix="login")
            if login_form.is_valid():
                login(request, login_form.get_user())
                group_services.join_group(group=group, user=request.user)
                return redirect("group_detail", group_id=group.pk)

    context = {
        "group": group,
        "member_sentence": member_sentence(group),
        "signup_form": signup_form,
        "login_form": login_form,
        "show_login": action == "login" or request.GET.get("login") == "1",
    }
    return render(request, "scorekeeper/join.html", context)
