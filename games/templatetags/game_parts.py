"""The parts of the game page that answers to moves send again and again, drawn in
Python: the log's new entries and the ones gone out of its window, the engine's lines
("Everything that happened"), the poll, a pile of cards, a space of the board or a slot
of an encounter, a plane's column and the cards an answer adds at its foot, the hand
(with its cards alone as a part of their own), and the move forms all of these hold.

Each is still a named partial of ``games/game.html``, whose body is one of these tags, so
the page and an answer draw a part alike.  In the template language these parts were
most of what drawing a move's answer cost (a new log entry alone 0.2 ms, the engine's
ten lines 0.35 ms, the hand 0.07 to 0.3 ms, a space with its button 0.15 ms); drawn here
they cost a fifth of that (the hand, a space) to a quarter (the lines, an entry, a pile)
and a half (the poll), as timed against the template text each replaced.  The HTML is
the one the template drew, byte for byte (``tests/golden/`` holds every game to it, and
``tests/games/test_game_parts.py`` each part to the template text it replaced), and every
value is escaped as the template escaped it.  The rest (the frames of the board and the
planes, the status, the actions) stays in the template, where it is
easier to read and change; the boards with templates of their own (Hermit's, the Hallow
table) still include ``games/_move_form.html``.
"""

from __future__ import annotations

import html

from django import template
from django.template.defaultfilters import pluralize
from django.utils.safestring import mark_safe

from games.templatetags.cached_url import cached_reverse
from games.templatetags.card_html import drawn_card
from games.templatetags.soft_hyphens import soft_hyphens

register = template.Library()


def _e(value) -> str:
    """``value`` as the template's autoescape draws it: text escaped, safe HTML as it is.
    Django's conditional_escape says the same, through its lazy-string wrapper: 3.5 µs a
    call against 0.8 here, and a part calls it a dozen times."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


def _oob(flag) -> str:
    return ' hx-swap-oob="true"' if flag else ""


def log_entry(entry: dict, oob: bool = False) -> str:
    if entry.get("event"):
        opening = ' class="event mine"' if entry["mine"] else ' class="event"'
    else:
        opening = f' value="{_e(entry["number"])}" class="{"mine" if entry["mine"] else ""}"'
    return (f'<li{opening} id="log-{_e(entry["key"])}"{_oob(oob)}><strong>{_e(entry["who"])}</strong>: '
            f'{_e(entry["text"])} <time datetime="{_e(entry["at"].isoformat())}">{_e(entry["ago"])}</time></li>')


@register.simple_tag(takes_context=True)
def log_entry_html(context, entry):
    """One entry of the log; alone in an answer (``part_oob``) it replaces the page's."""
    return mark_safe(log_entry(entry, context.get("part_oob")))


@register.simple_tag(takes_context=True)
def log_entries_added_html(context, added):
    """The entries new since the page drew its log, put at its foot."""
    oob = context.get("part_oob")
    return mark_safe('<ol hx-swap-oob="beforeend:#log-list">' + "".join(log_entry(entry, oob) for entry in added)
                     + "</ol>")


@register.simple_tag
def log_entries_gone_html(gone):
    """The entries gone out of the log's window, taken off the page."""
    return mark_safe('<li hx-swap-oob="delete:' + ",".join(f"#log-{_e(key)}" for key in gone) + '"></li>')


def log_earlier_link(game_pk, log_more, label: str) -> str:
    """Older entries on demand: a plain link to the page with more of the log, which htmx
    fetches in place; the page's hidden "log" input then keeps the longer window."""
    page = f'{_e(cached_reverse("games:game", game_pk))}?log={_e(log_more)}'
    return f'<p class="log-earlier"><a href="{page}#log" hx-get="{page}" hx-swap="none">{_e(label)}</a></p>'


@register.simple_tag(takes_context=True)
def log_earlier_link_html(context):
    return mark_safe(log_earlier_link(context["game"].pk, context["log_more"], "Show earlier moves"))


@register.simple_tag(takes_context=True)
def log_events_html(context):
    """The engine's own lines of the game, the newest of them, numbered from where they start."""
    earlier = log_earlier_link(context["game"].pk, context["log_more"], "Show earlier lines") \
        if context["events_earlier"] else ""
    start = context["events_start"]
    numbered = f' start="{_e(start)}"' if start > 1 else ""
    lines = "".join(f"<li>{_e(line)}</li>" for line in context["events"])
    return mark_safe(f'<details id="log-events"{_oob(context.get("part_oob"))}><summary>Everything that happened'
                     f'</summary>{earlier}<ol class="events"{numbered}>{lines}</ol></details>')


