"""The record of changes as a page reads it: each change in one sentence of the
reader's language, newest first, a page at a time, in one query wherever it starts.

The record keeps kinds and values (:class:`~scorekeeper.models.Change`); the words are
here, one message per kind, so the same change reads in Dutch to one phone and in
Chinese to the next.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from babel.numbers import get_currency_name
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.dates import day, moment
from scorekeeper.i18n import language, money, series
from scorekeeper.models import Change, Group, Night
from scorekeeper.ofc import PRESETS
from scorekeeper.reads.rules import group_rules_summary, rules_summary
from scorekeeper.table.formatting import locale_of

CHANGES_PER_PAGE = 30
RECENT_CHANGES = 10  # on the group page


@dataclass(frozen=True)
class ChangeLine:
    pk: int
    sentence: str
    when: str
    night: Night | None  # the night it changed, while it exists
    by_id: int | None = None
    # An import that may still be taken back (within a day, not yet): its fingerprint,
    # for a button shown to whoever made it; else "".
    import_mark: str = ""


@dataclass(frozen=True)
class ChangesPage:
    lines: list[ChangeLine]
    older_than: int | None  # the pk to ask for the next, older page with; None at the end


def night_changes(night: Night, *, before: int | None = None) -> ChangesPage:
    """The night's log: every change made to it, newest first."""
    return _page(Change.objects.filter(night=night), before, CHANGES_PER_PAGE)


def group_changes(group: Group, *, before: int | None = None) -> ChangesPage:
    """Every change made to the group's nights and money, newest first."""
    return _page(Change.objects.filter(group=group), before, CHANGES_PER_PAGE)


def recent_changes(group: Group) -> ChangesPage:
    """The group page's "Recent changes": the newest few."""
    return _page(Change.objects.filter(group=group), None, RECENT_CHANGES)


def _page(changes: QuerySet[Change], before: int | None, count: int) -> ChangesPage:
    ordered = changes.select_related("by", "night").order_by("-pk")
    if before is not None:
        ordered = ordered.filter(pk__lt=before)
    found = list(ordered[: count + 1])
    shown = found[:count]
    marks = _imports_to_take_back(shown)
    return ChangesPage(
        [
            ChangeLine(c.pk, sentence(c), moment(c.at), c.night, c.by_id, marks.get(c.pk, ""))
            for c in shown
        ],
        shown[-1].pk if len(found) > count else None,
    )


def _imports_to_take_back(changes: list[Change]) -> dict[int, str]:
    """Each import among ``changes`` made within a day and not taken back yet, by its
    change's key: its fingerprint (one query, and only when there is such an import)."""
    recent = {c.pk: str(c.values.get("preview", "")) for c in changes if c.import_still_takeable}
    if not any(recent.values()):
        return {}
    taken_back = set(
        Change.objects.filter(
            kind=Change.Kind.IMPORT_TAKEN_BACK, values__preview__in=list(recent.values())
        ).values_list("values__preview", flat=True)
    )
    return {pk: mark for pk, mark in recent.items() if mark and mark not in taken_back}


def sentence(change: Change) -> str:
    """``change`` in one sentence of the active language; a change whose values cannot
    be read (a file brought in from elsewhere) says only who made it."""
    by = change.by.name if change.by is not None else _("Someone")
    try:
        return _SENTENCES[Change.Kind(change.kind)](by, change.values)
    except (KeyError, TypeError, ValueError, AttributeError):
        return _("%(by)s made a change.") % {"by": by}


def _amount(values: dict) -> dict[str, Any]:
    return {
        "payer": values["payer"],
        "payee": values["payee"],
        "amount": money(int(values["cents"]), str(values["currency"])),
    }


def _date(values: dict) -> str:
    return day(date.fromisoformat(values["date"]))


def _fixes(changes: list) -> str:
    return series(
        _("%(name)s %(before)s → %(after)s") % {"name": name, "before": old, "after": new}
        for name, old, new in changes
    )


def _night_rules(game: str, rules: dict) -> str:
    return rules_summary(PRESETS[game].with_house_rules(rules))


