"""The fixtures every test may ask for: thin wrappers over `tests.helpers`."""

import pytest

from tests import helpers


@pytest.fixture
def make_user(db):
    return helpers.make_user


@pytest.fixture
def make_group(db):
    return helpers.make_group


@pytest.fixture
def make_night(db):
    return helpers.make_night


@pytest.fixture
def login(client):
    def log_in(user):
        return helpers.log_in(client, user)

    return log_in
