"""Who a seat is across nights: the person key written by the history reads and read
back by the payment lines."""

import pytest

from scorekeeper.models import Seat
from scorekeeper.reads.pay_details import payee_user_id
from scorekeeper.table.people import person_key, user_id_of_key


@pytest.mark.parametrize(
    ("seat", "user_id"),
    [(Seat(name="Anna", user_id=7), 7), (Seat(name="Eve", user_id=None), None)],
)
def test_a_key_reads_back_as_the_account_it_was_made_from(seat, user_id):
    assert user_id_of_key(person_key(seat)) == user_id


@pytest.mark.parametrize("key", ["", "user:", "user:-3", "user:٣", "guest:user:3", "3"])
def test_text_that_is_no_members_key_names_no_account(key):
    assert user_id_of_key(key) is None


def test_an_owed_lines_payee_is_the_account_its_key_names():
    class Owed:
        key = person_key(Seat(name="Bram", user_id=12))

    assert payee_user_id(Owed()) == 12
    assert payee_user_id(Seat(name="Eve")) is None
