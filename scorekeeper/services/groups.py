"""Writes about people and groups: sign-up, groups, invitations, leaving."""

from collections.abc import Iterable
from datetime import timedelta

from babel.numbers import is_currency
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.models import Change, Group, Membership, RetiredCode, User, new_invite_token
from scorekeeper.models.titles import GROUP_NAME
from scorekeeper.ofc import HOUSE_RULES, TABLE_RULES, RuleError, RuleKind
from scorekeeper.services.errors import LookAlike, Refused, checked_name, checked_title
from scorekeeper.services.locks import group_change, record
from scorekeeper.services.sign_ins import hashed_password
from scorekeeper.table.names import (
    MAX_NAME_LENGTH,
    look_alike_key,
    name_key,
    suggest_alternative,
)


class NameTaken(Refused):
    def __init__(self, name: str, suggestion: str):
        super().__init__(
            _('"%(name)s" is already taken. Pick another name, such as "%(suggestion)s".')
            % {"name": name, "suggestion": suggestion}
        )
        self.suggestion = suggestion


def name_taken_error(name: str) -> NameTaken:
    # Say it as the site knows it: "anna" typed, "Anna" taken, "Anna B" suggested.
    key = name_key(name)
    taken = User.objects.filter(name_key=key).values_list("name", flat=True).first() or name
    # Every key the suggestions ("Anna B") could clash with starts with the taken one's.
    similar = User.objects.filter(name_key__startswith=name_key(taken[: MAX_NAME_LENGTH - 2]))
    keys = set(similar.values_list("name_key", flat=True))
    return NameTaken(taken, suggest_alternative(taken, keys))


def sign_up(*, name: str, password: str = "") -> User:
    """Create an account; raises Refused (NameTaken for a name in use). Without a
    password the account signs in by its phone's session and by sign-in codes
    (services/sign_ins.py). The password is hashed before any lock is taken."""
    hashed = hashed_password(password)
    with transaction.atomic():
        return _new_account(name, hashed)


def _new_account(name: str, hashed: str) -> User:
    name = checked_name(name)
    if User.objects.filter(name_key=name_key(name)).exists():
        raise name_taken_error(name)
    try:
        # A savepoint, so a name taken in the same instant by another phone leaves
        # this transaction usable for the error.
        with transaction.atomic():
            return User.objects.create(name=name, password=hashed)
    except IntegrityError:
        raise name_taken_error(name) from None


@transaction.atomic
def create_group(*, name: str, created_by: User | None) -> Group:
    name = checked_title(GROUP_NAME, name)
    group = Group.objects.create(name=name, created_by=created_by)
    with group_change(group, by=created_by):
        record(Change.Kind.GROUP_CREATED, name=group.name)
        if created_by is not None:
            Membership.objects.create(group=group, user=created_by)
    return group


@transaction.atomic
def join_group(*, group: Group, user: User) -> Membership:
    """Add `user` to `group`; a former member comes back. Joining twice is harmless."""
    with group_change(group, by=user):
        membership, created = Membership.objects.select_for_update().get_or_create(
            group=group, user=user
        )
        if not created and membership.removed:
            raise Refused(
                _("%(group)s removed you. Ask the person who started it if you should be back.")
                % {"group": group.name}
            )
        if not created and not membership.is_current:
            membership.left_at = None
            membership.joined_at = timezone.now()
            membership.save(update_fields=["left_at", "joined_at"])
        record(Change.Kind.JOINED, name=user.name)  # kept only if it wrote: a join again is not
    return membership


@transaction.atomic
def leave_group(*, group: Group, user: User) -> None:
    """Leave; refused while seated at a night still running, whose page would vanish."""
    # The group's row locked: nobody is seated in the instant they leave (seats.add_seat).
    with group_change(group, by=user):
        seated = group.nights.filter(
            ended_at__isnull=True, seats__user=user, seats__last_round__isnull=True
        )
        if seated.exists():
            raise Refused(
                _("You are seated at tonight's table. Leave the table (or end the night) first.")
            )
        group.memberships.current().filter(user=user).update(left_at=timezone.now())
        record(Change.Kind.LEFT, name=user.name)


