"""Journal pages: thin function views (an access check, one service call, a render).

Every view that names an entry goes through ``services.entry_for_owner`` (404 for anyone
but the owner) or, for shared pages, ``services.entry_for_share_token``.  Seal files are
only ever served by these views, never from MEDIA_URL.
"""

from __future__ import annotations

import base64
import datetime as dt
import tempfile

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.engine import cards as deck

from . import seal_files, exports, forms, readings, services
from .models import Entry, Seal

CONTENT_TYPES = {"png": "image/png", "pdf": "application/pdf", "svg": "image/svg+xml"}


def _partial(request, template: str, name: str) -> str:
    # The same template serves the full page and, for htmx, just the region it swaps.
    return f"{template}#{name}" if request.htmx else template


# --- list, search, statistics --------------------------------------------------------------


@login_required
@require_GET
def entry_list(request):
    form = forms.SearchForm(request.GET or None)
    filters = form.cleaned_data if form.is_bound and form.is_valid() else {}
    entries = services.search(
        request.user, text=filters.get("q", ""), card=filters.get("card", ""),
        tag=filters.get("tag", ""), mode=filters.get("mode", ""),
    ).only("id", "title", "date", "mode")  # what a line of the list shows, not the readings
    page = Paginator(entries, 20).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, _partial(request, "journal/list.html", "results"), {
        "form": form, "page": page, "query": query.urlencode(), "searching": any(filters.values()),
        "tags": request.user.journal_tags.all(),
    })


def _stats_period(form: forms.StatsForm) -> tuple[dt.date | None, dt.date | None, str]:
    today = timezone.localdate()
    period = (form.cleaned_data.get("period") if form.is_valid() else "") or form.DEFAULT_PERIOD
    if period == "custom":
        return form.cleaned_data.get("start"), form.cleaned_data.get("end"), period
    if period == "all":
        return None, None, period
    return today - dt.timedelta(days=int(period)), today, period


@login_required
@require_GET
def statistics(request):
    form = forms.StatsForm(request.GET or None)
    start, end, period = _stats_period(form)
    stats = services.card_statistics(request.user, start, end)
    return render(request, _partial(request, "journal/stats.html", "chart"), {
        "form": form, "stats": stats, "start": start, "end": end, "period": period,
        "chart": services.bar_chart(stats),
    })


# --- one entry ---------------------------------------------------------------------------


def _entry_context(entry: Entry, *, shared: bool = False) -> dict:
    return {
        "entry": entry,
        "reading": entry.reading,
        "reflections_html": services.render_reflections(entry.reflections, entry.reflections_format),
        "tale": services.render_tale(entry),
        "seals": [
            {"seal": s, "files": services.seal_files(s, entry.share_token if shared else None)}
            for s in entry.seals.all() if not shared or s.status == Seal.Status.DONE
        ],
        "shared": shared,
    }


@login_required
@require_GET
def entry_detail(request, pk):
    entry = services.entry_for_owner(request.user, pk)
    return render(request, "journal/entry.html", _entry_context(entry))


@login_required
@require_http_methods(["GET", "POST"])
def entry_edit(request, pk):
    entry = services.entry_for_owner(request.user, pk)
    if request.method == "POST":
        form = forms.EntryForm(request.POST)
        if form.is_valid():
            services.update_entry(entry, **form.cleaned_data)
            if request.htmx:
                entry.refresh_from_db()
                return render(request, "journal/entry.html#reflections", _entry_context(entry))
            messages.success(request, "Entry saved.")
            return redirect(entry)
        if request.htmx and request.htmx.target == "reflections":
            # Refused from the entry page's reflections form: that region again, saying
            # why, with what was typed kept (not the edit page's form in its place).
            refused = " ".join(error for errors in form.errors.values() for error in errors)
            return render(request, "journal/entry.html#reflections",
                          {**_entry_context(entry), "refused": refused, "typed": form.data.get("reflections", "")},
                          status=400)
    else:
        form = forms.EntryForm(initial={
            "title": entry.title, "date": entry.date, "reflections": entry.reflections,
            "reflections_format": entry.reflections_format, "tags": ", ".join(t.name for t in entry.tags.all()),
        })
    status = 400 if form.errors else 200
    return render(request, _partial(request, "journal/edit.html", "form"), {"entry": entry, "form": form},
                  status=status)


@login_required
@require_POST
def entry_delete(request, pk):
    entry = services.entry_for_owner(request.user, pk)
    services.delete_entry(entry)
    messages.success(request, f"\u201c{entry.title}\u201d was deleted.")
    return redirect("journal:list")


