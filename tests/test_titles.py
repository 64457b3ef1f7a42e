"""A group's and a season's name: one rule each (models/titles.py), which the form
and the service both check, so they refuse the same names in the same words."""

import pytest
from django import forms

from scorekeeper.forms.fields import TitleField
from scorekeeper.forms.groups import GroupForm
from scorekeeper.forms.seasons import SeasonForm
from scorekeeper.models import Group, Season
from scorekeeper.models.titles import GROUP_NAME, SEASON_NAME, TitleRule
from scorekeeper.services.errors import Refused, checked_title
from scorekeeper.services.groups import create_group
from scorekeeper.services.seasons import add_season
from tests.helpers import make_group

BAD = ["", "   ", "Friday\u200b", "Fri\u202eday", "Ｘ" * 61]


def test_a_title_field_says_what_its_rule_says():
    rule = TitleRule(most=3, empty="Empty!", too_long="Too long!", hidden="Hidden!")
    field = TitleField(rule=rule)
    for raw, words, code in [("  ", "Empty!", "required"), ("abcd", "Too long!", "max_length")]:
        with pytest.raises(forms.ValidationError) as refused:
            field.clean(raw)
        assert (refused.value.messages, refused.value.code) == ([words], code)
        with pytest.raises(Refused, match=words):
            checked_title(rule, raw)
    assert field.clean(" Ｆ  x ") == checked_title(rule, " Ｆ  x ") == "F x"
    assert field.widget.attrs["maxlength"] == "3"


def refusal(call) -> str:
    with pytest.raises(Refused) as refused:
        call()
    return str(refused.value)


@pytest.mark.parametrize("raw", BAD)
def test_the_group_form_and_create_group_refuse_a_name_in_the_same_words(db, raw):
    form = GroupForm(data={"name": raw})
    assert not form.is_valid()
    assert form.errors["name"] == [refusal(lambda: create_group(name=raw, created_by=None))]


@pytest.mark.parametrize("raw", [*BAD, "Ｘ" * 41])
def test_the_season_form_and_add_season_refuse_a_name_in_the_same_words(db, raw):
    group = make_group(members=("Anna",))
    form = SeasonForm(data={"name": raw, "starts_on": "2026-09-01"})
    assert not form.is_valid()
    said = refusal(
        lambda: add_season(group=group, by=group.created_by, name=raw, starts_on="2026-09-01")
    )
    assert form.errors["name"] == [said]


def test_the_models_keep_as_long_a_name_as_their_rule_allows():
    assert Group._meta.get_field("name").max_length == GROUP_NAME.most
    assert Season._meta.get_field("name").max_length == SEASON_NAME.most
