"""Everything the journal does, as functions the views, the game signal and the tasks call.

Views stay thin: they check who asks (``entry_for_owner`` and friends raise Http404 for
anyone else), call one function here and render.  Entry and seal changes that depend on
the current row run under ``select_for_update``.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import secrets
import zoneinfo
from pathlib import Path

import markdown
import nh3
from django.conf import settings
from django.db import connection, transaction
from django.db.models import BooleanField, Count, Exists, F, Func, OuterRef, Q
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape, format_html, linebreaks
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify

from games.engine import cards as deck
from sefirot_site.outbox import enqueue

from . import kinds, readings
from .models import Entry, EntryCard, Mode, Seal, Tag

log = logging.getLogger(__name__)

# An entry's limits, the same for the forms and for an import (journal.exports).
MAX_TITLE = Entry._meta.get_field("title").max_length
MAX_REFLECTIONS = 50_000
MAX_TAGS = 12
MAX_TAG_LENGTH = Tag._meta.get_field("name").max_length
# Seals of one entry: room for a few choices of cards and words, not a queue of renders.
MAX_SEALS_PER_ENTRY = 12
SEAL_MIN_CARDS = 2
SEAL_MAX_CARDS = 5


# --- access ------------------------------------------------------------------------------


def entry_for_owner(user, pk, *, lock: bool = False) -> Entry:
    """The entry if ``user`` owns it; Http404 for anyone else, so its existence never leaks."""
    if not user.is_authenticated:
        raise Http404("No such entry.")
    qs = Entry.objects.filter(owner=user)
    if lock:
        qs = qs.select_for_update()
    try:
        return qs.get(pk=pk)
    except (Entry.DoesNotExist, ValueError, TypeError):
        raise Http404("No such entry.") from None


def entry_for_share_token(token: str) -> Entry:
    if not token or len(token) > 64:
        raise Http404("This link does not work (any more).")
    try:
        return Entry.objects.select_related("owner").get(share_token=token)
    except Entry.DoesNotExist:
        raise Http404("This link does not work (any more).") from None


def seal_of_entry(entry: Entry, pk) -> Seal:
    try:
        return entry.seals.get(pk=pk)
    except (Seal.DoesNotExist, ValueError, TypeError):
        raise Http404("No such seal.") from None


# --- entries -----------------------------------------------------------------------------


def clean_tags(names) -> list[str]:
    """Tags as typed (``dreams, Work  ,dreams``) -> ``["dreams", "work"]``."""
    if isinstance(names, str):
        names = names.split(",")
    out: list[str] = []
    for name in names:
        name = " ".join(str(name).split()).lower()[:MAX_TAG_LENGTH]
        if name and name not in out:
            out.append(name)
            if len(out) > MAX_TAGS:  # said at once: a list of a million tags is not read to its end
                raise ValueError(f"At most {MAX_TAGS} tags per entry.")
    return out


def set_tags(entry: Entry, names) -> None:
    tags = [Tag.objects.get_or_create(owner=entry.owner, name=name)[0] for name in clean_tags(names)]
    entry.tags.set(tags)


def _card_rows(entry: Entry) -> list:
    """The card rows that search and statistics read, from the entry's reading (written
    once, with the entry: a reading does not change afterwards)."""
    return [EntryCard(entry=entry, card=card, suit=deck.suit_of(card) or "major", position=where, reversed=rev)
            for card, where, rev, _on_position in readings.iter_cards(entry.reading)]


@transaction.atomic
def create_entry(owner, *, title: str, mode: str, reading: dict, date: dt.date | None = None,
                 reflections: str = "", reflections_format: str = Entry.Format.TEXT, tags=(),
                 source_game=None, source_seat: int | None = None, uid=None) -> Entry:
    return _new_entry(owner, title=title, mode=mode, reading=reading, date=date, reflections=reflections,
                      reflections_format=reflections_format, tags=tags, source_game=source_game,
                      source_seat=source_seat, uid=uid)


def _new_entry(owner, *, title: str, mode: str, reading: dict, date: dt.date | None = None,
               reflections: str = "", reflections_format: str = Entry.Format.TEXT, tags=(),
               source_game=None, source_seat: int | None = None, uid=None) -> Entry:
    """create_entry without a transaction of its own, for a caller already in one whose
    failure undoes the whole (a finished game's entries, made in its last move's)."""
    if mode not in kinds.values():
        raise ValueError(f"Unknown mode {mode!r}.")
    entry = Entry(
        owner=owner, title=title.strip()[:200] or "Untitled reading", mode=mode,
        reading=readings.clean_reading(reading), reflections=reflections,
        reflections_format=reflections_format, source_game=source_game, source_seat=source_seat,
    )
    if date is not None:
        entry.date = date
    if uid is not None:
        entry.uid = uid
    entry.save()
    # A new entry has no tags and no card rows yet: only what there is to add is written
    # (a game's last move makes one per player, and each query there is the move's).
    if tags:
        set_tags(entry, tags)
    EntryCard.objects.bulk_create(_card_rows(entry))
    return entry


@transaction.atomic
def update_entry(entry: Entry, *, title: str, date: dt.date, reflections: str, reflections_format: str,
                 tags) -> Entry:
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.title = title.strip()[:200] or entry.title
    entry.date = date
    entry.reflections = reflections
    entry.reflections_format = reflections_format
    entry.save(update_fields=["title", "date", "reflections", "reflections_format", "updated"])
    set_tags(entry, tags)
    return entry


@transaction.atomic
def delete_entry(entry: Entry) -> None:
    owner = entry.owner
    entry.delete()
    transaction.on_commit(lambda: remove_orphan_seal_files(owner))


def record_manual(owner, *, spread: str, rows: list[dict], title: str, date=None, tags=()) -> Entry:
    reading = readings.manual_reading(spread, rows)
    return create_entry(owner, title=title, mode=Mode.PHYSICAL, reading=reading, date=date, tags=tags)


def record_drawn(owner, *, spread: str, reversals: bool, title: str = "", date=None, tags=()) -> Entry:
    reading = readings.draw_spread(spread, reversals=reversals)
    title = title or f"{readings.SPREADS[spread].title} drawn for me"
    return create_entry(owner, title=title, mode=Mode.DRAWN, reading=reading, date=date, tags=tags)


# --- from games --------------------------------------------------------------------------


def entries_from_game(game_id: int, game=None) -> list[Entry]:
    """One entry per human seat of a finished game; safe to call any number of times.
    ``game``, when the caller has it (the move that finished it, with its seats and their
    users loaded), is not loaded again.  All in one transaction (a savepoint inside the
    move's): a failure undoes every entry, and the move's transaction goes on unharmed."""
    from games.models import Game

    with transaction.atomic():
        if game is None or game.pk != game_id:
            game = Game.objects.filter(pk=game_id).first()
            if game is None:
                return []
            seats = list(game.seats.select_related("user"))
        elif "seats" in getattr(game, "_prefetched_objects_cache", {}):
            seats = list(game.seats.all())  # loaded with it, users and all (games.services.game_with_seats)
        else:
            seats = list(game.seats.select_related("user"))
        if game.status != Game.Status.FINISHED or not kinds.is_game(game.mode):
            return []
        state = game.load_state()
        made = []
        names = {s.index: s.player_name for s in seats}
        # The engine's own reason is worded for each reader ("You have the best Reading");
        # the game's stored reason names everyone in the third person, so it serves only
        # an end the engine has no words for.
        engine_reason = (game.rules.outcome(state) or {}).get("reason")
        for seat in (s for s in seats if s.user_id is not None and not s.user.is_computer):
            if Entry.objects.filter(owner_id=seat.user_id, source_game_id=game.pk).exists():
                continue
            reading = readings.from_game(game.mode, game.rules, state, seat.index, names=names,
                                         reason=None if engine_reason else (game.end_reason or None))
            made.append(_new_entry(
                seat.user, title=readings.game_title(game.rules, state, seat.index), mode=game.mode,
                reading=reading, date=_local_date(game.finished_at or game.updated_at, seat.user),
                source_game=game, source_seat=seat.index,
            ))
        return made


def _local_date(moment, user) -> dt.date:
    """The day the game ended as the player's own calendar has it."""
    try:
        return timezone.localtime(moment, zoneinfo.ZoneInfo(user.time_zone)).date()
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return timezone.localtime(moment).date()


def on_game_finished(sender, game_id, status, game=None, **kwargs):
    if status != "finished":
        return
    try:
        # entries_from_game works in a savepoint: inside the move's transaction, a failed
        # query there must not abort the move with it.
        entries_from_game(game_id, game)
    except Exception:  # the game is over either way; a journal hiccup must not break a move
        log.exception("could not make journal entries for game %s", game_id)


# --- sharing -----------------------------------------------------------------------------


@transaction.atomic
def share(entry: Entry) -> Entry:
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if not entry.share_token:
        entry.share_token = secrets.token_urlsafe(32)
        entry.save(update_fields=["share_token", "updated"])
    return entry


@transaction.atomic
def revoke_share(entry: Entry) -> Entry:
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.share_token = None
    entry.save(update_fields=["share_token", "updated"])
    return entry


# --- reflections -------------------------------------------------------------------------

ALLOWED_TAGS = {
    "p", "br", "hr", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li",
    "h1", "h2", "h3", "h4", "h5", "h6", "a", "del", "table", "thead", "tbody", "tr", "th", "td",
}


def _markdown_without_html() -> markdown.Markdown:
    md = markdown.Markdown(extensions=["sane_lists", "tables"], output_format="html")
    # Raw HTML in a reflection is text the writer typed, not markup: with these two
    # processors gone Markdown escapes it like any other character.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    return md


def render_reflections(text: str, fmt: str, md: markdown.Markdown | None = None) -> SafeString:
    """``text`` as safe HTML; ``md``, one ``_markdown_without_html()`` for many texts in a row."""
    if not text:
        return mark_safe("")
    if fmt == Entry.Format.MARKDOWN:
        html = (md.reset() if md else _markdown_without_html()).convert(text)
        # nh3 is the second wall: whatever Markdown emits, only these tags and http(s)/mailto
        # links survive.
        return mark_safe(nh3.clean(html, tags=ALLOWED_TAGS, url_schemes={"http", "https", "mailto"},
                                   link_rel="noopener noreferrer nofollow"))
    return mark_safe(linebreaks(escape(text)))


@functools.cache
def _markdown_specials() -> frozenset[str]:
    return frozenset(_markdown_without_html().ESCAPED_CHARS)


def markdown_escape(text: str) -> str:
    """``text`` as Markdown that renders as exactly these characters (a name with ``*`` or
    ``_`` in it stays a name), for words of the site set beside Markdown a person wrote."""
    special = _markdown_specials()
    return "".join("\\" + c if c in special else c for c in text)


def render_tale(entry: Entry) -> list[SafeString]:
    """The reading's tale, a paragraph (or a few) per line.

    A tarot wizards session's tale is Markdown: the site's words escaped
    (``markdown_escape``), the game master's and players' narration as they wrote it, the
    way the session's own log shows it; so it goes through the reflections' Markdown and
    nh3. Every other tale is the engine's plain words."""
    story = entry.reading.get("story") or []
    if entry.mode == kinds.WIZARDS:
        md = _markdown_without_html()
        return [render_reflections(line, Entry.Format.MARKDOWN, md) for line in story]
    return [format_html("<p>{}</p>", line) for line in story]


# --- finding -----------------------------------------------------------------------------


def _has_tag_containing(owner, word: str):
    """Whether an entry has a tag with ``word`` in its name.

    On PostgreSQL as ``id = ANY(ARRAY(the owner's entries with such a tag))``: an array
    the planner reads once, so the text search's three arms are each an index
    (the title's and reflections' trigram indexes, journal migration 0003, and the
    primary key) ORed in one bitmap; an EXISTS there is a subplan that makes it read every
    entry of the owner (issue 38: 6.5x slower at 10,000 entries than at 100). Elsewhere
    (SQLite, with no trigram index to use) an EXISTS."""
    tagged = Entry.tags.through.objects.filter(tag__owner=owner, tag__name__icontains=word)
    if connection.vendor != "postgresql":
        return Exists(tagged.filter(entry=OuterRef("pk")))
    from django.contrib.postgres.expressions import ArraySubquery

    # Renders "journal_entry"."id" = ANY(ARRAY(SELECT ...)).
    return Func(F("pk"), ArraySubquery(tagged.values("entry_id")), template="%(expressions)s)",
                arg_joiner=" = ANY(", output_field=BooleanField())


def search(owner, *, text: str = "", card: str = "", tag: str = "", mode: str = ""):
    """The owner's entries matching every filter, newest first.

    Tags and cards are asked with EXISTS rather than joined: a join repeats an entry once
    per matching row, and the DISTINCT that folded them back compared every column of
    every entry (its reading and reflections too), then again to count the pages, so the
    list slowed with the journal's size (issue 38: 4.5x at 10,000 entries)."""
    qs = Entry.objects.filter(owner=owner)
    for word in text.split():
        qs = qs.filter(Q(title__icontains=word) | Q(reflections__icontains=word) | _has_tag_containing(owner, word))
    if card:
        qs = qs.filter(Exists(EntryCard.objects.filter(entry=OuterRef("pk"), card=card)))
    if tag:
        qs = qs.filter(Exists(Entry.tags.through.objects.filter(entry=OuterRef("pk"), tag__name=tag.strip().lower())))
    if mode:
        qs = qs.filter(mode=mode)
    return qs.prefetch_related("tags")


def card_statistics(owner, start: dt.date | None, end: dt.date | None, top: int = 12) -> dict:
    """How often each card and each suit appeared in the owner's readings in a period."""
    rows = EntryCard.objects.filter(entry__owner=owner)
    if start:
        rows = rows.filter(entry__date__gte=start)
    if end:
        rows = rows.filter(entry__date__lte=end)
    cards = list(rows.values("card").annotate(n=Count("id")).order_by("-n", "card")[:top])
    suits = dict(rows.values_list("suit").annotate(n=Count("id")))
    entries = Entry.objects.filter(owner=owner)
    if start:
        entries = entries.filter(date__gte=start)
    if end:
        entries = entries.filter(date__lte=end)
    suit_rows = [
        {"suit": key, "label": "Major Arcana" if key == "major" else deck.SUIT_NAMES[key], "n": suits.get(key, 0)}
        for key in ("major", *deck.SUITS)
    ]
    return {
        "entries": entries.count(),
        "cards": [{"card": r["card"], "label": deck.label(r["card"]), "n": r["n"]} for r in cards],
        "suits": suit_rows,
        "total": sum(suits.values()),
    }


def bar_chart(stats: dict, width: int = 640, bar: int = 22, gap: int = 6, label_width: int = 190) -> dict:
    """Geometry for the server-drawn SVG bar charts (cards and suits) of the statistics page."""

    def bars(rows):
        most = max((r["n"] for r in rows), default=0) or 1
        room = width - label_width - 50
        out = []
        for i, r in enumerate(rows):
            out.append({**r, "y": i * (bar + gap), "text_y": i * (bar + gap) + bar * 0.7,
                        "w": round(room * r["n"] / most, 1), "x": label_width,
                        "n_x": label_width + round(room * r["n"] / most, 1) + 6})
        return {"rows": out, "height": max(1, len(out) * (bar + gap)), "width": width, "bar": bar,
                "label_x": label_width - 8}

    return {"cards": bars(stats["cards"]), "suits": bars(stats["suits"])}


# --- seals -------------------------------------------------------------------------------

# The size the live preview is drawn at (the SVG scales, so any will do).
PREVIEW_SIZE = "10cm"


def clean_seal_input(cards: list[str], words: list[str]) -> tuple[list[str], list[str]]:
    """The renderer's own check (card count, unknown cards, words it cannot letter), with
    the words kept as the player typed them; raises a ValueError whose message is for them."""
    from .seals import check_seal_input

    codes, _inscribed, _fmt, _size = check_seal_input(list(cards), [" ".join(str(w).split()) for w in words])
    return codes, [" ".join(str(w).split()) for w in words]


def seal_input_hash(cards: list[str], words: list[str]) -> str:
    # The renderer's digest: words that differ only in case or spacing draw the same seal,
    # so they are the same seal here too.
    from .seals import seal_digest

    return seal_digest(cards, words)


def default_seal_input(entry: Entry) -> tuple[list[str], list[str]]:
    """The reading's cards (for Know Thyself every one of them), each with its keyword.

    Where the game's engine suggested the seal's cards (the event spread of the two-player
    modes, the Crown and its Party in Dream Odyssey) those come first.

    Know Thyself's rulebook seals every card of the reading, Minors included, but a seal
    holds at most five: when they fit, all of them; when they do not, the Majors of the
    four central Sefira and the obstacle, since the rulebook reads a Sefira's Minors by
    their suits rather than one by one (the form still offers each of them)."""
    every = readings.all_cards(entry.reading)
    if entry.mode == Mode.KNOW_THYSELF and SEAL_MIN_CARDS <= len(every) <= SEAL_MAX_CARDS:
        return every, [deck.keyword(c) for c in every]
    suggested = [c for c in entry.reading.get("seal", []) if c in every]
    cards = (suggested or readings.position_cards(entry.reading))[:SEAL_MAX_CARDS]
    if len(cards) < SEAL_MIN_CARDS:
        extra = [c for c in every if c not in cards]
        cards += extra[: SEAL_MIN_CARDS - len(cards)]
    return cards, [deck.keyword(c) for c in cards]


def request_seal(entry: Entry, cards: list[str], words: list[str]) -> Seal:
    """The entry's seal for this input, queued for rendering unless it is done or under way.

    The same cards and words give the same seal (and the same files), so pressing
    "Render" twice renders once.
    """
    from .tasks import render_seal_task

    cards, words = clean_seal_input(cards, words)
    digest = seal_input_hash(cards, words)
    with transaction.atomic():
        Entry.objects.select_for_update().get(pk=entry.pk)  # one request per entry at a time
        seals = Seal.objects.filter(entry=entry)
        if not seals.filter(input_hash=digest).exists() and seals.count() >= MAX_SEALS_PER_ENTRY:
            raise ValueError(f"An entry holds at most {MAX_SEALS_PER_ENTRY} seals; this one has them all.")
        seal, created = Seal.objects.get_or_create(
            entry=entry, input_hash=digest, defaults={"cards": cards, "words": words},
        )
        if not created and seal.status == Seal.Status.FAILED:
            seal.status, seal.error = Seal.Status.QUEUED, ""
            seal.save(update_fields=["status", "error", "updated"])
            created = True
        if created:
            enqueue(render_seal_task, seal.pk)
    return seal


def retry_seal(seal: Seal) -> Seal:
    """Ask again for a seal that failed, or that has had no news for ``STUCK_AFTER``: a
    new run through the outbox, now. Idempotent: under the seal's lock, and the seal is
    touched, so a second ask (a double click, two tabs) finds it fresh and queues nothing.
    The lost run, if the sweep hands it on later, finds the files drawn and draws none."""
    from .tasks import render_seal_task

    with transaction.atomic():
        seal = Seal.objects.select_for_update().get(pk=seal.pk)
        if seal.status != Seal.Status.FAILED and not is_stuck(seal):
            return seal
        seal.status, seal.error, seal.attempts = Seal.Status.QUEUED, "", 0
        seal.save(update_fields=["status", "error", "attempts", "updated"])
        enqueue(render_seal_task, seal.pk)
    return seal


def seal_files(seal: Seal, share_token: str | None = None) -> list[dict]:
    """The seal's rendered files, in the page's order, with their download addresses (the
    share link's when given)."""
    from .tasks import seal_outputs

    files = []
    for fmt, size in seal_outputs():
        kind = f"{fmt}-{size}"
        if kind in seal.files:
            url = (reverse("journal:shared_seal_file", args=[share_token, seal.pk, kind]) if share_token
                   else reverse("journal:seal_file", args=[seal.entry_id, seal.pk, kind]))
            files.append({"kind": kind, "fmt": fmt, "size": size, "label": output_label(fmt, size), "url": url})
    return files


def seal_context(seal: Seal) -> dict:
    """What the seal page and its polled progress region show."""
    from .tasks import seal_outputs

    outputs = seal_outputs()
    files = seal_files(seal)
    return {
        "seal": seal, "entry": seal.entry, "files": files, "total": len(outputs), "done_count": len(files),
        "percent": round(100 * len(files) / len(outputs)) if outputs else 100,
        "pairs": list(zip(seal.cards, seal.words)),
        "working": seal.status in (Seal.Status.QUEUED, Seal.Status.RENDERING),
        "stuck": is_stuck(seal),
    }


# How long a seal may go without news before its owner may ask for it again. The task
# touches the seal as it starts and as each file is stored (a file takes well under a
# second, bench/seal.py), so a minute without news means its run was lost: a worker killed
# mid-drawing, whose claim the outbox honours for OUTBOX_CLAIM_SECONDS and whose sweep then
# waits for beat, minutes in all. Asking again runs it at once (retry_seal).
STUCK_AFTER = dt.timedelta(seconds=60)


def is_stuck(seal: Seal) -> bool:
    return (seal.status in (Seal.Status.QUEUED, Seal.Status.RENDERING)
            and seal.updated < timezone.now() - STUCK_AFTER)


def seal_download_name(entry: Entry, seal: Seal, fmt: str, size: str) -> str:
    """``seal-2026-03-01-morning-draw-12-a5.png``: the day, the entry's title and the seal's
    number, so two seals of one day (of one entry or of two) never download as one name.
    ASCII only, so it reads the same in every browser's save dialog and in a bucket's
    signed Content-Disposition."""
    title = slugify(entry.title)[:40].strip("-") or "entry"
    return f"seal-{entry.date}-{title}-{seal.pk}" + (f"-{size}" if size else "") + f".{fmt}"


def output_label(fmt: str, size: str) -> str:
    from .seals import SIZE_LABELS

    if fmt == "svg":
        return "SVG (scalable)"
    extra = " at 300 dpi" if fmt == "png" else ", with print margins" if fmt == "pdf" else ""
    return f"{fmt.upper()} {SIZE_LABELS.get(size, size)}{extra}"


def seal_dir(owner_id: int) -> Path:
    """The owner's seal folder on local disk (local storage; see journal.seal_files)."""
    return Path(settings.MEDIA_ROOT) / "seals" / f"u{owner_id}"


def remove_orphan_seal_files(owner) -> None:
    """Delete the owner's seal files that no remaining seal points at."""
    from . import seal_files

    kept = {
        Path(path).name
        for files in Seal.objects.filter(entry__owner=owner).values_list("files", flat=True)
        for path in (files or {}).values()
    }
    for filename in seal_files.names(owner.pk):
        if filename not in kept and not filename.startswith(".part-"):
            seal_files.delete(seal_files.key(owner.pk, filename))


# --- account deletion ------------------------------------------------------------------------


def delete_journal(user) -> None:
    """A journal is personal data: everything of it goes, seal files included."""
    from . import seal_files

    owner_id = user.pk
    with transaction.atomic():
        Entry.objects.filter(owner=user).delete()
        Tag.objects.filter(owner=user).delete()
        # Files go only once the deletion is committed (the account deletion around this
        # may still roll back).
        transaction.on_commit(lambda: seal_files.delete_folder(owner_id))


def on_account_deleting(sender, user, **kwargs):
    delete_journal(user)


def on_user_deleted(sender, instance, **kwargs):
    delete_journal(instance)