@login_required
@require_POST
def entry_share(request, pk):
    entry = services.entry_for_owner(request.user, pk)
    if request.POST.get("action") == "revoke":
        entry = services.revoke_share(entry)
        messages.success(request, "The share link no longer works.")
    else:
        entry = services.share(entry)
        messages.success(request, "Anyone with the link below can now read this entry.")
    if request.htmx:
        return render(request, "journal/entry.html#sharing", {"entry": entry})
    return redirect(entry)


@require_GET
def shared_entry(request, token):
    entry = services.entry_for_share_token(token)
    return render(request, "journal/entry.html", _entry_context(entry, shared=True))


@login_required
@require_GET
def entry_pdf(request, pk):
    entry = services.entry_for_owner(request.user, pk)
    data = exports.entry_pdf(entry)
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="journal-{entry.date}-{entry.pk}.pdf"'
    return response


# --- new entries -------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def new_entry(request):
    """Record a reading from a physical deck: the spread gives the positions to fill."""
    spread = request.POST.get("spread") or request.GET.get("spread") or "three"
    if spread != "free" and spread not in readings.SPREADS:
        spread = "three"
    if request.method == "POST":
        header = forms.ManualHeaderForm(request.POST)
        rows = forms.ManualRowFormSet(request.POST, prefix="row")
        if header.is_valid() and rows.is_valid():
            layout = readings.SPREADS.get(spread)
            filled = []
            for i, row in enumerate(rows.cleaned_data):
                if not row.get("card"):
                    continue
                position = layout.positions[i] if layout and i < len(layout.positions) else None
                if position and position.majors_only and not deck.is_major(row["card"]):
                    header.add_error(None, f"{position.label} takes a Major; {deck.label(row['card'])} is a Minor.")
                filled.append({
                    "id": position.id if position else f"p{i + 1}",
                    "label": row.get("label") or (position.label if position else ""),
                    "question": position.question if position else "",
                    "card": row["card"], "reversed": row.get("reversed"), "minors": row.get("minors", []),
                    "minors_reversed": row.get("minors_reversed", []),
                })
            cards = [r["card"] for r in filled] + [m for r in filled for m in r["minors"]]
            if not filled:
                header.add_error(None, "Pick at least one card.")
            elif len(set(cards)) != len(cards):
                header.add_error(None, "A card appears twice; a deck holds each card once.")
            elif header.is_valid():
                try:
                    entry = services.record_manual(request.user, spread=spread, rows=filled,
                                                   title=header.cleaned_data["title"],
                                                   date=header.cleaned_data["date"], tags=header.cleaned_data["tags"])
                except readings.ReadingError as exc:  # the reading's own limits, said plainly
                    header.add_error(None, str(exc))
                else:
                    messages.success(request, "Reading recorded. Add your reflections whenever you like.")
                    return redirect(entry)
    else:
        header = forms.ManualHeaderForm(initial={"spread": spread, "date": timezone.localdate()})
        positions = readings.SPREADS[spread].positions if spread in readings.SPREADS else ()
        initial = [{"label": p.label} for p in positions] or [{} for _ in range(3)]
        if spread == "free":
            initial = [{} for _ in range(readings.FREE_SPREAD_MAX)]
        rows = forms.ManualRowFormSet(prefix="row", initial=initial)
    questions = [p.question for p in readings.SPREADS[spread].positions] if spread in readings.SPREADS else []
    return render(request, "journal/new.html", {
        "header": header, "rows": rows, "spread": spread, "spreads": readings.SPREADS.values(),
        "questions": questions, "draw_form": forms.DrawForm(initial={"spread": "three", "reversals": True}),
    }, status=400 if request.method == "POST" else 200)


@login_required
@require_POST
def draw_entry(request):
    form = forms.DrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a spread to draw.")
        return redirect("journal:new")
    entry = services.record_drawn(request.user, spread=form.cleaned_data["spread"],
                                  reversals=form.cleaned_data["reversals"], title=form.cleaned_data["title"],
                                  tags=form.cleaned_data["tags"])
    return redirect(entry)


# --- seals -------------------------------------------------------------------------------


def _preview_svg(cards: list[str], words: list[str]) -> str | None:
    """The renderer's SVG as a data: URL for an <img>, so nothing in it can run as script."""
    from .seals import render_seal

    try:
        svg = render_seal(cards, words, "svg", services.PREVIEW_SIZE)
    except ValueError:
        return None
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode()


