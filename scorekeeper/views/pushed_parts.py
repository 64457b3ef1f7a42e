"""The night page's live part carried in the pushed message itself, so that a change
reaches the phones at the table without each of them asking for it.

When a change to a running night commits, its channel is told "version N"
(services/push.py); with it now goes what each member's night page would fetch at
that version (views/nights.night_live), in the language of the change and each
language the night's pages were asked in lately. The phones differ only in their own
bits (their seat, the buttons offered to their player, the news they made
themselves), so the message holds the
parts every phone shares once, and for each person whose part differs a list of
literal pieces and references to the shared ones; everyone else takes the one for a
member with no seat. A phone that finds its language, its round and its seat in the
message shows it as if it had fetched it (static/ofcboard/live.js); one that does
not (a new round's entry form carries a token of its own session, or a language this
server process was not asked in) fetches, as every phone did before.

The channel is the members' own (views/streams.night_stream checks membership): a
big screen's shared link listens on another, told the version alone.
"""

import json
import re
from dataclasses import replace
from types import SimpleNamespace

from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from scorekeeper.models import Night
from scorekeeper.services.push import is_on as push_is_on
from scorekeeper.views.shared_parts import TEMPLATE, SharedNight, shared_night

LIVE = f"{TEMPLATE}#live"
# The languages a night's pages were asked in, kept this long after the last ask.
LANGUAGES_SECONDS = 2 * 60 * 60
# Where a shared part stands in a rendered piece: it holds no NUL of its own.
MARK = re.compile("\x00(\\d+)\x00")
# Whoever has no part of their own: no account has this id.
NOBODY = SimpleNamespace(pk=0)


def _languages_key(night_id: int) -> str:
    return f"night-languages:{night_id}"


def asked_in(night_id: int, language: str) -> None:
    """A night page was asked in ``language``: its changes are carried in it too, for
    LANGUAGES_SECONDS from now."""
    key = _languages_key(night_id)
    languages = cache.get(key) or frozenset()
    if language in languages:
        cache.touch(key, LANGUAGES_SECONDS)
    else:
        cache.set(key, languages | {language}, LANGUAGES_SECONDS)


def carried(night_id: int, version: int) -> str | None:
    """What the message of ``night_id`` at ``version`` carries besides the version (a
    line of JSON), or None when there is nothing to carry: the night is over (its
    phones go to the settlement) or it has moved on since (the next message will carry
    that). It is made in the language the change was made in (the saving phone's, when
    a phone saved) and in each its page was asked in lately: without Redis each server
    process knows only the asks it answered, and the saver's language is the table's
    most likely one whichever process answers the save."""
    languages = sorted({get_language(), *(cache.get(_languages_key(night_id)) or ())})
    night = Night.objects.filter(pk=night_id).select_related("group").first()
    if night is None or night.is_over or night.version != version:
        return None
    parts = {}
    for language in languages:
        with translation.override(language):
            shared = shared_night(night)
            if shared.version != version:
                return None
            parts[language] = _parts(night, shared)
    seats = {str(user): seat for user, seat in shared.seat_of.items()}
    # The part is known by the address its element fetches it from.
    part = reverse("night_live", args=[night.pk])
    message = {"part": part, "round": shared.round_number, "seats": seats, "in": parts}
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def _parts(night: Night, shared: SharedNight) -> dict:
    """The live part as each person's phone would fetch it: the shared pieces once, and
    each different person's own pieces around them."""
    pieces = [shared.round_head, shared.status_top, shared.status_bottom, shared.standings]
    pieces += [line.html for line in shared.lines]
    marks = [SafeString(f"\x00{number}\x00") for number in range(len(pieces))]
    marked = replace(
        shared,
        round_head=marks[0],
        status_top=marks[1],
        status_bottom=marks[2],
        standings=marks[3],
        lines=tuple(
            replace(line, html=mark) for line, mark in zip(shared.lines, marks[4:], strict=True)
        ),
    )
    people = set(shared.seat_of) | set(shared.may_enter)
    people |= {moment.by_id for moment in shared.moments if moment.by_id is not None}
    own = [_piece_list(night, marked, NOBODY)]
    of = {}
    for person in sorted(people):
        pieces_of = _piece_list(night, marked, SimpleNamespace(pk=person))
        if pieces_of not in own:
            own.append(pieces_of)
        if pieces_of != own[0]:
            of[str(person)] = own.index(pieces_of)
    return {"shared": pieces, "own": own, "of": of}


def _piece_list(night: Night, marked: SharedNight, person: SimpleNamespace) -> list:
    """The live part for ``person`` at an unchanged round and seat (views/nights.
    night_live without a new form), as literal text and numbers of shared pieces."""
    context = {
        "night": night,
        "shared": marked,
        "own": marked.own(person),  # type: ignore[arg-type]
        "news": marked.moments,
        "user": person,
        "push_on": push_is_on(),
        "oob_head": True,
        "oob_form": False,
    }
    # Split at the marks: text, a shared piece's number, text, ... (empty text left out).
    split = MARK.split(render_to_string(LIVE, context))
    return [int(piece) if n % 2 else piece for n, piece in enumerate(split) if piece or n % 2]


def carry_the_live_part(sender: object, night_id: int, version: int, **kwargs: object) -> str:
    """services/push.night_told's receiver (connected in apps.py)."""
    return carried(night_id, version) or ""
