"""Writes about people and groups: sign-up, groups, invitations, leaving."""

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.models import Group, Membership, User, new_invite_token
from scorekeeper.names import suggest_alternative
from scorekeeper.services.errors import Refused, checked_name
from scorekeeper.services.locks import lock_group


class NameTaken(Refused):
    def __init__(self, name: str, suggestion: str):
        super().__init__(
            _('"%(name)s" is already taken. Pick another name, such as "%(suggestion)s".')
            % {"name": name, "suggestion": suggestion}
        )
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
        raise Refused(_("Please give the group a name."))
    if len(name) > 60:
        raise Refused(_("A group name can have at most 60 characters."))
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
            _("You are seated at tonight's table. Leave the table (or end the night) first.")
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