@transaction.atomic
def remove_member(*, group: Group, member: User, by: User) -> None:
    """``by`` takes ``member`` out of ``group``: only its keeper (:meth:`Group.keeper`:
    who started it, or whoever has been in it longest), never themself (they leave
    instead), nor anyone seated at a night still running (who leaves the table first).
    Their phones can no longer open the group's pages or streams, which look members
    up as they are now; their results stay in its history as a former member's."""
    with group_change(group, by=by):
        if group.keeper() != by:
            raise Refused(
                _(
                    "Only the person who started the group (or, once they left, whoever has "
                    "been in it longest) can remove a member."
                )
            )
        if member == by:
            raise Refused(_("You cannot remove yourself: leave the group instead."))
        if not group.has_member(member):
            raise Refused(_("%(name)s is not in this group.") % {"name": member.name})
        seated = group.nights.filter(
            ended_at__isnull=True, seats__user=member, seats__last_round__isnull=True
        )
        if seated.exists():
            raise Refused(
                _(
                    "%(name)s is seated at tonight's table. Mark that they left the table "
                    "(or end the night) first."
                )
                % {"name": member.name}
            )
        group.memberships.current().filter(user=member).update(left_at=timezone.now(), removed=True)
        record(Change.Kind.MEMBER_REMOVED, name=member.name)


@transaction.atomic
def replace_invite_link(
    *,
    group: Group,
    by: User | None = None,
    valid_for: timedelta | None = None,
    uses: int | None = None,
) -> Group:
    """A new link, made by ``by`` (None: the server's owner); the old one stops working
    at once. The new one stops by itself after ``valid_for``, or once ``uses`` people
    joined through it (None: never)."""
    if uses is not None and uses < 1:
        raise Refused(_("A link must let at least one person join."))
    with group_change(group, by=by):
        RetiredCode.objects.get_or_create(code=group.invite_token, defaults={"group": group})
        group.invite_token = new_invite_token()
        group.invite_expires_at = timezone.now() + valid_for if valid_for else None
        group.invite_uses_left = uses
        group.save(update_fields=["invite_token", "invite_expires_at", "invite_uses_left"])
        # Never the code itself: the record is read by every member, former ones too.
        record(Change.Kind.INVITE_LINK_REPLACED)
    return group


def _use_invite_link(group: Group, token: str) -> None:
    """Count one join through the invitation link ``token``; refused in words once it
    expired, was used up or was replaced. The group's row is locked, so two phones on
    a link's last use cannot both get in."""
    locked = Group.objects.select_for_update().get(pk=group.pk)
    if locked.invite_token != token:
        raise Refused(str(CODE_TAKEN_BACK))
    refusal = locked.invite_refusal()
    if refusal:
        raise Refused(refusal)
    if locked.invite_uses_left is not None:
        Group.objects.filter(pk=group.pk).update(invite_uses_left=F("invite_uses_left") - 1)


def check_names_apart(group: Group, names: Iterable[str], *, seated: Iterable[str] = ()) -> None:
    """Refuse any of ``names`` that the others at the table could not tell from a
    member's name or from one of ``seated``: a Cyrillic "А" for a Latin "A", a
    full-width "Ａｎｎａ" beside "Anna". The same name is not a look-alike (the name
    checks of accounts and seats say that one)."""
    others = [*group.current_memberships().values_list("user__name", flat=True), *seated]
    for name in names:
        key = look_alike_key(name)
        for other in others:
            if name_key(other) != name_key(name) and look_alike_key(other) == key:
                raise Refused(
                    _(
                        '"%(name)s" looks just like "%(other)s". '
                        "Pick a name the others can tell apart."
                    )
                    % {"name": name, "other": other}
                )


@transaction.atomic
def join_by_link(*, group: Group, token: str, user: User) -> Membership:
    """Someone with an account joins through the invitation link ``token``; refused,
    and the link's use not counted, when the others could not tell their name from a
    member's (as a new name would be)."""
    _use_invite_link(group, token)
    try:
        check_names_apart(group, [user.name])
    except Refused:
        raise LookAlike(
            _(
                'Your name "%(name)s" looks just like the name of someone in this group, '
                "so the others could not tell you apart. Log out, then sign up through "
                "the link with another name."
            )
            % {"name": user.name}
        ) from None
    return join_group(group=group, user=user)


