"""Taking a journal out and bringing it back: the zip export, the JSON import, an entry as PDF.

The zip holds ``journal.json`` (everything needed to rebuild the journal: entries, readings,
reflections, tags, seal inputs), one Markdown file per entry for reading anywhere, and the
seal files rendered so far.  Importing reads the JSON (alone or inside such a zip); seals
come back as their inputs and are rendered afresh by the worker, because files uploaded by
a user are never served back as if the site had drawn them.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import uuid
import zipfile
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from games.engine import cards as deck

from . import kinds, readings, seal_files, services
from .models import Entry

FORMAT_NAME = "sefirot-journal"
FORMAT_VERSION = 1
MAX_IMPORT_BYTES = 20 * 1024 * 1024
MAX_IMPORT_ENTRIES = 5000


class ImportError_(ValueError):
    """An import file the journal cannot take; nothing was imported. The message is for a person."""


def entry_to_dict(entry: Entry) -> dict:
    return {
        "uid": str(entry.uid),
        "date": entry.date.isoformat(),
        "title": entry.title,
        "mode": entry.mode,
        "reading": entry.reading,
        "reflections": entry.reflections,
        "reflections_format": entry.reflections_format,
        "tags": [t.name for t in entry.tags.all()],
        "source_game": entry.source_game_id,
        "seals": [
            {"cards": s.cards, "words": s.words, "status": s.status,
             "files": {kind: Path(path).name for kind, path in sorted(s.files.items())}}
            for s in entry.seals.all()
        ],
    }


def journal_document(owner) -> dict:
    entries = Entry.objects.filter(owner=owner).order_by("date", "created", "id").prefetch_related("tags", "seals")
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "exported": timezone.now().isoformat(timespec="seconds"),
        "entries": [entry_to_dict(e) for e in entries],
    }


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:50] or "entry"


def card_line(card: str, reversed_: bool) -> str:
    return f"{deck.label(card)}{' (reversed)' if reversed_ else ''} \u2014 {deck.keyword(card)}"


def entry_markdown(entry_data: dict) -> str:
    lines = [f"# {entry_data['title']}", "", f"*{entry_data['date']} \u00b7 {kinds.label(entry_data['mode'])}*"]
    if entry_data["tags"]:
        lines.append(f"Tags: {', '.join(entry_data['tags'])}")
    reading = entry_data["reading"]
    for section in reading.get("sections", []):
        lines += ["", f"## {section.get('title') or 'Reading'}"]
        if section.get("about"):
            lines += ["", section["about"]]
        lines.append("")
        for pos in section.get("positions", []):
            head = f"- **{pos.get('label') or 'Card'}**"
            if pos.get("card"):
                head += f": {card_line(pos['card'], pos.get('reversed'))}"
            lines.append(head)
            if pos.get("question"):
                lines.append(f"  - *{pos['question']}*")
            for m in pos.get("minors", []):
                lines.append(f"  - with {card_line(m['card'], m.get('reversed'))}")
            if pos.get("note"):
                lines.append(f"  - {pos['note']}")
    if reading.get("story"):
        lines += ["", "## The tale", ""] + [f"> {line}" for line in reading["story"]]
    if reading.get("summary"):
        lines += ["", reading["summary"]]
    if entry_data["reflections"]:
        lines += ["", "## Reflections", "", entry_data["reflections"]]
    for seal in entry_data["seals"]:
        pairs = ", ".join(f"{deck.label(c)}: {w}" for c, w in zip(seal["cards"], seal["words"]))
        lines += ["", f"Seal: {pairs}"]
        for kind, name in seal["files"].items():
            lines.append(f"- [{kind}](../seals/{name})")
    return "\n".join(lines) + "\n"


def export_zip(owner, out) -> None:
    """Write the owner's whole journal as a zip to the binary file ``out``."""
    doc = journal_document(owner)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("journal.json", json.dumps(doc, ensure_ascii=False, indent=2))
        written: set[str] = set()
        for data in doc["entries"]:
            name = f"entries/{data['date']}-{_slug(data['title'])}-{data['uid'][:8]}.md"
            zf.writestr(name, entry_markdown(data))
            for seal in data["seals"]:
                for filename in seal["files"].values():
                    stored = seal_files.key(owner.pk, filename)
                    if filename not in written and seal_files.exists(stored):
                        # PNG, PDF and SVG are already compressed or tiny: store them as they are.
                        zf.writestr(f"seals/{filename}", seal_files.read(stored), compress_type=zipfile.ZIP_STORED)
                        written.add(filename)


