"""Signing a phone in without a password: one-time sign-in codes, the phones an
account is signed in on, and the optional password.

A code is made by the person themself (from a phone already signed in), by someone
who sat at the same night with them within the last day (SAT_TOGETHER_WITHIN: holding
the group's join code is not enough), or by the server's owner at the command line; it
works once, for SIGN_IN_CODE_LIFETIME. A sign-in by someone else's code holds the
account's pay details, and the password of an account without one, as they are for
PAY_DETAILS_HOLD, and the phone it signed in cannot sign the others out for
SIGN_OUT_HOLD; the account's older phones are told who made the code
(:class:`~scorekeeper.models.SignInNotice`) until one of them reads it. Every sign-in by
code, password saved and phone signed out is on the record of the person's groups.
"""

from datetime import datetime

from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.dates import moment
from scorekeeper.models import Change, Membership, Phone, SignInCode, SignInNotice, User
from scorekeeper.models.sign_ins import PAY_DETAILS_HOLD, SIGN_IN_CODE_LIFETIME, table_mates
from scorekeeper.services.errors import Refused
from scorekeeper.services.locks import member_change, record
from scorekeeper.table.codes import new_code


def hashed_password(password: str | None) -> str:
    """``password`` as stored; none (blank or None) is an unusable one, made without
    hashing. Called before a transaction opens: hashing takes half a second of a core
    on purpose, and must never hold the database's write lock while it does."""
    return make_password(password or None)


def share_a_group(one: User, other: User) -> bool:
    """Whether ``one`` and ``other`` are both members of some group now."""
    groups = Membership.objects.current().filter(user=one).values("group")
    return Membership.objects.current().filter(user=other, group__in=groups).exists()


def not_at_the_table(name: str) -> str:
    """Why a member cannot make a sign-in code for ``name``, and how ``name`` gets in."""
    return _(
        "You can sign %(name)s in only when you both sat at the same night within the last "
        "day, in a group you have been in for more than a day. %(name)s gets back in from "
        "a phone still signed in as them (their account page, “Sign in another phone”), "
        "with their password, or with a code from the server's owner."
    ) % {"name": name}


@transaction.atomic
def make_sign_in_code(
    *, user: User, made_by: User | None, session_key: str | None = None
) -> SignInCode:
    """A code that signs one phone in as ``user``. ``made_by`` is the person asking:
    ``user`` themself (from their phone with ``session_key``), or someone who sat at the
    same night with them within the last day
    (:func:`~scorekeeper.models.sign_ins.table_mates`); None is the server's owner at
    the command line. A phone someone else's code signed in makes no code for its own
    account during its :func:`sign_out_hold`: the phone that code would sign in would
    be free of the hold."""
    if made_by is not None and made_by != user:
        if not share_a_group(made_by, user):
            raise Refused(_("You can sign in only yourself or someone in one of your groups."))
        if user.pk not in table_mates(made_by):
            raise Refused(not_at_the_table(user.name))
    if made_by is not None and made_by == user:
        until = phone_hold_until(user=user, session_key=session_key)
        if until is not None:
            raise Refused(
                _(
                    "This phone was signed in with a code someone else made, so it can sign "
                    "in another phone only from %(when)s."
                )
                % {"when": moment(until)}
            )
    if not user.is_active:
        raise Refused(_("This account is switched off."))
    now = timezone.now()
    for _attempt in range(5):  # 40 bits: a clash is all but impossible; still, never a 500
        try:
            with transaction.atomic():
                return SignInCode.objects.create(
                    user=user,
                    code=new_code(),
                    made_by=made_by,
                    made_at=now,
                    expires_at=now + SIGN_IN_CODE_LIFETIME,
                )
        except IntegrityError:
            continue
    raise Refused(_("The server is busy for a moment. Please try again."))


def sign_in_code_refusal(sign_in: SignInCode | None) -> str:
    """Why ``sign_in`` cannot sign a phone in, in words; "" when it can."""
    if sign_in is None:
        return _(
            "No sign-in has this code: check it with the person who gave it to you, or ask "
            "for a new one."
        )
    if sign_in.used_at is not None:
        return _("This sign-in code was used already: each works once. Ask for a new one.")
    if sign_in.is_expired():
        return _(
            "This sign-in code stopped working at %(when)s: each works for 10 minutes. "
            "Ask for a new one."
        ) % {"when": moment(sign_in.expires_at)}
    if not sign_in.user.is_active:
        return _("This account is switched off.")
    return ""


@transaction.atomic
def use_sign_in_code(*, code: str) -> SignInCode:
    """Use the sign-in ``code`` (as stored, see table/codes.read_code) once; refused in
    words when it does not exist, was used, or stopped. Two phones on one code: the
    row is locked, so only one gets in."""
    sign_in = SignInCode.objects.select_for_update().select_related("user").filter(code=code)
    found = sign_in.first()
    refusal = sign_in_code_refusal(found)
    if refusal:
        raise Refused(refusal)
    assert found is not None
    now = timezone.now()
    with member_change(found.user, by=found.made_by):
        found.used_at = now
        found.save(update_fields=["used_at"])
        if found.made_by_someone_else:
            until = now + PAY_DETAILS_HOLD
            User.objects.filter(pk=found.user_id).update(pay_details_held_until=until)
            found.user.pay_details_held_until = until
        how = "own" if not found.made_by_someone_else else "owner" if found.made_by is None else ""
        record(Change.Kind.SIGNED_IN_BY_CODE, name=found.user.name, how=how)
    return found


