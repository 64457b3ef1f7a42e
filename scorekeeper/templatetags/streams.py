"""A live page's stream, signed for the front when the page is drawn
(scorekeeper/services/push.py): ``data-stream="{% night_stream night.pk %}"``."""

from django import template

from scorekeeper.services import push
from scorekeeper.site.front_pass import stream_url

register = template.Library()


@register.simple_tag
def night_stream(night_id: int) -> str:
    return stream_url(push.night_channel(night_id))


@register.simple_tag
def group_stream(group_id: int) -> str:
    return stream_url(push.group_channel(group_id))
