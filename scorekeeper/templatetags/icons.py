"""Icons: ``{% icon "undo" %}`` draws ``#i-undo`` of the sprite ``static/ofcboard/icons.svg``
(``scorekeeper/icon.svg``), one small SVG that refers to the sprite by its hashed,
cached-for-good name, so a page carries a few bytes per icon and the browser loads the
sprite once. The icon is always beside words that say the same, so screen readers skip it.
"""

from django import template

register = template.Library()

#: The sprite's icons (a test checks each has its <symbol id="i-NAME">).
ICONS = frozenset(
    {
        "plus",
        "minus",
        "undo",
        "check",
        "more",
        "screen",
        "people",
        "person-add",
        "leave",
        "settle",
        "rules",
        "home",
        "account",
        "share",
        "qr",
        "play",
        "repeat",
        "language",
    }
)


@register.inclusion_tag("scorekeeper/icon.svg")
def icon(name: str) -> dict[str, str]:
    if name not in ICONS:
        raise template.TemplateSyntaxError(f"No icon {name!r}: one of {sorted(ICONS)}")
    return {"name": name}