def read_import(upload) -> dict:
    """The journal document from an uploaded journal.json or export zip."""
    if upload.size > MAX_IMPORT_BYTES:
        raise ImportError_(f"That file is larger than {MAX_IMPORT_BYTES // (1024 * 1024)} MB.")
    raw = upload.read()
    if raw[:4] == b"PK\x03\x04":
        try:
            with zipfile.ZipFile(io.BytesIO(raw)) as zf:
                info = zf.getinfo("journal.json")
                if info.file_size > MAX_IMPORT_BYTES:
                    raise ImportError_("The journal.json inside that zip is too large.")
                raw = zf.read(info)
        except KeyError:
            raise ImportError_("That zip has no journal.json in it.") from None
        except zipfile.BadZipFile:
            raise ImportError_("That zip file is damaged.") from None
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ImportError_(f"That is not a journal export (not valid JSON: {exc}).") from None
    except RecursionError:
        raise ImportError_("That is not a journal export (its JSON is nested far too deep).") from None
    if _depth(doc) > MAX_IMPORT_DEPTH:
        raise ImportError_("That is not a journal export (its JSON is nested far too deep).")
    return doc


MAX_IMPORT_DEPTH = 32  # an export nests about eight deep; saving much deeper would recurse


def _depth(value) -> int:
    """How deep lists and objects nest, counted without recursing."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if depth <= MAX_IMPORT_DEPTH:
                stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _entry_fields(i: int, data: object) -> dict:
    where = f"Entry {i + 1}"
    if not isinstance(data, dict):
        raise ImportError_(f"{where} is not an object.")
    try:
        uid = uuid.UUID(str(data.get("uid")))
    except ValueError:
        uid = uuid.uuid4()
    try:
        date = dt.date.fromisoformat(str(data.get("date")))
    except ValueError:
        raise ImportError_(f"{where}: {data.get('date')!r} is not a date (YYYY-MM-DD).") from None
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        raise ImportError_(f"{where} has no title.")
    mode = data.get("mode")
    if mode not in kinds.values():
        raise ImportError_(f"{where}: unknown kind of reading {mode!r}.")
    try:
        reading = readings.clean_reading(data.get("reading"))
    except readings.ReadingError as exc:
        raise ImportError_(f"{where} ({title}): {exc}") from None
    reflections = data.get("reflections") or ""
    fmt = data.get("reflections_format") or Entry.Format.TEXT
    if not isinstance(reflections, str) or fmt not in Entry.Format.values:
        raise ImportError_(f"{where}: reflections must be text, written as text or markdown.")
    try:
        tags = services.clean_tags(data.get("tags") or [])
    except ValueError as exc:
        raise ImportError_(f"{where}: {exc}") from None
    seals = []
    for seal in data.get("seals") or []:
        try:
            seals.append(services.clean_seal_input(list(seal.get("cards", [])), list(seal.get("words", []))))
        except (ValueError, AttributeError, TypeError) as exc:
            raise ImportError_(f"{where}: a seal is not valid ({exc}).") from None
    return {"uid": uid, "date": date, "title": title, "mode": mode, "reading": reading,
            "reflections": reflections, "reflections_format": fmt, "tags": tags, "seals": seals}


def import_document(owner, doc: object) -> dict:
    """Add the document's entries to ``owner``'s journal, all or nothing.

    Entries already in the journal (same uid, e.g. a second import of one file) are
    skipped.  Returns counts for the page to report.
    """
    if not isinstance(doc, dict) or doc.get("format") != FORMAT_NAME:
        raise ImportError_("That is not a Sefirot journal export.")
    if doc.get("version") != FORMAT_VERSION:
        raise ImportError_(f"This site reads journal exports of version {FORMAT_VERSION}, not {doc.get('version')!r}.")
    entries = doc.get("entries")
    if not isinstance(entries, list):
        raise ImportError_("The export has no list of entries.")
    if len(entries) > MAX_IMPORT_ENTRIES:
        raise ImportError_(f"At most {MAX_IMPORT_ENTRIES} entries can be imported at once.")
    # Check everything first, so a bad entry at the end leaves the journal untouched.
    cleaned = [_entry_fields(i, data) for i, data in enumerate(entries)]
    known = set(Entry.objects.filter(owner=owner).values_list("uid", flat=True))
    added = skipped = seals = 0
    with transaction.atomic():
        for fields in cleaned:
            if fields["uid"] in known:
                skipped += 1
                continue
            seal_inputs = fields.pop("seals")
            entry = services.create_entry(owner, **fields)
            known.add(entry.uid)
            for cards, words in seal_inputs:
                services.request_seal(entry, cards, words)
                seals += 1
            added += 1
    return {"added": added, "skipped": skipped, "seals": seals}


def seal_file_key(seal, kind: str) -> str | None:
    """The storage key of one of the seal's files, if it has been drawn and is there."""
    stored = (seal.files or {}).get(kind)
    return stored if stored and seal_files.exists(stored) else None


