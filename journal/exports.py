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


def _holds_nul(value: object) -> bool:
    """Whether a NUL character hides anywhere in ``value``, keys included (PostgreSQL
    refuses it in text and in JSON alike, so it is refused here on every database)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _entry_fields(i: int, data: object) -> dict:
    where = f"Entry {i + 1}"
    if not isinstance(data, dict):
        raise ImportError_(f"{where} is not an object.")
    for key, value in data.items():
        if _holds_nul(key) or _holds_nul(value):
            what = key if key in ("title", "reflections", "reading", "tags", "seals") else "data"
            raise ImportError_(f"{where}: its {what} contains a NUL character (\\u0000), which a journal "
                               "cannot store.")
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
    title = title.strip()
    if len(title) > services.MAX_TITLE:
        raise ImportError_(f"{where}: its title is longer than {services.MAX_TITLE} characters.")
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
    if len(reflections) > services.MAX_REFLECTIONS:
        raise ImportError_(f"{where} ({title}): its reflections are longer than {services.MAX_REFLECTIONS:,} "
                           "characters, the most an entry holds.")
    tags = data.get("tags") or []
    if not isinstance(tags, list) or not all(isinstance(tag, str) for tag in tags):
        raise ImportError_(f"{where} ({title}): its tags must be a list of words.")
    too_long = next((tag for tag in tags if len(" ".join(tag.split())) > services.MAX_TAG_LENGTH), None)
    if too_long is not None:
        raise ImportError_(f"{where} ({title}): the tag \u201c{too_long[:services.MAX_TAG_LENGTH]}\u2026\u201d is "
                           f"longer than {services.MAX_TAG_LENGTH} characters.")
    try:
        tags = services.clean_tags(tags)
    except ValueError as exc:
        raise ImportError_(f"{where} ({title}): {exc}") from None
    seals_in = data.get("seals") or []
    if not isinstance(seals_in, list):
        raise ImportError_(f"{where} ({title}): its seals must be a list.")
    if len(seals_in) > services.MAX_SEALS_PER_ENTRY:
        raise ImportError_(f"{where} ({title}) has {len(seals_in)} seals; an entry holds at most "
                           f"{services.MAX_SEALS_PER_ENTRY}.")
    seals = []
    for seal in seals_in:
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

# What of the Markdown's HTML a PDF paragraph keeps (reportlab's own tags), and how.
_PDF_TAGS = {"strong": "b", "b": "b", "em": "i", "i": "i", "del": "strike"}


def _pdf_markup(html: str) -> str:
    """HTML made by the journal's Markdown pipeline (already cleaned by nh3) as reportlab
    paragraph markup: bold, italic and struck text kept, paragraphs and line breaks as
    breaks, every other tag dropped with its text kept."""
    import nh3

    html = re.sub(r"</p>\s*<p>|<br\s*/?>", "<br>", str(html).strip())
    html = re.sub(r"<(/?)(strong|b|em|i|del)>", lambda m: f"<{m.group(1)}{_PDF_TAGS[m.group(2)]}>", html)
    kept = nh3.clean(html, tags={"b", "i", "strike", "br"}, attributes={})
    return kept.replace("<br>", "<br/>")


# The seal's picture in an entry's PDF: the worker's square PNG (300 dpi at 10 cm, so finer
# than print needs at this size).
SEAL_PICTURE_KIND = "png-10cm"
SEAL_PICTURE_MM = 70


def _seal_picture(seal):
    """The seal's rendered picture as a flowable, or None while it is not drawn (the PDF
    is made in the request: it never draws a seal itself, it takes the worker's file)."""
    from reportlab.lib.units import mm
    from reportlab.platypus import Image

    stored = seal_file_key(seal, SEAL_PICTURE_KIND) if seal.status == seal.Status.DONE else None
    if stored is None:
        return None
    picture = Image(io.BytesIO(seal_files.read(stored)), width=SEAL_PICTURE_MM * mm, height=SEAL_PICTURE_MM * mm)
    picture.hAlign = "LEFT"
    return picture


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
        if entry.mode == kinds.WIZARDS:  # Markdown, as on the entry's page (services.render_tale)
            story += [Paragraph(_pdf_markup(html), body) for html in services.render_tale(entry)]
        else:
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
        for seal in entry.seals.all():
            pairs = ", ".join(f"{deck.label(c)}: {w}" for c, w in zip(seal.cards, seal.words))
            picture = _seal_picture(seal)
            if picture is not None:
                story += [picture, Spacer(0, 2 * mm)]
            story.append(Paragraph(x(pairs) if picture is not None
                                   else x(pairs) + " <i>(its picture is not drawn yet)</i>", body))

    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=A4, leftMargin=20 * mm, rightMargin=20 * mm, topMargin=18 * mm,
                            bottomMargin=18 * mm, title=entry.title, author=str(entry.owner),
                            subject="Sefirot Online journal entry", invariant=1)
    doc.build(story)
    return out.getvalue()