# How often, and for how long at most (seconds; then every 3 s), a game page asks whether
# a computer player has moved (games.views.game_context): its answer is made 0.2-0.3 s
# after the move; bench/phone.py times from the click to the answer on the page.  A quick
# computer's move mostly comes in the move's own answer (games.computer.answer); the
# fast poll finds it when that stopped waiting first, or for the slower levels.
POLL_FAST, POLL_FAST_FOR = "250ms", 15


@register.simple_tag(takes_context=True)
def poll_html(context):
    """What asks the server every few seconds whether the game moved on (game.js)."""
    asks = ""
    if context["live"] and context["poll_every"] == POLL_FAST:
        # A computer player thinks: ask at once, then fast for a while (game.js bounds it),
        # sending the regions' digests (the game's .region-hash), so that the answer that
        # finds its move brings the regions it changed (games.views.version).
        asks = (f'<div hx-get="{_e(cached_reverse("games:version", context["game"].pk))}?v={_e(context["stamp"])}" '
                f'hx-trigger="load, every {POLL_FAST}" data-fast-for="{POLL_FAST_FOR}" hx-swap="none"></div>')
    elif context["live"]:
        asks = (f'<div hx-get="{_e(cached_reverse("games:version", context["game"].pk))}?v={_e(context["stamp"])}" '
                f'hx-trigger="every {_e(context["poll_every"])}" hx-swap="none" hx-include="this"></div>')
    return mark_safe(f'<div id="poll"{_oob(context.get("oob"))}>{asks}</div>')


@register.simple_tag(takes_context=True)
def pile_html(context):
    """A pile beside the planes (the deck, the discards): its size, and its cards where shown."""
    pile = context["pile"]
    count = pile["count"]
    cards = ""
    if pile.get("cards"):
        cards = f' <span class="pile-cards">{_cards(context, pile["cards"], "games/_card.html")}</span>'
    return mark_safe(f'<p class="pile" id="pile-{_e(context["pile_number"])}"{_oob(context.get("part_oob"))}>'
                     f'<strong>{_e(pile["title"])}:</strong> {_e(count)} card{pluralize(count)}{cards}</p>')


def csrf_input(context) -> str:
    """``{% csrf_token %}``: the hidden input with the context's token, or nothing."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return ""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{_e(token)}">'


def move_form(context, choice, label=None, button_class=None) -> str:
    """One legal move as a button, as ``games/_move_form.html`` draws it (the boards with
    templates of their own still include that): a real form that posts the move as JSON
    with the game's version, with or without htmx.  A forfeit is asked about first."""
    game = context["game"]
    url = _e(cached_reverse("games:move", game.pk))
    forfeit = isinstance(choice.move, dict) and choice.move.get("type") == "forfeit"
    return (f'<form method="post" action="{url}" hx-post="{url}" hx-swap="none" class="move-form"'
            + (' hx-confirm="Forfeit: you lose this game. Really give up?"' if forfeit else "")
            + f'>{csrf_input(context)}<input type="hidden" name="version" value="{_e(game.version)}">'
            f'<input type="hidden" name="move" value="{_e(choice.json)}">'
            + ('<input type="hidden" name="confirmed" value="1">' if context.get("confirmed") else "")
            + f'<button type="submit" class="{"secondary danger" if forfeit else _e(button_class or "move")}" '
            f'title="{_e(choice.label)}">{_e(label or choice.label)}</button></form>\n')  # as the file ends


@register.simple_tag(takes_context=True)
def move_form_html(context, choice, label=None, button_class=None):
    # As the include did, a label or class not given is the one the context holds, if any.
    return mark_safe(move_form(context, choice, label or context.get("label"),
                               button_class or context.get("button_class")))


def _cards(context, cards, template_name: str) -> str:
    game = context.get("game")
    return "".join(drawn_card(template_name, card, game) for card in cards or ())