def sign_up_and_join(*, group: Group, name: str, password: str = "", token: str = "") -> User:
    """A newcomer from the group's code or link: the account and the membership, or
    neither. A name a member of the group already has is refused with the way back in
    for that member (a sign-in code), never as a new person."""
    hashed = hashed_password(password)  # before the transaction: see hashed_password
    with transaction.atomic():
        if token:
            _use_invite_link(group, token)
        members = group.current_memberships().filter(user__name_key=name_key(name))
        member = members.values_list("user__name", flat=True).first()
        if member:
            raise Refused(
                _(
                    "%(name)s is already in this group. If that is you on a new phone, ask "
                    "someone at the table to sign you in: on their phone, the group page "
                    "has “Sign %(name)s in on a phone”."
                )
                % {"name": member}
            )
        user = _new_account(name, hashed)
        check_names_apart(group, [user.name])  # refused: the account is not kept either
        join_group(group=group, user=user)
        return user


def checked_table_rules(rules: dict) -> dict:
    """The table's own royalties and scoring as they may be kept, or Refused."""
    unknown = set(rules) - set(TABLE_RULES)
    if unknown:
        raise Refused(_("%(name)s is not a house rule.") % {"name": sorted(unknown)[0]})
    for name, read in TABLE_RULES.items():
        if name in rules:
            try:
                read(rules[name])
            except RuleError as error:
                raise Refused(
                    _("These house rules cannot be played: %(problem)s.") % {"problem": error}
                ) from None
    return rules


@transaction.atomic
def set_house_rules(*, group: Group, by: User, rules: dict) -> Group:
    """The group's own royalties and scoring, the defaults of its next nights
    (``{"royalties": changes, "scoring": {...}}``; ``{}`` is the standard table and 1-6).
    A night already started keeps the rules it started with."""
    with group_change(group, by=by):
        if not group.has_member(by):
            raise Refused(_("Only the group's members can change its house rules."))
        before, group.house_rules = group.house_rules, checked_table_rules(rules)
        group.save(update_fields=["house_rules"])
        record(Change.Kind.HOUSE_RULES, before=before, after=group.house_rules)
    return group


@transaction.atomic
def set_currency(*, group: Group, by: User, currency: str) -> Group:
    """The currency the group's next nights play in (an ISO 4217 code CLDR knows);
    a night already started keeps its own."""
    with group_change(group, by=by):
        if not group.has_member(by):
            raise Refused(_("Only the group's members can change its currency."))
        code = currency.strip().upper()
        if not is_currency(code):
            raise Refused(
                _("“%(value)s” is not a currency the app knows. Pick one from the list.")
                % {"value": currency.strip()[:12]}
            )
        before, group.currency = group.currency, code
        group.save(update_fields=["currency"])
        record(Change.Kind.CURRENCY, before=before, after=code)
    return group


CODE_TAKEN_BACK = gettext_lazy(
    "The group took this code and its invitation link back and made new ones. Ask a "
    "member for the new code."
)


# Zero-width spaces, text-direction overrides, terminal escapes: a name that hides
# what it is, or prints differently in a log than on a phone.
_KIND_REFUSALS = {
    RuleKind.SWITCH: gettext_lazy("%(name)s is on or off."),
    RuleKind.LIMIT: gettext_lazy("Stays in a row must be a whole number, or none."),
}


def checked_house_rules(rules: dict) -> None:
    """A night's house rules as a night start and a restored file give them: the
    table's own (:func:`checked_table_rules`) and the switches and limits, refused in
    words when one is not a house rule or not of its kind."""
    checked_table_rules({name: value for name, value in rules.items() if name in TABLE_RULES})
    for name, value in rules.items():
        if name in TABLE_RULES:
            continue
        kind = HOUSE_RULES.get(name)
        if kind is None:
            raise Refused(_("%(name)s is not a house rule.") % {"name": name})
        if not kind.accepts(value):
            raise Refused(_KIND_REFUSALS[kind] % {"name": name})
