"""What a row knows about itself: the docstring examples of the models' helpers."""

import doctest

from scorekeeper.models import boards


def test_the_docstring_examples_hold():
    outcome = doctest.testmod(boards)
    assert outcome.attempted > 0 and outcome.failed == 0


def test_a_current_member_is_one_who_has_not_left(make_group, make_night):
    from scorekeeper.models import Group, Membership, Night, User
    from scorekeeper.services.groups import join_group, leave_group

    group = make_group(members=("Anna", "Bram", "Chris"))
    night = make_night(("Anna", "Chris"), group=group)
    bram, chris = User.objects.get(name="Bram"), User.objects.get(name="Chris")
    leave_group(group=group, user=bram)
    elsewhere = make_group("Sunday OFC", members=("Chris", "Dana"))

    current = group.memberships.current()
    assert sorted(m.user.name for m in current) == ["Anna", "Chris"]
    assert [m.user.name for m in group.memberships.former()] == ["Bram"]
    assert all(m.is_current for m in current)
    assert not group.memberships.get(user=bram).is_current
    assert Membership.objects.current().count() == 4  # Anna, Chris; Chris, Dana elsewhere
    assert not group.has_member(bram) and group.has_member(chris)
    assert not night.has_member(bram) and night.has_member(chris)
    assert not night.has_member(User.objects.get(name="Dana"))
    # Pages open through the same rule: a member who left finds the group's rows gone.
    assert list(Group.objects.for_member(bram)) == []
    assert list(Night.objects.for_member(bram)) == []
    assert set(Group.objects.for_member(chris)) == {group, elsewhere}

    join_group(group=group, user=bram)  # back again
    assert group.memberships.former().count() == 0
    assert list(Night.objects.for_member(bram)) == [night]


def test_a_member_is_found_through_one_join_with_the_rule_on_it():
    from scorekeeper.models import Night, User

    sql = str(Night.objects.for_member(User(pk=7)).query)
    assert sql.count("JOIN") == 2  # the group, its memberships: never a subquery
    assert (
        '"scorekeeper_membership"."user_id" = 7 AND "scorekeeper_membership"."left_at" IS NULL'
        in sql
    )