def _below_majors(context, cell: dict) -> str:
    """What a space or an encounter's slot shows under its Majors: its Minors, its
    status, and the button that puts the picked card there."""
    minors = f'<span class="minors">{_cards(context, cell["minors"], "games/_pick.html")}</span>' \
        if cell.get("minors") else ""
    status = f'<span class="space-status">{_e(cell["status"])}</span>' if cell.get("status") else ""
    target = move_form(context, cell["target"], "Here", "target-button") if cell.get("target") else ""
    return f"{minors}\n      {status}\n      {target}"


@register.simple_tag(takes_context=True)
def board_space_html(context):
    """A space of a board (the Tree's Sefirot, the Starfield's stars): its name, the cards
    on it, and the button that puts the picked card there when it may go there."""
    cell = context["cell"]
    classes = f'space space-{_e(cell.get("kind", ""))}' + (" target" if cell.get("target") else "") \
        + (" resolved" if cell.get("status") == "resolved" else "")
    here = ' <strong class="here">(you are here)</strong>' if cell.get("here") else ""
    return mark_safe(
        f'\n    <div class="{classes}" id="space-{_e(cell.get("dom", ""))}" style="grid-column: '
        f'{_e(cell.get("x", ""))}; grid-row: {_e(cell.get("y", ""))}" role="group" '
        f'aria-labelledby="space-{_e(cell.get("dom", ""))}-name"{_oob(context.get("part_oob"))}>\n'
        f'      <span class="space-name" id="space-{_e(cell.get("dom", ""))}-name">{soft_hyphens(cell.get("name", ""))}{here}</span>\n'
        f'      {_cards(context, cell.get("majors"), "games/_pick.html")}\n'
        f'      {_below_majors(context, cell)}\n    </div>')


@register.simple_tag(takes_context=True)
def encounter_slot_html(context):
    """A slot of an encounter beside the board (Dream Odyssey's)."""
    cell = context["cell"]
    return mark_safe(
        f'\n    <div class="space space-slot{" target" if cell.get("target") else ""}" '
        f'id="space-{_e(cell.get("dom", ""))}"{_oob(context.get("part_oob"))}>\n'
        f'      {_cards(context, cell.get("majors"), "games/_card.html")}\n'
        f'      {_below_majors(context, cell)}\n    </div>')


def _advice(context) -> str:
    """In a game played alone: the Hint button while the player may act, the link to the
    computer's review once the game is over."""
    game, show = context["game"], context["show"]
    if game.players != 1 or context.get("spectator"):  # the review is the player's own
        return ""
    if game.status == "active" and show.can_act and game.hints:
        hint = _e(cached_reverse("games:hint", game.pk))
        return (f'\n  <form method="post" action="{hint}" hx-post="{hint}" hx-swap="none" class="hint-form">'
                f'{csrf_input(context)}<button type="submit" class="secondary">Hint</button></form>')
    if game.status == "finished":
        return (f'\n  <p class="review-link"><a href="{_e(cached_reverse("games:review", game.pk))}">'
                "The computer's review of your game</a></p>")
    return ""


def _confirmation(context, confirm: dict) -> str:
    """A move that draws hidden cards, asked about first (for a player who wants that)."""
    game = context["game"]
    move_url, game_url = _e(cached_reverse("games:move", game.pk)), _e(cached_reverse("games:game", game.pk))
    return ('\n  <div class="confirm" role="alertdialog" aria-label="Confirm the move">\n'
            f'    <p>This move draws from the deck and cannot be taken back: <strong>{_e(confirm["label"])}'
            f'</strong>. Send it?</p>\n    <form method="post" action="{move_url}" hx-post="{move_url}" '
            f'hx-swap="none">{csrf_input(context)}\n      <input type="hidden" name="version" '
            f'value="{_e(confirm["version"])}"><input type="hidden" name="move" value="{_e(confirm["move"])}">'
            '<input type="hidden" name="confirmed" value="1">\n      <button type="submit" class="move">Yes, send it'
            f'</button>\n      <a href="{game_url}" hx-get="{game_url}" hx-swap="none">No, choose again</a>\n'
            '    </form>\n  </div>\n  ')


def hand_cards(context) -> str:
    show = context["show"]
    cards = _cards(context, show.hand, "games/_pick.html") or '<span class="empty">No cards in hand.</span>'
    return (f'<div id="hand-cards"{_oob(context.get("part_oob"))}>\n  <h2>Your hand <small>({len(show.hand)})'
            f'</small></h2>\n  <div class="cards hand-cards">{cards}</div>\n  </div>')