@login_required
@require_http_methods(["GET", "POST"])
def seal_new(request, pk):
    entry = services.entry_for_owner(request.user, pk)
    form = forms.SealForm(request.POST or None, entry=entry)
    if request.method == "POST" and form.is_valid():
        try:
            seal = services.request_seal(entry, form.cleaned_data["cards"], form.cleaned_data["words"])
        except ValueError as exc:  # the entry's own limits (its number of seals), said plainly
            form.add_error(None, str(exc))
        else:
            return redirect(seal)
    cards, words = (form.cleaned_data["cards"], form.cleaned_data["words"]) if form.is_bound and form.is_valid() \
        else form.initial_pairs
    return render(request, "journal/seal_new.html", {
        "entry": entry, "form": form, "preview": _preview_svg(cards, words), "pairs": list(zip(cards, words)),
    }, status=400 if form.errors else 200)


@login_required
@require_POST
def seal_preview(request, pk):
    """The live preview: htmx posts the form on every change and swaps this region."""
    entry = services.entry_for_owner(request.user, pk)
    form = forms.SealForm(request.POST, entry=entry)
    if form.is_valid():
        cards, words = form.cleaned_data["cards"], form.cleaned_data["words"]
        context = {"preview": _preview_svg(cards, words), "pairs": list(zip(cards, words))}
    else:
        context = {"preview": None, "pairs": [], "preview_error": " ".join(form.non_field_errors())}
    return render(request, "journal/seal_new.html#preview", {"entry": entry, **context})


@login_required
@require_GET
def seal_detail(request, pk, seal_pk):
    entry = services.entry_for_owner(request.user, pk)
    seal = services.seal_of_entry(entry, seal_pk)
    return render(request, _partial(request, "journal/seal.html", "progress"), services.seal_context(seal))


@login_required
@require_POST
def seal_retry(request, pk, seal_pk):
    entry = services.entry_for_owner(request.user, pk)
    seal = services.retry_seal(services.seal_of_entry(entry, seal_pk))
    if request.htmx:
        return render(request, "journal/seal.html#progress", services.seal_context(seal))
    return redirect(seal)


def _file_response(seal: Seal, kind: str, entry: Entry):
    stored = exports.seal_file_key(seal, kind)
    if stored is None:
        raise Http404("That file has not been rendered.")
    fmt, _, size = kind.partition("-")
    filename = services.seal_download_name(entry, seal, fmt, size)
    # Streamed from local disk, or a redirect to a short-lived signed URL of the bucket:
    # either way only after the access checks of the view that called this.
    response = seal_files.download(stored, filename, CONTENT_TYPES.get(fmt, "application/octet-stream"))
    # Belt and braces for SVG: even opened directly, nothing in it may run.
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
def seal_file(request, pk, seal_pk, kind):
    entry = services.entry_for_owner(request.user, pk)
    return _file_response(services.seal_of_entry(entry, seal_pk), kind, entry)


@require_GET
def shared_seal_file(request, token, seal_pk, kind):
    entry = services.entry_for_share_token(token)
    return _file_response(services.seal_of_entry(entry, seal_pk), kind, entry)


# --- keeping -----------------------------------------------------------------------------


@login_required
@require_GET
def export(request):
    # A spooled file: small journals stay in memory, large ones go to disk, not the heap.
    out = tempfile.SpooledTemporaryFile(max_size=8 * 1024 * 1024)
    exports.export_zip(request.user, out)
    out.seek(0)
    stamp = timezone.localdate().isoformat()
    return FileResponse(out, as_attachment=True, filename=f"sefirot-journal-{stamp}.zip",
                        content_type="application/zip")


@login_required
@require_http_methods(["GET", "POST"])
def import_journal(request):
    form = forms.ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            counts = exports.import_document(request.user, exports.read_import(form.cleaned_data["file"]))
        except exports.ImportError_ as exc:
            form.add_error("file", str(exc))
        else:
            note = f"Imported {counts['added']} entr{'y' if counts['added'] == 1 else 'ies'}"
            if counts["skipped"]:
                note += f"; {counts['skipped']} already in your journal were left as they are"
            if counts["seals"]:
                note += f"; {counts['seals']} seal(s) are being drawn again"
            messages.success(request, note + ".")
            return redirect("journal:list")
    return render(request, "journal/import.html", {"form": form}, status=400 if form.errors else 200)

