"""A character sheet as a printable PDF, laid out the way the journal prints an entry
(reportlab, the journal's DejaVu fonts)."""

from __future__ import annotations

import io
from xml.sax.saxutils import escape as x

from games.engine import cards as deck
from games.engine.tarot_wizards import characters as ch
from journal.exports import _pdf_fonts

from .models import Character


def card_words(card: str, reversed_: bool) -> str:
    return deck.name(card) + (" (reversed)" if reversed_ else "")


def sheet_pdf(character: Character) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

    roman, bold, italic = _pdf_fonts()
    body = ParagraphStyle("body", fontName=roman, fontSize=10.5, leading=14)
    small = ParagraphStyle("small", parent=body, fontSize=9, leading=12, textColor=colors.HexColor("#555555"))
    h1 = ParagraphStyle("h1", parent=body, fontName=bold, fontSize=18, leading=22, spaceAfter=4)
    h2 = ParagraphStyle("h2", parent=body, fontName=bold, fontSize=13, leading=17, spaceBefore=10, spaceAfter=4)
    indent = ParagraphStyle("indent", parent=body, leftIndent=6 * mm)
    meaning = ParagraphStyle("meaning", parent=small, fontName=italic, leftIndent=6 * mm)

    story = [Paragraph(x(character.name), h1),
             Paragraph(x(f"Played by {character.owner} at {character.table.name}"), small),
             Paragraph("The creation spread", h2)]
    if character.spread_drawn_by_site:
        story.append(Paragraph("Drawn by the site.", small))
    for row in character.spread:
        story.append(Paragraph(f"<font name='{bold}'>{x(ch.position_label(row['position']))}</font>: "
                               + x(card_words(row["card"], row.get("reversed"))), body))
        story.append(Paragraph(x(ch.position_meaning(row["position"])), meaning))
        if row.get("note"):
            story.append(Paragraph(x(row["note"]), indent))
        story.append(Spacer(0, 2 * mm))
    story.append(Paragraph("Skills", h2))
    story += [Paragraph(x(f"{skill} (from the card {ch.position_label(pid).lower()})"), body)
              for pid, skill in character.skills.items()]
    story += [Paragraph(x(f"{skill} (learnt in play)"), body) for skill in character.extra_skills]
    story.append(Paragraph("Practice" + (f": {x(character.practice_name)}" if character.practice_name else ""), h2))
    for suit in ch.SUITS:
        prime = " \u2014 Prime Aspect" if suit == character.prime else ""
        story.append(Paragraph(x(f"{deck.SUIT_NAMES[suit]}: {character.practice.get(suit, '')}{prime}"), body))
    story.append(Paragraph("Wounds and Scars", h2))
    story.append(Paragraph(x(f"Wounds: {character.wounds} \u00b7 Scars: {character.scars}"
                             + (" \u00b7 dead" if character.dead else "")), body))
    if character.notes:
        story.append(Paragraph("Notes", h2))
        story += [Paragraph(x(p).replace("\n", "<br/>"), body) for p in character.notes.split("\n\n")]
    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=A4, leftMargin=20 * mm, rightMargin=20 * mm, topMargin=18 * mm,
                            bottomMargin=18 * mm, title=character.name, author=str(character.owner),
                            subject="Tarot wizards character sheet", invariant=1)
    doc.build(story)
    return out.getvalue()
