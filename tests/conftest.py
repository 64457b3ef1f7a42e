"""Small factories shared by the tests: people, groups, nights."""

import pytest

from scorekeeper.models import Group, Night, User
from scorekeeper.services.groups import create_group, join_group
from scorekeeper.services.nights import SeatRequest, start_night

PASSWORD = "table-talk-42"


@pytest.fixture
def make_user(db):
    def make(name: str = "Anna") -> User:
        return User.objects.create_user(name=name, password=PASSWORD)

    return make


@pytest.fixture
def make_group(db, make_user):
    def make(name: str = "Friday OFC", members: tuple[str, ...] = ("Anna",)) -> Group:
        users = [
            User.objects.filter(name=member).first() or make_user(member) for member in members
        ]
        group = create_group(name=name, created_by=users[0] if users else None)
        for user in users[1:]:
            join_group(group=group, user=user)
        return group

    return make


@pytest.fixture
def make_night(db, make_group):
    def make(
        players: tuple[str, ...] = ("Anna", "Bram", "Chris"),
        *,
        game: str = "standard",
        rules: dict | None = None,
        guests: tuple[str, ...] = (),
        dealer: int = 0,
        point_cents: int = 10,
    ) -> Night:
        group = make_group(members=players)
        users = {user.name: user for user in User.objects.filter(name__in=players)}
        seats = [SeatRequest(user=users[name]) for name in players]
        seats += [SeatRequest(guest_name=name) for name in guests]
        return start_night(
            group=group,
            started_by=users[players[0]],
            game_id=game,
            rules=rules or {},
            point_cents=point_cents,
            seats=seats,
            first_dealer=dealer,
        )

    return make


@pytest.fixture
def login(client):
    def log_in(user: User):
        client.force_login(user)
        return client

    return log_in
