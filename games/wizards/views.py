"""The tarot wizards pages: thin views over ``services``.  Every view starts with an
access helper (``table_for``, ``session_for``, ``character_for``), which answers 404 to
anyone who is not at the table; a session page is drawn from ``view(state, viewer)``
alone, so hidden cards never reach a page, a partial or an export of anyone else."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.engine import cards as deck
from games.engine.tarot_wizards import characters as ch
from games.engine.tarot_wizards import session as rules
from journal.services import render_reflections

from . import services, sheets
from .forms import CharacterForm, InviteForm, TableForm, move_from_post
from .models import Member, PlaySession, Table

REGIONS = ("status", "table", "hand", "secret", "log", "acts", "poll")
POLL_EVERY = "3s"


# --- tables -------------------------------------------------------------------------------


@login_required
@require_GET
def table_list(request):
    tables = (Table.objects.filter(Q(gm=request.user) | Q(members__user=request.user,
                                                          members__status=Member.Status.JOINED))
              .distinct().select_related("gm"))
    invitations = Member.objects.filter(user=request.user, status=Member.Status.INVITED).select_related("table",
                                                                                                      "table__gm")
    return render(request, "wizards/list.html", {"tables": tables, "invitations": invitations, "form": TableForm()})


@login_required
@require_POST
def table_new(request):
    form = TableForm(request.POST)
    if not form.is_valid():
        return render(request, "wizards/list.html", {"tables": [], "invitations": [], "form": form}, status=400)
    table = services.create_table(request.user, **form.cleaned_data)
    return redirect(table)


@login_required
@require_GET
def table_page(request, table_id):
    table, role = services.table_for(request.user, table_id, joined=False)
    if role == "invited":
        member = next(m for m in table.members.all() if m.user_id == request.user.pk)
        return redirect("wizards:invitation", member.token)
    return render(request, "wizards/table.html", _table_context(request, table, role))


def _table_context(request, table, role, invite_form=None):
    me = request.user
    members = [{"name": "you" if m.user_id == me.pk else m.name, "status": m.get_status_display()}
               for m in table.members.all() if m.status != Member.Status.DECLINED]
    characters = [{"character": c, "player": "you" if c.owner_id == me.pk else str(c.owner)}
                  for c in table.characters.select_related("owner")]
    return {"table": table, "role": role, "gm_name": "you" if role == "gm" else str(table.gm),
            "members": members, "characters": characters, "sessions": table.sessions.all(),
            "mine": next((c["character"] for c in characters if c["character"].owner_id == me.pk), None),
            "live": table.sessions.filter(status=PlaySession.Status.LIVE).first(),
            "invite_form": invite_form or InviteForm()}


@login_required
@require_POST
def invite(request, table_id):
    table, role = services.table_for(request.user, table_id)
    form = InviteForm(request.POST)
    status = 200
    if form.is_valid():
        try:
            member = services.invite(table, request.user, form.cleaned_data["who"])
        except services.Refused as error:
            form.add_error("who", str(error))
            status = 400
        else:
            messages.success(request, f"{member.name} is invited.")
            return redirect(table)
    else:
        status = 400
    table, role = services.table_for(request.user, table_id)
    return render(request, "wizards/table.html", _table_context(request, table, role, form), status=status)


@login_required
@require_http_methods(["GET", "POST"])
def invitation(request, token):
    member = services.invitation_for(request.user, token)
    if request.method == "POST":
        try:
            services.answer_invitation(member, request.user, accept=request.POST.get("answer") == "accept")
        except services.Refused as error:
            return render(request, "wizards/invitation.html", {"member": member, "error": str(error)}, status=400)
        if request.POST.get("answer") == "accept":
            return redirect(member.table)
        return redirect("wizards:list")
    return render(request, "wizards/invitation.html", {"member": member, "gm": str(member.table.gm)})


# --- characters ---------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def character_edit(request, table_id):
    table, role = services.table_for(request.user, table_id)
    character = table.characters.filter(owner=request.user).first()
    fixed = bool(character and character.spread)
    if request.method == "GET":
        form = CharacterForm(initial=_character_initial(character), spread_fixed=fixed)
        return render(request, "wizards/character_form.html", _character_context(table, character, form))
    form = CharacterForm(request.POST, spread_fixed=fixed)
    status = 400
    if form.is_valid():
        data = form.cleaned_data
        practice_name, practice = form.practice()
        physical = data.get("spread_source") == "physical"
        spread = [{"card": data.get(f"card_{pid}", "").strip(), "reversed": data.get(f"reversed_{pid}", False)}
                  for pid in ch.POSITION_IDS] if physical else None
        seed = None if physical or fixed else services.creation_seed(table, request.user)
        try:
            character = services.save_character(
                table, request.user, name=data["name"], spread=spread, drawn_seed=seed,
                notes={pid: data.get(f"note_{pid}", "") for pid in ch.POSITION_IDS},
                skills={pid: data.get(f"skill_{pid}", "") for pid in ch.SKILL_POSITIONS},
                practice_name=practice_name, practice=practice, prime=data["prime"],
                sheet_notes=data.get("sheet_notes", ""), extra_skills=data.get("extra_skills", "").splitlines())
        except services.Refused as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, "Your wizard is saved.")
            return redirect(character)
    return render(request, "wizards/character_form.html", _character_context(table, character, form), status=status)


def _character_initial(character) -> dict:
    if character is None:
        return {"prime": "s"}
    initial = {"name": character.name, "practice_name": character.practice_name, "prime": character.prime,
               "sheet_notes": character.notes, "extra_skills": "\n".join(character.extra_skills)}
    if character.practice_name in ch.PRACTICES:  # its aspects below, as the player kept or changed them
        initial["practice_choice"] = character.practice_name
    initial.update({f"aspect_{s}": a for s, a in character.practice.items()})
    initial.update({f"note_{r['position']}": r.get("note", "") for r in character.spread})
    initial.update({f"skill_{pid}": s for pid, s in character.skills.items()})
    return initial


def _character_context(table, character, form) -> dict:
    spread = [{"row": r, "label": ch.position_label(r["position"]), "meaning": ch.position_meaning(r["position"]),
               "name": sheets.card_words(r["card"], r.get("reversed"))} for r in (character.spread if character else [])]
    fields = form.fields if form is not None else {}
    card_rows = [{"card": form[f"card_{pid}"], "reversed": form[f"reversed_{pid}"] if f"reversed_{pid}" in fields else None}
                 for pid in ch.POSITION_IDS if f"card_{pid}" in fields]
    note_rows = [{"note": form[f"note_{pid}"], "skill": form[f"skill_{pid}"] if f"skill_{pid}" in fields else None}
                 for pid in ch.POSITION_IDS if f"note_{pid}" in fields]
    return {"table": table, "character": character, "form": form, "spread": spread, "card_rows": card_rows,
            "note_rows": note_rows,
            "positions": [{"id": p[0], "label": p[1], "meaning": p[2], "skill": p[3]} for p in ch.POSITIONS],
            "practices": ch.PRACTICES}


@login_required
@require_GET
def sheet(request, character_id):
    character = services.character_for(request.user, character_id)
    return render(request, "wizards/sheet.html", {
        "character": character, "mine": character.owner_id == request.user.pk,
        "player": "you" if character.owner_id == request.user.pk else str(character.owner),
        "spread": _character_context(character.table, character, None)["spread"],
        "skills": [{"skill": s, "from": ch.position_label(pid).lower()} for pid, s in character.skills.items()],
        "aspects": [{"suit": deck.SUIT_NAMES[s], "aspect": character.practice.get(s, ""), "prime": s == character.prime}
                    for s in ch.SUITS],
    })


@login_required
@require_GET
def sheet_pdf(request, character_id):
    character = services.character_for(request.user, character_id)
    response = HttpResponse(sheets.sheet_pdf(character), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="wizard-{character.pk}.pdf"'
    return response


@login_required
@require_GET
def sheet_json(request, character_id):
    character = services.character_for(request.user, character_id)
    response = JsonResponse(services.character_document(character), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="wizard-{character.pk}.json"'
    return response


# --- sessions -----------------------------------------------------------------------------


@login_required
@require_POST
def session_start(request, table_id):
    table, role = services.table_for(request.user, table_id)
    try:
        session = services.start_session(table, request.user, title=request.POST.get("title", ""))
    except services.Refused as error:
        messages.error(request, str(error))
        response = render(request, "wizards/table.html", _table_context(request, table, role), status=400)
        return response
    return redirect(session)


def _card(code: str, index: int | None = None) -> dict:
    return {"code": code, "name": deck.name(code), "value": rules.card_value(code), "index": index,
            "major": deck.is_major(code)}


def session_context(request, session: PlaySession, key: str, *, message: str = "") -> dict:
    """What the page shows ``key``: drawn from the engine's view for that key alone."""
    table = session.table
    names = services.names_at(table, session)
    view = rules.view(session.state, key)

    def who(k):
        return "you" if k == key else names.get(k, "someone")

    players = [{"key": k, "who": who(k), "character": a["name"], "wounds": a["wounds"], "scars": a["scars"],
                "hand_size": a["hand_size"], "incapacitated": a["incapacitated"], "dead": a["dead"],
                "asked": k in view["asked"], "skills": a["skills"]}
               for k, a in view["actors"].items() if a["kind"] == "player"]
    enemies = []
    for eid, e in view["enemies"].items():
        actor = view["actors"].get(eid)
        enemies.append({"id": eid, "name": e["name"], "kind": e["kind"], "defeated": e["defeated"],
                        "face_up": _card(e["face_up"]) if e["face_up"] else None, "face_down": e["face_down"],
                        "overcome": [_card(c) for c in e["overcome"]],
                        "pile": [_card(c) for c in e["pile"]] if e["pile"] is not None else None,
                        "hand": [_card(c, n) for n, c in enumerate(actor["hand"], 1)] if actor and actor["hand"] is not None else None,
                        "hand_size": actor["hand_size"] if actor else 0,
                        "wounds": actor["wounds"] if actor else 0})
    me = view["actors"].get(key)
    hand = [_card(c, n) for n, c in enumerate(me["hand"], 1)] if me else []
    challenge = view["challenge"]
    log = services.log_lines(session, key, names)
    for line in log:
        line["narration_html"] = render_reflections(line["narration"], "markdown") if line["narration"] else ""
    return {
        "session": session, "table": table, "key": key, "is_gm": key == rules.GM, "view": view,
        "gm_who": who(rules.GM), "players": players, "enemies": enemies, "me": me, "hand": hand,
        "gm_hand": [_card(c, n) for n, c in enumerate(view["gm_hand"], 1)] if view["gm_hand"] is not None else None,
        "challenge": challenge and {**challenge, "card_name": deck.name(challenge["card"]) if challenge["card"] else "",
                                    "target_who": who(challenge["target"]) if challenge.get("target") else ""},
        "asked_me": key in view["asked"], "asked": [who(k) for k in view["asked"]],
        "live": session.status == PlaySession.Status.LIVE, "log": list(reversed(log)),
        "discard_top": _card(view["discard"][-1]) if view["discard"] else None,
        "message": message, "poll_every": POLL_EVERY, "suits": [(s, deck.SUIT_NAMES[s]) for s in ch.SUITS],
        "spread": [{"who": who(o["by"]), "card": _card(o["card"])} for o in view["spread"]],
        "in_spread": any(o["by"] == key for o in view["spread"]),
    }


