"""Getting in without a password: the front page's code box, one-time sign-in codes
(made for yourself or for someone at your table), the phones signed in as you, and
the optional password."""

from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper.forms.accounts import CodeForm, LoginForm, PasswordForm
from scorekeeper.models import Group, RetiredCode, SignInCode
from scorekeeper.reads.groups import link_qr
from scorekeeper.services.errors import Refused
from scorekeeper.services.sign_ins import (
    WrongPassword,
    make_sign_in_code,
    phone_moved,
    read_notices,
    set_password,
    sign_in_code_refusal,
    sign_out_phone,
    use_sign_in_code,
)
from scorekeeper.site.phones import end_session, sign_out_other_phones
from scorekeeper.site.throttle import (
    code_refusal,
    count_wrong_code,
    count_wrong_password,
    login_refusal,
)
from scorekeeper.table.codes import grouped, read_code
from scorekeeper.views.access import AuthenticatedRequest, member_group, site_url
from scorekeeper.views.accounts import account_page, safe_next
from scorekeeper.views.groups import NO_SUCH_CODE


@require_POST
def enter_code(request: HttpRequest) -> HttpResponse:
    """The front page's one box: a group's join code goes to its join page, a sign-in
    code to its sign-in page; anything else is said in words, and counted."""
    form = CodeForm(request.POST)
    status = 400
    refusal = code_refusal(request)
    if refusal:
        form.add_error(None, refusal)
        status = 429
    elif form.is_valid():
        code = form.cleaned_data["code"]
        if Group.objects.filter(invite_token=code).exists():
            return redirect("join", token=code)
        if SignInCode.objects.filter(code=code).exists():
            return redirect("sign_in", code=code)
        if RetiredCode.objects.filter(code=code).exists():
            return redirect("join", token=code)  # which says it was taken back
        count_wrong_code(request)
        form.add_error("code", str(NO_SUCH_CODE))
        status = 404
    context = {"form": LoginForm(request), "code_form": form}
    return render(request, "scorekeeper/login.html", context, status=status)


def _sign_in_page(request: HttpRequest, context: dict, status: int = 200) -> HttpResponse:
    return render(request, "scorekeeper/sign_in.html", context, status=status)


@require_http_methods(["GET", "POST"])
def sign_in(request: HttpRequest, code: str) -> HttpResponse:
    """A one-time sign-in: the page asks before it signs this phone in (a link
    previewer that opens it must not use it up)."""
    refusal = code_refusal(request)
    if refusal:
        return _sign_in_page(request, {"problem": refusal}, status=429)
    stored = read_code(code)
    found = (
        SignInCode.objects.select_related("user", "made_by").filter(code=stored).first()
        if stored
        else None
    )
    if found is None:
        count_wrong_code(request)
    problem = sign_in_code_refusal(found)
    if problem:
        return _sign_in_page(request, {"problem": problem}, status=404 if found is None else 410)
    assert found is not None and stored is not None
    if stored != code:
        return redirect("sign_in", code=stored)
    if request.method == "POST":
        try:
            used = use_sign_in_code(code=stored)
        except Refused as error:
            return _sign_in_page(request, {"problem": str(error)}, status=410)
        request.sign_in_code = used  # type: ignore[attr-defined]  # for the phone's record
        login(request, used.user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request, _("This phone is signed in as %(name)s.") % {"name": used.user.name}
        )
        return redirect("home")
    return _sign_in_page(request, {"sign_in": found})


def _code_page(request: HttpRequest, made: SignInCode, back: str) -> HttpResponse:
    link = site_url(request).rstrip("/") + reverse("sign_in", args=[made.code])
    context = {
        "made": made,
        "for_self": made.user_id == made.made_by_id,
        "code": grouped(made.code),
        "link": link,
        "qr": link_qr(link, title=_("Sign-in link")),
        "back": back,
    }
    return render(request, "scorekeeper/sign_in_code.html", context)


@require_POST
@login_required
def own_sign_in_code(request: AuthenticatedRequest) -> HttpResponse:
    """A code that signs another phone in as you."""
    try:
        made = make_sign_in_code(
            user=request.user, made_by=request.user, session_key=request.session.session_key
        )
    except Refused as error:
        messages.error(request, str(error))
        return redirect(reverse("account") + "#phones")
    return _code_page(request, made, back=reverse("account"))


@require_POST
@login_required
def member_sign_in_code(request: AuthenticatedRequest, group_id: int, user_id: int) -> HttpResponse:
    """A code that signs a phone in as someone at your table (a new phone, cleared
    cookies): their history, and what they owe and are owed, stay theirs."""
    group = member_group(request, group_id)
    membership = group.current_memberships().filter(user_id=user_id).first()
    if membership is None:
        raise Http404("Not a member of this group.")
    try:
        made = make_sign_in_code(user=membership.user, made_by=request.user)
    except Refused as error:
        messages.error(request, str(error))
        return redirect("group_detail", group_id=group.pk)
    return _code_page(request, made, back=reverse("group_detail", args=[group.pk]) + "#members")


@require_POST
@login_required
def phone_sign_out(request: AuthenticatedRequest, phone_id: int) -> HttpResponse:
    try:
        phone = sign_out_phone(
            user=request.user, phone_id=phone_id, session_key=request.session.session_key
        )
    except Refused as error:
        messages.error(request, str(error))
        return redirect(reverse("account") + "#phones")
    if phone.session_key == request.session.session_key:
        logout(request)
        return redirect("login")
    end_session(phone.session_key)
    messages.success(request, _("That phone is signed out."))
    return redirect(reverse("account") + "#phones")


@require_POST
@login_required
def account_password(request: AuthenticatedRequest) -> HttpResponse:
    """Add a password (or change it, with the current one): to sign in on another
    phone without a code."""
    form = PasswordForm(request.POST)
    if not form.is_valid():
        return account_page(request, password_form=form, status=400)
    user = request.user
    # A wrong current password counts as a wrong login: this box is no way around
    # the login's limits.
    refusal = login_refusal(request, user.name) if user.has_usable_password() else ""
    if refusal:
        form.add_error("current", refusal)
        return account_page(request, password_form=form, status=429)
    try:
        had_one = set_password(
            user=user,
            password=form.cleaned_data["password"],
            current=form.cleaned_data["current"],
            session_key=request.session.session_key,
        )
    except Refused as error:
        if isinstance(error, WrongPassword):
            count_wrong_password(request, user.name)
        form.add_error(None, str(error))
        return account_page(request, password_form=form, status=400)
    before = request.session.session_key or ""
    update_session_auth_hash(request, user)  # this phone stays signed in, anew
    this_phone = request.session.session_key or ""
    phone_moved(before=before, after=this_phone)
    # Django signs the others out (their sessions carry the old password's hash).
    sign_out_other_phones(user, this_phone=this_phone)
    messages.success(
        request,
        _("Your password is changed. Your other phones were signed out.")
        if had_one
        else _("Your password is saved. Your other phones were signed out."),
    )
    return redirect(reverse("account") + "#password")


@require_POST
@login_required
def notice_seen(request: AuthenticatedRequest) -> HttpResponse:
    """The notices of sign-ins elsewhere are read, on one of the account's older
    phones (the phone a code signed in never clears them)."""
    read_notices(user=request.user, session_key=request.session.session_key)
    return redirect(safe_next(request, request.POST.get("next", "")))