def seal_file_path(seal, kind: str) -> Path | None:
    """The file on local disk (local storage only; for tests and tools)."""
    stored = seal_file_key(seal, kind)
    return Path(seal_files.storage().path(stored)) if stored and seal_files.is_local() else None


# --- one entry as PDF ----------------------------------------------------------------------


def _pdf_fonts() -> tuple[str, str, str]:
    """DejaVu Serif from the seal fonts (any script a reflection may hold), registered once."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    from .seals.fonts import font_dir

    names = ("JournalSerif", "JournalSerif-Bold", "JournalSerif-Italic")
    files = ("DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSerif-Italic.ttf")
    registered = pdfmetrics.getRegisteredFontNames()
    for name, filename in zip(names, files):
        if name not in registered:
            path = font_dir() / filename
            if not path.is_file():  # no italic cut installed: fall back to the roman
                path = font_dir() / files[0]
            pdfmetrics.registerFont(TTFont(name, str(path)))
    return names


REFLECTION_LINES_PER_PIECE = 12


def entry_pdf(entry: Entry) -> bytes:
    """One entry on A4: title, the reading position by position, reflections, seal inputs."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer
    from xml.sax.saxutils import escape as x

    roman, bold, italic = _pdf_fonts()
    body = ParagraphStyle("body", fontName=roman, fontSize=10.5, leading=14)
    small = ParagraphStyle("small", parent=body, fontSize=9, leading=12, textColor=colors.HexColor("#555555"))
    h1 = ParagraphStyle("h1", parent=body, fontName=bold, fontSize=18, leading=22, spaceAfter=4)
    h2 = ParagraphStyle("h2", parent=body, fontName=bold, fontSize=13, leading=17, spaceBefore=10, spaceAfter=4)
    card_style = ParagraphStyle("card", parent=body, leftIndent=6 * mm)
    question = ParagraphStyle("question", parent=body, fontName=italic, leftIndent=6 * mm)

    data = entry_to_dict(entry)
    story = [Paragraph(x(entry.title), h1),
             Paragraph(x(f"{entry.date.isoformat()} \u00b7 {entry.get_mode_display()}"
                         + (f" \u00b7 tags: {', '.join(data['tags'])}" if data["tags"] else "")), small)]
    reading = entry.reading
    for section in reading.get("sections", []):
        story.append(Paragraph(x(section.get("title") or "The reading"), h2))
        if section.get("about"):
            story.append(Paragraph(x(section["about"]), small))
        for pos in section.get("positions", []):
            line = f"<font name='{bold}'>{x(pos.get('label') or 'Card')}</font>"
            if pos.get("card"):
                line += ": " + x(card_line(pos["card"], pos.get("reversed")))
            story.append(Paragraph(line, body))
            if pos.get("question"):
                story.append(Paragraph(x(pos["question"]), question))
            for m in pos.get("minors", []):
                story.append(Paragraph("with " + x(card_line(m["card"], m.get("reversed"))), card_style))
            if pos.get("note"):
                story.append(Paragraph(x(pos["note"]), ParagraphStyle("note", parent=small, leftIndent=6 * mm)))
            story.append(Spacer(0, 2 * mm))
    if reading.get("story"):
        story.append(Paragraph("The tale", h2))
        story += [Paragraph(x(line), body) for line in reading["story"]]
    if reading.get("summary"):
        story.append(Paragraph(x(reading["summary"]), small))
    if entry.reflections:
        story.append(Paragraph("Reflections", h2))
        # Written text, kept as the writer typed it: paragraphs and line breaks, no markup.
        # A paragraph of many <br/> lines is laid out again at every page it runs onto,
        # which made a long reflection quadratic (19 s at 8,000 lines); in pieces of a few
        # lines each, every piece is laid out about once.
        for para in entry.reflections.replace("\r\n", "\n").split("\n\n"):
            lines = [x(line) for line in para.split("\n")]
            for start in range(0, len(lines), REFLECTION_LINES_PER_PIECE):
                piece = lines[start:start + REFLECTION_LINES_PER_PIECE]
                story.append(Paragraph("<br/>".join(piece), body))
            story.append(Spacer(0, 2 * mm))
    if data["seals"]:
        story.append(Paragraph("Seals", h2))
        for seal in data["seals"]:
            pairs = ", ".join(f"{deck.label(c)}: {w}" for c, w in zip(seal["cards"], seal["words"]))
            story.append(Paragraph(x(pairs), body))

    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=A4, leftMargin=20 * mm, rightMargin=20 * mm, topMargin=18 * mm,
                            bottomMargin=18 * mm, title=entry.title, author=str(entry.owner),
                            subject="Sefirot Online journal entry", invariant=1)
    doc.build(story)
    return out.getvalue()