def _regions(request, context, status: int = 200) -> HttpResponse:
    html = "".join(render_to_string(f"wizards/session.html#{name}", {**context, "oob": True}, request=request)
                   for name in REGIONS)
    return HttpResponse(html, status=status)


@login_required
@require_GET
def session_page(request, session_id):
    session, key = services.session_for(request.user, session_id)
    services.mark_seen(session, request.user)
    context = session_context(request, session, key)
    if request.htmx:
        return _regions(request, context)
    return render(request, "wizards/session.html", context)


@login_required
@require_GET
def session_version(request, session_id):
    """204 while nothing changed; else an event that makes the page fetch its regions."""
    session, key = services.session_for(request.user, session_id)
    services.mark_seen(session, request.user)
    if request.GET.get("v") == str(session.version):
        return HttpResponse(status=204)
    response = HttpResponse(status=200)
    response["HX-Trigger"] = "session-changed"
    return response


@login_required
@require_POST
def session_act(request, session_id):
    session, key = services.session_for(request.user, session_id)
    status, message = 200, ""
    try:
        if key is None:
            raise services.Refused("You have no wizard in this session; you can follow it, not act in it.")
        move = move_from_post(request.POST)
        version = int(request.POST.get("version", ""))
        session = services.act(session.pk, request.user, move, version)
    except ValueError as error:
        status, message = 400, str(error) if "invalid literal" not in str(error) else "The page sent no version."
    except services.StaleAct as error:
        status, message = 409, str(error)
    except services.Refused as error:
        status, message = 400, str(error)
    else:
        if not request.htmx:
            return redirect(session)
    session, key = services.session_for(request.user, session_id)
    context = session_context(request, session, key, message=message)
    if request.htmx:
        return _regions(request, context, status)
    return render(request, "wizards/session.html", context, status=status)