@transaction.atomic
def record_phone(
    *, user: User, session_key: str, label: str, sign_in: SignInCode | None = None
) -> Phone:
    """The phone with session ``session_key`` is signed in as ``user`` (by
    ``sign_in``'s code, or None: by the person's own password or sign-up). A code's
    sign-in leaves a notice for the account's older phones, naming who made it."""
    by_someone_else = sign_in is not None and sign_in.made_by_someone_else
    made_by = sign_in.made_by if by_someone_else and sign_in else None
    by_the_owner = bool(by_someone_else and sign_in and sign_in.made_by is None)
    now = timezone.now()
    phone, _created = Phone.objects.update_or_create(
        session_key=session_key,
        defaults={
            "user": user,
            "label": label[:60],
            "signed_in_at": now,
            "seen_at": now,
            "signed_in_by": made_by,
            "by_the_owner": by_the_owner,
        },
    )
    if sign_in is not None:
        # At the new phone's own moment: it, and any phone signed in after it, is not
        # older than the notice, so never shows it nor clears it.
        SignInNotice.objects.create(user=user, made_by=made_by, by_the_owner=by_the_owner, at=now)
        User.objects.filter(pk=user.pk).update(has_sign_in_notice=True)
    return phone


@transaction.atomic
def read_notices(*, user: User, session_key: str | None) -> int:
    """The notices this phone shows are read (on one of the account's older phones):
    gone from all of them. How many."""
    read = SignInNotice.objects.unread_on(user, session_key).update(read_at=timezone.now())
    if not SignInNotice.objects.filter(user=user, read_at__isnull=True).exists():
        User.objects.filter(pk=user.pk).update(has_sign_in_notice=False)
    return read


def phone_seen(*, user: User, session_key: str, label: str) -> None:
    """The phone with ``session_key`` is in use (at most once a day, from the session's
    renewal): listed with when it was last used, and listed at all when it was signed
    in before phones were kept."""
    Phone.objects.update_or_create(
        session_key=session_key,
        defaults={"user": user, "seen_at": timezone.now()},
        create_defaults={"user": user, "label": label[:60]},
    )


def phone_moved(*, before: str, after: str) -> None:
    """A phone's session has a new key (Django makes one when the password
    changes): its row goes with it."""
    if before and after and before != after:
        Phone.objects.filter(session_key=before).update(session_key=after)


def forget_phone(*, session_key: str) -> None:
    """The phone with ``session_key`` signed out."""
    Phone.objects.filter(session_key=session_key).delete()


def phone_hold_until(*, user: User, session_key: str | None) -> datetime | None:
    """Until when ``user``'s phone with ``session_key`` may not sign the account's other
    phones out (nor sign in another): SIGN_OUT_HOLD after someone else's code signed it
    in. None when it may."""
    phone = Phone.objects.filter(user=user, session_key=session_key or "").first()
    return phone.sign_out_held_until() if phone is not None else None


def sign_out_hold(*, user: User, session_key: str | None) -> str:
    """Why the phone with ``session_key`` may not sign ``user``'s other phones out now,
    in words; "" when it may. A phone someone else's code signed in waits
    SIGN_OUT_HOLD: the person's own phone stays in and keeps telling them."""
    until = phone_hold_until(user=user, session_key=session_key)
    if until is None:
        return ""
    return _(
        "This phone was signed in with a code someone else made, so it can sign your "
        "other phones out only from %(when)s. Your own phones stay signed in until then."
    ) % {"when": moment(until)}


@transaction.atomic
def sign_out_phone(*, user: User, phone_id: int, session_key: str | None = None) -> Phone:
    """Take ``phone_id`` off ``user``'s phones (the caller ends its session), from the
    phone with ``session_key``; refused when it is not one of theirs, or when it is
    another phone and this one may not sign others out yet (:func:`sign_out_hold`)."""
    phone = Phone.objects.select_for_update().filter(pk=phone_id, user=user).first()
    if phone is None:
        raise Refused(_("That phone is not signed in as you any more."))
    if phone.session_key != session_key:
        held = sign_out_hold(user=user, session_key=session_key)
        if held:
            raise Refused(held)
    with member_change(user):
        phone.delete()
        record(Change.Kind.PHONE_SIGNED_OUT, name=user.name)
    return phone


def password_hold(user: User) -> str:
    """Why ``user``, who has no password, cannot add one now, in words; "" when they
    can: for PAY_DETAILS_HOLD after a sign-in by someone else's code, as their pay
    details, so nobody signed in as them can lock them out."""
    held_until = user.held_until()
    if held_until is None:
        return ""
    return _(
        "You can add a password from %(when)s. A phone was signed in as you with a code "
        "someone else made, and this wait keeps anyone from locking you out by signing in "
        "as you."
    ) % {"when": moment(held_until)}


class WrongPassword(Refused):
    """The current password given to change it was not the account's."""


def set_password(
    *, user: User, password: str, current: str = "", session_key: str | None = None
) -> bool:
    """Give ``user`` a password (or a new one), from the phone with ``session_key``,
    hashed before the write; whether they had one before. Changing one needs the
    ``current`` one; adding the first is held after someone else's sign-in
    (:func:`password_hold`); and since saving signs the other phones out, a phone in
    its :func:`sign_out_hold` cannot. Refused in words, changing nothing."""
    had_one = user.has_usable_password()
    if had_one and not user.check_password(current):
        raise WrongPassword(_("That is not your current password. Type it as you log in with it."))
    held = "" if had_one else password_hold(user)
    held = held or sign_out_hold(user=user, session_key=session_key)
    if held:
        raise Refused(held)
    hashed = hashed_password(password)
    with transaction.atomic(), member_change(user):
        User.objects.filter(pk=user.pk).update(password=hashed)
        record(Change.Kind.PASSWORD_SET, name=user.name, first=not had_one)
    user.password = hashed
    return had_one
