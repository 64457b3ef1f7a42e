"""Writes about people and groups: sign-up, groups, invitations, leaving."""

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.models import Group, Membership, User, new_invite_token
from scorekeeper.names import suggest_alternative
from scorekeeper.ofc import TABLE_RULES, RuleError
from scorekeeper.services.errors import Refused, checked_name
from scorekeeper.services.locks import lock_group


class NameTaken(Refused):
    def __init__(self, name: str, suggestion: str):
        super().__init__(f'"{name}" is already taken. Pick another name, such as "{suggestion}".')
        self.suggestion = suggestion


def name_taken_error(name: str) -> NameTaken:
    # Say it as the site knows it: "anna" typed, "Anna" taken, "Anna B" suggested.
    taken = User.objects.filter(name__iexact=name).values_list("name", flat=True).first() or name
    similar = User.objects.filter(name__istartswith=name[:28]).values_list("name", flat=True)
    return NameTaken(taken, suggest_alternative(taken, {n.lower() for n in similar}))


@transaction.atomic
def sign_up(*, name: str, password: str) -> User:
    """Create an account; raises Refused (NameTaken for a name in use)."""
    name = checked_name(name)
    if User.objects.filter(name__iexact=name).exists():
        raise name_taken_error(name)
    try:
        # A savepoint, so a name taken in the same instant by another phone leaves
        # this transaction usable for the error.
        with transaction.atomic():
            return User.objects.create_user(name=name, password=password)
    except IntegrityError:
        raise name_taken_error(name) from None


@transaction.atomic
def create_group(*, name: str, created_by: User | None) -> Group:
    name = " ".join(name.split())
    if not name:
        raise Refused("Please give the group a name.")
    if len(name) > 60:
        raise Refused("A group name can have at most 60 characters.")
    group = Group.objects.create(name=name, created_by=created_by)
    if created_by is not None:
        Membership.objects.create(group=group, user=created_by)
    return group


@transaction.atomic
def join_group(*, group: Group, user: User) -> Membership:
    """Add `user` to `group`; a former member comes back. Joining twice is harmless."""
    membership, created = Membership.objects.select_for_update().get_or_create(
        group=group, user=user
    )
    if not created and membership.left_at is not None:
        membership.left_at = None
        membership.joined_at = timezone.now()
        membership.save(update_fields=["left_at", "joined_at"])
    return membership


@transaction.atomic
def leave_group(*, group: Group, user: User) -> None:
    """Leave; refused while seated at a night still running, whose page would vanish."""
    lock_group(group.pk)  # nobody is seated in the instant they leave (seats.add_seat)
    seated = group.nights.filter(
        ended_at__isnull=True, seats__user=user, seats__last_round__isnull=True
    )
    if seated.exists():
        raise Refused(
            "You are seated at tonight's table. Leave the table (or end the night) first."
        )
    Membership.objects.filter(group=group, user=user, left_at__isnull=True).update(
        left_at=timezone.now()
    )


@transaction.atomic
def replace_invite_link(*, group: Group) -> Group:
    """A new link; the old one stops working at once."""
    group.invite_token = new_invite_token()
    group.save(update_fields=["invite_token"])
    return group


@transaction.atomic
def sign_up_and_join(*, group: Group, name: str, password: str) -> User:
    """A newcomer from an invitation link: the account and the membership, or neither."""
    user = sign_up(name=name, password=password)
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
    lock_group(group.pk)
    if not group.has_member(by):
        raise Refused(_("Only the group's members can change its house rules."))
    group.house_rules = checked_table_rules(rules)
    group.save(update_fields=["house_rules"])
    return group
