"""The group page's "Recent changes" (scorekeeper/reads/changes.py): one query."""

from django import template

from scorekeeper.models import Group
from scorekeeper.reads.changes import ChangesPage, recent_changes

register = template.Library()


@register.simple_tag
def recent_changes_of(group: Group) -> ChangesPage:
    return recent_changes(group)
