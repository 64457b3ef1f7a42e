"""Logging in and out, the optional public sign-up, and the language switcher."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper.forms.accounts import CodeForm, LanguageForm, LoginForm, PasswordForm, SignUpForm
from scorekeeper.forms.pay_details import PayDetailsForm
from scorekeeper.reads.pay_details import own_pay_details
from scorekeeper.services.accounts import remember_language
from scorekeeper.services.errors import Refused
from scorekeeper.services.groups import sign_up
from scorekeeper.services.pay_details import pay_details_hold, save_pay_details
from scorekeeper.services.sign_ins import password_hold, sign_out_hold
from scorekeeper.site.middleware import set_language_cookie
from scorekeeper.site.phones import phones_signed_in
from scorekeeper.site.throttle import signup_refusal
from scorekeeper.views.access import AuthenticatedRequest


class LoginView(auth_views.LoginView):
    """The front door for a phone not signed in: the box for a code (a group's, or a
    one-time sign-in), and below it the password, for those who added one."""

    template_name = "scorekeeper/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "code_form": CodeForm()}

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.throttled:
            response.status_code = 429
        return response


class LogoutView(auth_views.LogoutView):
    """Django's logout, which also tells the browser to drop what it keeps of the
    site's pages: the HTTP cache and, where the browser counts them in, the service
    worker's caches (queue.js has deleted the kept night page itself before sending
    the logout, once the account's queued saves were sent or shown as not sent).
    Browsers honour Clear-Site-Data only from a secure origin (HTTPS, or localhost):
    on the table's plain HTTP it is ignored, and there is no service worker either.
    "cache" only: "storage" would also drop the saves kept on the phone."""

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache"'
        return response


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if not settings.OFCBOARD_OPEN_SIGNUP:
        raise Http404("Sign-up is by invitation link only.")
    form = SignUpForm(request.POST or None)
    refusal = ""
    if request.method == "POST" and form.is_valid():
        # Counted once valid: an empty post costs nobody a sign-up.
        refusal = signup_refusal(request)
        if refusal:
            form.add_error(None, refusal)
        else:
            try:
                user = sign_up(**form.cleaned_data)
            except Refused as error:
                form.add_error("name", str(error))
            else:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                return redirect("home")
    status = 429 if refusal else 200
    return render(request, "scorekeeper/signup.html", {"form": form}, status=status)


def safe_next(request: HttpRequest, target: str) -> str:
    """``target`` when it is a path on this site, else the home page: never another
    site, and never a word, which redirect() would look up as the name of a URL (a 500
    when there is none)."""
    if not target.startswith("/") or not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return "/"
    return target


@require_POST
def language(request: HttpRequest) -> HttpResponse:
    """Switch the language: on the account when logged in, in a cookie in any case (so
    the login page after logging out still speaks it)."""
    form = LanguageForm(request.POST)
    # The page the switcher was on.
    response = HttpResponseRedirect(safe_next(request, request.POST.get("next", "")))
    if not form.is_valid():
        return response
    code = form.cleaned_data["language"]
    if request.user.is_authenticated:
        remember_language(user=request.user, language=code)
    set_language_cookie(response, code)
    return response


@require_http_methods(["GET", "POST"])
@login_required
def account(request: AuthenticatedRequest) -> HttpResponse:
    """Your own account: how you like to be paid (each field optional), the phones
    signed in as you, and a password if you want one."""
    details = own_pay_details(request.user)
    form = PayDetailsForm(request.POST or None, instance=details)
    if request.method == "POST" and form.is_valid():
        try:
            save_pay_details(user=request.user, **form.cleaned_data)
        except Refused as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Saved: the others in your groups see how to pay you."))
            return redirect("account")
    return account_page(request, pay_form=form)


def account_page(
    request: AuthenticatedRequest,
    *,
    pay_form: PayDetailsForm | None = None,
    password_form: PasswordForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The account page, with the forms as posted (their errors) or empty."""
    user = request.user
    context = {
        "form": pay_form or PayDetailsForm(instance=own_pay_details(user)),
        "pay_hold": pay_details_hold(user),
        "phones": phones_signed_in(user),
        "this_phone": request.session.session_key,
        "password_form": password_form or PasswordForm(),
        "has_password": user.has_usable_password(),
        "password_hold": "" if user.has_usable_password() else password_hold(user),
        "sign_out_hold": sign_out_hold(user=user, session_key=request.session.session_key),
    }
    return render(request, "scorekeeper/account.html", context, status=status)
