"""Signing a phone in without a password: one-time sign-in codes, the phones an
account is signed in on, and the optional password.

A code is made by the person themself (from a phone already signed in), by someone
at their table (a member of one of their groups), or by the server's owner at the
command line; it works once, for SIGN_IN_CODE_LIFETIME. A phone signed in by someone
else's code holds the account's pay details as they are for PAY_DETAILS_HOLD, so
nobody can redirect a friend's money by signing in as them.
"""

from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.dates import moment
from scorekeeper.models import Membership, Phone, SignInCode, User
from scorekeeper.models.sign_ins import PAY_DETAILS_HOLD, SIGN_IN_CODE_LIFETIME
from scorekeeper.services.errors import Refused
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


@transaction.atomic
def make_sign_in_code(*, user: User, made_by: User | None) -> SignInCode:
    """A code that signs one phone in as ``user``. ``made_by`` is the person asking:
    ``user`` themself, or someone in one of their groups; None is the server's owner
    at the command line."""
    if made_by is not None and made_by != user and not share_a_group(made_by, user):
        raise Refused(_("You can sign in only yourself or someone in one of your groups."))
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
    found.used_at = now
    found.save(update_fields=["used_at"])
    if found.made_by_someone_else:
        until = now + PAY_DETAILS_HOLD
        User.objects.filter(pk=found.user_id).update(pay_details_held_until=until)
        found.user.pay_details_held_until = until
    return found


@transaction.atomic
def record_phone(
    *, user: User, session_key: str, label: str, sign_in: SignInCode | None = None
) -> Phone:
    """The phone with session ``session_key`` is signed in as ``user`` (by
    ``sign_in``'s code, or None: by the person's own password or sign-up)."""
    by_someone_else = sign_in is not None and sign_in.made_by_someone_else
    phone, _created = Phone.objects.update_or_create(
        session_key=session_key,
        defaults={
            "user": user,
            "label": label[:60],
            "signed_in_at": timezone.now(),
            "seen_at": timezone.now(),
            "signed_in_by": sign_in.made_by if by_someone_else and sign_in else None,
            "by_the_owner": bool(by_someone_else and sign_in and sign_in.made_by is None),
        },
    )
    return phone


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


@transaction.atomic
def sign_out_phone(*, user: User, phone_id: int) -> Phone:
    """Take ``phone_id`` off ``user``'s phones (the caller ends its session); refused
    when it is not one of theirs."""
    phone = Phone.objects.select_for_update().filter(pk=phone_id, user=user).first()
    if phone is None:
        raise Refused(_("That phone is not signed in as you any more."))
    phone.delete()
    return phone


def set_password(*, user: User, password: str) -> None:
    """Give ``user`` a password (or a new one), hashed before the write."""
    hashed = hashed_password(password)
    with transaction.atomic():
        User.objects.filter(pk=user.pk).update(password=hashed)
    user.password = hashed