@register.simple_tag(takes_context=True)
def hand_cards_html(context):
    """The cards in the player's hand; alone in an answer (``part_oob``) when only they changed."""
    return mark_safe(hand_cards(context))


@register.simple_tag(takes_context=True)
def hand_html(context):
    """What the player holds and may do: the prompt, a move to confirm, raised cards
    waiting for a place, the hand (``hand_cards``) or its size, further rows of cards,
    the picked card's choices or the hint, and the moves that need no card."""
    show, oob = context["show"], _oob(context.get("oob"))
    if not context["started"]:
        return mark_safe(f'\n<section id="hand" class="region hand"{oob}>\n  \n</section>\n')
    out = [f'\n<section id="hand" class="region hand"{oob}>\n  ', _advice(context), "\n  "]
    if show.can_act and show.prompt:
        out.append(f'<p class="prompt">{_e(show.prompt)}</p>')
    out.append("\n  ")
    if context.get("confirm"):
        out.append(_confirmation(context, context["confirm"]))
    out.append("\n  ")
    if show.waiting:
        out.append(f'\n  <h2>{_e(show.waiting_label)}</h2>\n  <div class="cards waiting">'
                   f'{_cards(context, show.waiting, "games/_pick.html")}</div>\n  ')
    out.append("\n  ")
    if show.hand is not None:
        out += [hand_cards(context), "\n  "]
    elif show.hand_count is not None:
        out.append(f"<p>{_e(show.hand_count)} card{pluralize(show.hand_count)} in hand.</p>")
    out.append("\n  ")
    for row in show.rows:
        out.append(f'\n  <h2>{_e(row["title"])}</h2>\n  <div class="cards">'
                   f'{_cards(context, row["cards"], "games/_pick.html")}</div>\n  ')
    out.append("\n  ")
    if show.picked and show.picked_choices:
        name = _e(show.picked["name"])
        out.append(f'\n  <div class="choices" aria-label="Where {name} can go">\n    <h2>{name}: choose</h2>\n'
                   f'    <ul>{_choices(context, show.picked_choices)}</ul>\n  </div>\n  ')
    elif show.can_act and show.picked is None and not show.actions:
        out.append(f'<p class="hint">{_e(show.hint)}</p>')
    out.append("\n  ")
    if show.actions:
        out.append(f'\n  <div class="choices actions"><ul>{_choices(context, show.actions)}</ul></div>\n  ')
    out.append("\n  \n</section>\n")
    return mark_safe("".join(out))


def _choices(context, choices) -> str:
    label, button_class = context.get("label"), context.get("button_class")
    return "".join(f"<li>{move_form(context, choice, label, button_class)}</li>" for choice in choices)


def _plane_cell(context, card: dict) -> str:
    if card.get("hole"):
        return '<div class="plane-cell empty hole">empty</div>'
    return f'<div class="plane-cell">{drawn_card("games/_pick.html", card, context.get("game"))}</div>'


@register.simple_tag(takes_context=True)
def plane_column_html(context):
    """A column of a plane (a Seeress, a planet's line): its title, its cards from the top
    (a hole where a card left), and the button that puts the picked card at its foot."""
    column, number = context["column"], context["column_number"]
    target = column.get("target")
    cells = "".join(_plane_cell(context, card) for card in column.get("cards") or ()) \
        or '<div class="plane-cell empty">empty</div>'
    button = move_form(context, target, "Put it here", "target-button") if target else ""
    return mark_safe(
        f'\n      <div class="plane-column{" target" if target else ""}" '
        f'id="plane-{_e(context["plane_number"])}-column-{_e(number)}" style="grid-column: {_e(number + 1)}"'
        f'{_oob(context.get("part_oob"))}>\n'
        f'        <h3>{_e(column.get("title", ""))}</h3>\n        {cells}\n        {button}\n      </div>')


@register.simple_tag(takes_context=True)
def plane_cells_added_html(context):
    """The cards played onto a column since the page drew it, put at its foot."""
    return mark_safe(f'<div hx-swap-oob="beforeend:#{_e(context["part_id"])}">'
                     + "".join(_plane_cell(context, card) for card in context["added"]) + "</div>")
