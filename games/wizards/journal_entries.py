"""A finished session leaves each participant a journal entry: the cards they cast, the
story as they could read it (narration included), and how the session ended.  Reflections
and seals then work on it as on any reading."""

from __future__ import annotations

from django.db import transaction

from games.engine.tarot_wizards import session as rules
from journal import kinds
from journal.readings import MAX_STORY_LINES, MAX_TEXT
from journal.services import create_entry, markdown_escape

from . import services
from .models import PlaySession, SessionEntry


def reading_for(session: PlaySession, key: str, names: dict[str, str]) -> dict:
    cards = rules.cast_cards(session.state, key)
    what = "challenges you set from your hand" if key == services.GM else "cards you cast"
    story = []
    for line in services.log_lines(session, key, names):
        if line["kind"] in ("draw",) and not line["private"]:
            continue
        # The tale is Markdown, as the session's log shows it: the site's words escaped,
        # the narration as its writer wrote it (the journal renders it through nh3).
        text = markdown_escape(line["text"]) + (f" \u201c{line['narration']}\u201d" if line["narration"] else "")
        story.append(text[:MAX_TEXT])
    return {
        "layout": "spread",
        "sections": [{"id": "cast", "title": what[0].upper() + what[1:],
                      "about": f"{session.table.name}, session {session.number}",
                      "positions": [{"id": f"c{n}", "label": f"Card {n}", "card": card}
                                    for n, card in enumerate(cards[:40], 1)]}],
        "story": story[-MAX_STORY_LINES:],
        # The closing line is already the tale's last line; said again below it, it read twice.
        "summary": ("" if story and story[-1].startswith(markdown_escape(session.state["end_reason"]))
                    else session.state["end_reason"][:MAX_TEXT]),
    }


def entries_for_session(session_id: int) -> list:
    session = PlaySession.objects.select_related("table", "table__gm").filter(pk=session_id).first()
    if session is None or session.status != PlaySession.Status.OVER:
        return []
    names = services.names_at(session.table, session)
    made = []
    for seat in session.seats.select_related("user"):
        with transaction.atomic():
            link, created = SessionEntry.objects.select_for_update().get_or_create(session=session, user=seat.user)
            if not created and link.entry_id:
                continue
            title = f"{session.table.name}: session {session.number}" + (f", {session.title}" if session.title else "")
            entry = create_entry(seat.user, title=title, mode=kinds.WIZARDS,
                                 reading=reading_for(session, seat.key, names),
                                 date=(session.ended or session.updated).date())
            link.entry = entry
            link.save(update_fields=["entry"])
        made.append(entry)
    return made