def _house_rules(rules: dict) -> str:
    return group_rules_summary(Group(house_rules=rules))


def _currency(code: str) -> str:
    return str(get_currency_name(code, locale=locale_of(language())))


def _signed_in(by: str, values: dict) -> str:
    name = values["name"]
    if values["how"] == "own":
        return _("%(name)s signed in on a new phone with their own code.") % {"name": name}
    if values["how"] == "owner":
        return _("The server's owner signed %(name)s in on a new phone.") % {"name": name}
    return _("%(by)s signed %(name)s in on a new phone.") % {"by": by, "name": name}


Words = Callable[[str, dict], str]

_SENTENCES: dict[Change.Kind, Words] = {
    Change.Kind.NIGHT_STARTED: lambda by, v: (
        (
            _("%(by)s started the night of %(date)s, with the seats drawn.")
            if v.get("drawn")
            else _("%(by)s started the night of %(date)s.")
        )
        % {"by": by, "date": _date(v)}
    ),
    Change.Kind.TOTAL_FOR: lambda by, v: (
        _("%(by)s entered %(points)d for %(name)s in round %(round)d.")
        % {"by": by, "points": v["points"], "name": v["name"], "round": v["round"]}
    ),
    Change.Kind.BOARD_FOR: lambda by, v: (
        _("%(by)s set the cards of %(name)s in round %(round)d.")
        % {"by": by, "name": v["name"], "round": v["round"]}
    ),
    Change.Kind.ROUND_FIXED: lambda by, v: (
        _("%(by)s fixed round %(round)d: %(changes)s.")
        % {"by": by, "round": v["round"], "changes": _fixes(v["changes"])}
    ),
    Change.Kind.ROUND_UNDONE: lambda by, v: (
        _("%(by)s undid round %(round)d.") % {"by": by, "round": v["round"]}
    ),
    Change.Kind.ROUND_THROUGH_AGAIN: lambda by, v: (
        (
            _("Round %(round)d went through again once every total was confirmed.")
            if v["how"] == "confirmed"
            else _("Round %(round)d went through again with a changed total.")
        )
        % {"round": v["round"]}
    ),
    Change.Kind.SEAT_ADDED: lambda by, v: (
        _("%(by)s gave %(name)s seat %(position)d.")
        % {"by": by, "name": v["name"], "position": v["position"]}
    ),
    Change.Kind.SEAT_BACK: lambda by, v: (
        _("%(by)s seated %(name)s again, in seat %(position)d.")
        % {"by": by, "name": v["name"], "position": v["position"]}
    ),
    Change.Kind.DEALT_IN: lambda by, v: (
        _("%(name)s dealt themselves in, in seat %(position)d.")
        % {"name": v["name"], "position": v["position"]}
    ),
    Change.Kind.SEAT_LEFT: lambda by, v: (
        _("%(by)s marked that %(name)s left the table before round %(round)d.")
        % {"by": by, "name": v["name"], "round": v["round"]}
    ),
    Change.Kind.NIGHT_RULES: lambda by, v: (
        _("%(by)s changed the night's rules from %(before)s to %(after)s.")
        % {
            "by": by,
            "before": _night_rules(v["game"], v["before"]),
            "after": _night_rules(v["game"], v["after"]),
        }
    ),
    Change.Kind.NIGHT_ENDED: lambda by, v: _("%(by)s ended the night.") % {"by": by},
    Change.Kind.SCREEN_SHARED: lambda by, v: (
        _("%(by)s shared the link to the night's big screen.") % {"by": by}
    ),
    Change.Kind.SCREEN_STOPPED: lambda by, v: (
        _("%(by)s stopped the link to the night's big screen.") % {"by": by}
    ),
    Change.Kind.PAID: lambda by, v: (
        _("%(by)s marked that %(payer)s paid %(payee)s %(amount)s.") % {"by": by, **_amount(v)}
    ),
    Change.Kind.UNPAID: lambda by, v: (
        _("%(by)s took back the payment of %(amount)s from %(payer)s to %(payee)s.")
        % {"by": by, **_amount(v)}
    ),
    Change.Kind.NIGHT_CALLED_OFF: lambda by, v: (
        _("%(by)s called off the night of %(date)s.") % {"by": by, "date": _date(v)}
    ),
    Change.Kind.OWED_PAID: lambda by, v: (
        _("%(by)s marked that %(payer)s paid %(payee)s %(amount)s of what was owed across nights.")
        % {"by": by, **_amount(v)}
    ),
    Change.Kind.OWED_UNDONE: lambda by, v: (
        _("%(by)s took back the payment across nights of %(amount)s from %(payer)s to %(payee)s.")
        % {"by": by, **_amount(v)}
    ),
    Change.Kind.SETTLE_EVERYTHING_ON: lambda by, v: (
        _("%(by)s turned on settling everything still owed at each night.") % {"by": by}
    ),
    Change.Kind.SETTLE_EVERYTHING_OFF: lambda by, v: (
        _("%(by)s turned off settling everything still owed at each night.") % {"by": by}
    ),
    Change.Kind.HOUSE_RULES: lambda by, v: (
        _("%(by)s changed the house rules from %(before)s to %(after)s.")
        % {"by": by, "before": _house_rules(v["before"]), "after": _house_rules(v["after"])}
    ),
    Change.Kind.CURRENCY: lambda by, v: (
        _("%(by)s changed the currency from %(before)s to %(after)s.")
        % {"by": by, "before": _currency(v["before"]), "after": _currency(v["after"])}
    ),
    Change.Kind.GROUP_CREATED: lambda by, v: (
        _("%(by)s started the group %(name)s.") % {"by": by, "name": v["name"]}
    ),
    Change.Kind.JOINED: lambda by, v: _("%(name)s joined the group.") % {"name": v["name"]},
    Change.Kind.LEFT: lambda by, v: _("%(name)s left the group.") % {"name": v["name"]},
    Change.Kind.PAY_DETAILS: lambda by, v: (
        _("%(name)s changed their pay details.") % {"name": v["name"]}
    ),
    Change.Kind.MEMBER_REMOVED: lambda by, v: (
        _("%(by)s removed %(name)s from the group.") % {"by": by, "name": v["name"]}
    ),
    Change.Kind.SEASON_ADDED: lambda by, v: (
        _("%(by)s added the season %(name)s, from %(date)s.")
        % {"by": by, "name": v["name"], "date": _date(v)}
    ),
    Change.Kind.SEASON_REMOVED: lambda by, v: (
        _("%(by)s removed the season %(name)s: its nights count in the season before it.")
        % {"by": by, "name": v["name"]}
    ),
    Change.Kind.INVITE_LINK_REPLACED: lambda by, v: (
        _("%(by)s replaced the invitation link: the old one no longer works.") % {"by": by}
    ),
    Change.Kind.SIGNED_IN_BY_CODE: lambda by, v: _signed_in(by, v),
    Change.Kind.PASSWORD_SET: lambda by, v: (
        (
            _("%(name)s added a password, which signed their other phones out.")
            if v["first"]
            else _("%(name)s changed their password, which signed their other phones out.")
        )
        % {"name": v["name"]}
    ),
    Change.Kind.PHONE_SIGNED_OUT: lambda by, v: (
        _("%(name)s signed out one of their phones.") % {"name": v["name"]}
    ),
    Change.Kind.NIGHTS_IMPORTED: lambda by, v: (
        ngettext(
            "%(by)s brought in %(count)d past night from a file.",
            "%(by)s brought in %(count)d past nights from a file.",
            v["count"],
        )
        % {"by": by, "count": v["count"]}
    ),
    Change.Kind.IMPORT_TAKEN_BACK: lambda by, v: (
        ngettext(
            "%(by)s took back an import: %(count)d night is gone again.",
            "%(by)s took back an import: %(count)d nights are gone again.",
            v["count"],
        )
        % {"by": by, "count": v["count"]}
    ),
}
