"""The parts of the game page drawn in Python (games/templatetags/game_parts.py) draw what
the template drew, byte for byte: each is held here to the template it replaced, over
entries, lines and piles that reach every branch, with text that needs escaping."""

from __future__ import annotations

from datetime import datetime, timezone
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.utils.safestring import mark_safe

from games.presenters.common import Choice, Presentation

# The partials as games/game.html wrote them before they were drawn in Python.
TEMPLATE_LOG_ENTRY = (
    '<li{% if entry.event %} class="event{% if entry.mine %} mine{% endif %}"{% else %} value="{{ entry.number }}" '
    'class="{% if entry.mine %}mine{% endif %}"{% endif %} id="log-{{ entry.key }}"{% if part_oob %} '
    'hx-swap-oob="true"{% endif %}><strong>{{ entry.who }}</strong>: {{ entry.text }} '
    '<time datetime="{{ entry.at.isoformat }}">{{ entry.ago }}</time></li>')
TEMPLATE_EARLIER = (
    '<p class="log-earlier"><a href="{% cached_url \'games:game\' game.pk %}?log={{ log_more }}#log" '
    'hx-get="{% cached_url \'games:game\' game.pk %}?log={{ log_more }}" hx-swap="none">'
    '{{ earlier_label|default:"Show earlier moves" }}</a></p>')
TEMPLATES = {
    "log_entry_html entry": TEMPLATE_LOG_ENTRY,
    "log_entries_added_html added": '<ol hx-swap-oob="beforeend:#log-list">{% for entry in added %}'
                                    + TEMPLATE_LOG_ENTRY + '{% endfor %}</ol>',
    "log_entries_gone_html gone": '<li hx-swap-oob="delete:{% for key in gone %}#log-{{ key }}'
                                  '{% if not forloop.last %},{% endif %}{% endfor %}"></li>',
    "log_earlier_link_html": TEMPLATE_EARLIER,
    "log_events_html": (
        '<details id="log-events"{% if part_oob %} hx-swap-oob="true"{% endif %}><summary>Everything that happened'
        '</summary>{% if events_earlier %}{% with earlier_label="Show earlier lines" %}' + TEMPLATE_EARLIER
        + '{% endwith %}{% endif %}<ol class="events"{% if events_start > 1 %} start="{{ events_start }}"{% endif %}>'
        '{% for line in events %}<li>{{ line }}</li>{% endfor %}</ol></details>'),
    "poll_html": (
        '<div id="poll"{% if oob %} hx-swap-oob="true"{% endif %}>{% if live %}<div hx-get="'
        '{% cached_url \'games:version\' game.pk %}?v={{ stamp }}" hx-trigger="every {{ poll_every }}" '
        'hx-swap="none" hx-include="this"></div>{% endif %}</div>'),
    "pile_html": (
        '<p class="pile" id="pile-{{ pile_number }}"{% if part_oob %} hx-swap-oob="true"{% endif %}><strong>'
        '{{ pile.title }}:</strong> {{ pile.count }} card{{ pile.count|pluralize }}{% if pile.cards %} '
        '<span class="pile-cards">{% for card in pile.cards %}{% card_html "games/_card.html" %}{% endfor %}</span>'
        '{% endif %}</p>'),
}
AT = datetime(2026, 11, 26, 21, 5, 7, 123456, tzinfo=timezone.utc)
ENTRIES = [
    {"number": 12, "who": "Alice", "mine": True, "text": "Play the 4 of Wands", "at": AT, "ago": "now", "key": "12"},
    {"number": 3, "who": "<b>Bob</b> & co", "mine": False, "text": 'Said "hi" <there>', "at": AT,
     "ago": "3\xa0minutes ago", "key": "3"},
    {"number": None, "event": True, "who": "Carol", "mine": False, "text": "gave you a day more for this move.",
     "at": AT, "ago": "an hour ago", "key": "7e0"},
    {"number": None, "event": True, "who": "You", "mine": True, "text": mark_safe("left <em>the</em> table"),
     "at": AT, "ago": "2 days ago", "key": "7e1"},
]
CARD = {"code": "4w", "name": "Four of Wands", "major": False, "suit": "w", "value": 4, "title": "Four of Wands"}
CONTEXTS = [
    {"entry": entry, "part_oob": oob, "added": ENTRIES, "gone": gone, "log_more": 30, "earlier_label": None,
     "events": events, "events_earlier": earlier, "events_start": start, "live": live, "stamp": "12.active.0",
     "poll_every": "20s", "oob": oob, "pile": pile, "pile_number": 2}
    for entry, oob, gone, events, earlier, start, live, pile in [
        (ENTRIES[0], False, ["2"], ["Turn 7.", "You drew <The Chariot> & more."], 0, 1, True,
         {"title": "Deck", "count": 66}),
        (ENTRIES[1], True, ["2", "3e0", "4"], ["Turn 8."], 25, 26, False, {"title": "Minors deck", "count": None,
                                                                          "cards": None}),
        (ENTRIES[2], True, [], [], 3, 4, True, {"title": "Discards <top>", "count": 1, "cards": [CARD]}),
        (ENTRIES[3], False, ["9"], ["A"], 0, 2, True, {"title": "Hand", "count": 2, "cards": [CARD, CARD]}),
    ]
]


@pytest.mark.parametrize("tag", sorted(TEMPLATES))
@pytest.mark.parametrize("values", range(len(CONTEXTS)))
@pytest.mark.parametrize("status", ["active", "finished"])
def test_a_part_drawn_in_python_is_the_html_the_template_drew(tag, values, status):
    context = {**CONTEXTS[values], "game": SimpleNamespace(pk=4321, status=status)}
    if tag == "log_earlier_link_html":
        context.pop("earlier_label")  # the log's own link has no label of its own
    loads = "{% load cached_url card_html game_parts %}"
    # Numbers as the game page draws them (page_regions._drawing): plain digits.
    template_drew = Template(loads + TEMPLATES[tag]).render(Context(context, use_l10n=False))
    python_drew = Template(loads + "{% " + tag + " %}").render(Context(context, use_l10n=False))
    assert python_drew == template_drew
    assert "<b>" not in python_drew and "<there>" not in python_drew and "<top>" not in python_drew


# The board's space and slot and the move form, as games/game.html and games/_move_form.html
# drew them before they were drawn in Python (the move form's file is still included by
# the boards with templates of their own).
TEMPLATE_BELOW_MAJORS = (
    '{% if cell.minors %}<span class="minors">{% for card in cell.minors %}{% card_html "games/_pick.html" %}'
    '{% endfor %}</span>{% endif %}\n      {% if cell.status %}<span class="space-status">{{ cell.status }}</span>'
    '{% endif %}\n      {% if cell.target %}{% include "games/_move_form.html" with choice=cell.target label="Here" '
    'button_class="target-button" %}{% endif %}')
SPACE_TEMPLATES = {
    "board_space_html": (
        '\n    <div class="space space-{{ cell.kind }}{% if cell.target %} target{% endif %}{% if cell.status == '
        '\'resolved\' %} resolved{% endif %}" id="space-{{ cell.dom }}" style="grid-column: {{ cell.x }}; grid-row: '
        '{{ cell.y }}" role="group" aria-labelledby="space-{{ cell.dom }}-name"{% if part_oob %} hx-swap-oob="true"'
        '{% endif %}>\n      <span class="space-name" id="space-{{ cell.dom }}-name">'
        '{{ cell.name|soft_hyphens }}{% if cell.here %} <strong class="here">(you are here)</strong>{% endif %}'
        '</span>\n      {% for card in cell.majors %}{% card_html "games/_pick.html" %}{% endfor %}\n      '
        + TEMPLATE_BELOW_MAJORS + '\n    </div>'),
    "encounter_slot_html": (
        '\n    <div class="space space-slot{% if cell.target %} target{% endif %}" id="space-{{ cell.dom }}"'
        '{% if part_oob %} hx-swap-oob="true"{% endif %}>\n      {% for card in cell.majors %}'
        '{% card_html "games/_card.html" %}{% endfor %}\n      ' + TEMPLATE_BELOW_MAJORS + '\n    </div>'),
    "move_form_html choice": '{% include "games/_move_form.html" %}',
    'move_form_html choice "Put it here" "target-button"':
        '{% include "games/_move_form.html" with label="Put it here" button_class="target-button" %}',
}
PICKABLE = {**CARD, "pickable": True, "picked": False, "code": "M7", "name": "The Chariot", "major": True}
CELLS = [
    {"kind": "sefira", "dom": "tiphareth", "x": 2, "y": 4, "name": "Understanding", "here": True,
     "majors": [PICKABLE], "minors": [CARD, {**PICKABLE, "picked": True}], "status": "resolved",
     "target": Choice({"type": "place", "card": "M7", "to": "binah"}, 'Put "The Chariot" <here>', "binah")},
    {"kind": "star <b>", "dom": "s-3", "x": 1, "y": 1, "name": "Mars & Venus", "majors": [], "minors": [],
     "status": "", "target": ""},
    {"kind": "slot", "dom": "slot-0", "x": 3, "y": 2, "name": "Kether", "majors": [CARD], "status": "open <b>",
     "target": Choice({"type": "forfeit"}, "Give up")},
]


@pytest.mark.parametrize("tag", sorted(SPACE_TEMPLATES))
@pytest.mark.parametrize("cell", range(len(CELLS)))
@pytest.mark.parametrize("oob, confirmed", [(False, False), (True, True)])
@pytest.mark.parametrize("status", ["active", "finished"])
def test_a_space_and_a_move_form_drawn_in_python_are_the_html_the_template_drew(tag, cell, oob, confirmed, status):
    context = {"cell": CELLS[cell], "choice": CELLS[cell]["target"] or CELLS[0]["target"], "part_oob": oob,
               "confirmed": confirmed, "csrf_token": "tokenTOKEN123",
               "game": SimpleNamespace(pk=4321, status=status, version=17)}
    loads = "{% load cached_url card_html soft_hyphens game_parts %}"
    template_drew = Template(loads + SPACE_TEMPLATES[tag]).render(Context(context, use_l10n=False))
    python_drew = Template(loads + "{% " + tag + " %}").render(Context(context, use_l10n=False))
    assert python_drew == template_drew
    assert "<b>" not in python_drew and "<here>" not in python_drew


def test_a_move_form_drawn_without_a_csrf_token_has_none_as_the_template_had():
    context = {"choice": CELLS[0]["target"], "game": SimpleNamespace(pk=1, status="active", version=0)}
    loads = "{% load game_parts %}"
    drew = Template(loads + "{% move_form_html choice %}").render(Context(context))
    assert drew == Template('{% include "games/_move_form.html" %}').render(Context(context))
    assert "csrfmiddlewaretoken" not in drew


# The hand as games/game.html drew it, with games/_advice.html (which only it included).
TEMPLATE_ADVICE = (
    '{% if game.players == 1 %}{% if game.status == "active" and show.can_act and game.hints %}\n  <form method="post" action="'
    '{% cached_url \'games:hint\' game.pk %}" hx-post="{% cached_url \'games:hint\' game.pk %}" hx-swap="none" '
    'class="hint-form">{% csrf_token %}<button type="submit" class="secondary">Hint</button></form>'
    '{% elif game.status == "finished" %}\n  <p class="review-link"><a href="'
    '{% cached_url \'games:review\' game.pk %}">'
    "The computer's review of your game</a></p>{% endif %}{% endif %}")
TEMPLATE_HAND_CARDS = (
    '<div id="hand-cards"{% if part_oob %} hx-swap-oob="true"{% endif %}>\n  <h2>Your hand <small>('
    '{{ show.hand|length }})</small></h2>\n  <div class="cards hand-cards">{% for card in show.hand %}'
    '{% card_html "games/_pick.html" %}{% empty %}<span class="empty">No cards in hand.</span>{% endfor %}</div>\n'
    '  </div>')
TEMPLATE_HAND = (
    '\n<section id="hand" class="region hand"{% if oob %} hx-swap-oob="true"{% endif %}>\n  {% if started %}'
    + TEMPLATE_ADVICE + '\n  {% if show.can_act and show.prompt %}<p class="prompt">{{ show.prompt }}</p>{% endif %}'
    '\n  {% if confirm %}\n  <div class="confirm" role="alertdialog" aria-label="Confirm the move">\n    <p>This move '
    'draws from the deck and cannot be taken back: <strong>{{ confirm.label }}</strong>. Send it?</p>\n    <form '
    'method="post" action="{% cached_url \'games:move\' game.pk %}" hx-post="{% cached_url \'games:move\' game.pk %}" '
    'hx-swap="none">{% csrf_token %}\n      <input type="hidden" name="version" value="{{ confirm.version }}"><input '
    'type="hidden" name="move" value="{{ confirm.move }}"><input type="hidden" name="confirmed" value="1">\n      '
    '<button type="submit" class="move">Yes, send it</button>\n      <a href="{% cached_url \'games:game\' game.pk %}" '
    'hx-get="{% cached_url \'games:game\' game.pk %}" hx-swap="none">No, choose again</a>\n    </form>\n  </div>\n  '
    '{% endif %}\n  {% if show.waiting %}\n  <h2>{{ show.waiting_label }}</h2>\n  <div class="cards waiting">'
    '{% for card in show.waiting %}{% card_html "games/_pick.html" %}{% endfor %}</div>\n  {% endif %}\n  '
    '{% if show.hand is not None %}' + TEMPLATE_HAND_CARDS + '\n  {% elif show.hand_count is not None %}<p>'
    '{{ show.hand_count }} card{{ show.hand_count|pluralize }} in hand.</p>{% endif %}\n  {% for row in show.rows %}'
    '\n  <h2>{{ row.title }}</h2>\n  <div class="cards">{% for card in row.cards %}{% card_html "games/_pick.html" %}'
    '{% endfor %}</div>\n  {% endfor %}\n  {% if show.picked and show.picked_choices %}\n  <div class="choices" '
    'aria-label="Where {{ show.picked.name }} can go">\n    <h2>{{ show.picked.name }}: choose</h2>\n    <ul>'
    '{% for choice in show.picked_choices %}<li>{% include "games/_move_form.html" %}</li>{% endfor %}</ul>\n  </div>'
    '\n  {% elif show.can_act and show.picked is None and not show.actions %}<p class="hint">{{ show.hint }}</p>'
    '{% endif %}\n  {% if show.actions %}\n  <div class="choices actions"><ul>{% for choice in show.actions %}<li>'
    '{% include "games/_move_form.html" %}</li>{% endfor %}</ul></div>\n  {% endif %}\n  {% endif %}\n</section>\n')
MOVE = CELLS[0]["target"]
HANDS = [  # (the presentation's fields, started, players, a move to confirm)
    ({}, False, 1, None),
    ({"can_act": True, "prompt": "Play <a card>", "hand": [PICKABLE, CARD], "hint": "Pick <one>"}, True, 1, None),
    ({"can_act": True, "prompt": "", "hand": [], "picked": {**PICKABLE, "name": "The <Chariot>"},
      "picked_choices": [MOVE, Choice({"type": "forfeit"}, "Give up")], "actions": [MOVE]}, True, 2,
     {"label": "Draw <two>", "version": 12, "move": '{"type":"draw"}'}),
    ({"can_act": False, "prompt": "Wait", "hand": None, "hand_count": 1, "waiting": [CARD, PICKABLE],
      "waiting_label": "Raised <cards>", "rows": [{"title": "Discards & more", "cards": [CARD]},
                                                   {"title": "Empty", "cards": []}]}, True, 1, None),
    ({"can_act": True, "hand": None, "hand_count": 3, "picked": PICKABLE, "picked_choices": [],
      "actions": [Choice({"type": "refill"}, "Refill <now>")]}, True, 1, None),
    ({"can_act": True, "hand": None, "hand_count": None}, True, 3, None),
]


@pytest.mark.parametrize("hand", range(len(HANDS)))
@pytest.mark.parametrize("oob", [False, True])
@pytest.mark.parametrize("status", ["active", "finished"])
def test_the_hand_drawn_in_python_is_the_html_the_template_drew(hand, oob, status):
    fields, started, players, confirm = HANDS[hand]
    show = Presentation(board_kind="tree", **fields)
    context = {"show": show, "started": started, "confirm": confirm, "oob": oob, "part_oob": oob,
               "csrf_token": "tokenTOKEN123", "game": SimpleNamespace(pk=4321, status=status, version=17,
                                                                      players=players, hints=True)}
    loads = "{% load cached_url card_html game_parts %}"
    for python, template in (("{% hand_html %}", TEMPLATE_HAND), ("{% hand_cards_html %}", TEMPLATE_HAND_CARDS)):
        if show.hand is None and python == "{% hand_cards_html %}":
            continue
        template_drew = Template(loads + template).render(Context(context, use_l10n=False))
        python_drew = Template(loads + python).render(Context(context, use_l10n=False))
        assert python_drew == template_drew
        assert "<a card>" not in python_drew and "<two>" not in python_drew and "<Chariot>" not in python_drew


# A plane's column and the cards an answer adds at its foot, as games/game.html drew them.
TEMPLATE_PLANE_CELL = ('{% if card.hole %}<div class="plane-cell empty hole">empty</div>{% else %}'
                       '<div class="plane-cell">{% card_html "games/_pick.html" %}</div>{% endif %}')
PLANE_TEMPLATES = {
    "plane_column_html": (
        '\n      <div class="plane-column{% if column.target %} target{% endif %}" id="plane-{{ plane_number }}-column-'
        '{{ column_number }}" style="grid-column: {{ column_number|add:1 }}"{% if part_oob %} hx-swap-oob="true"'
        '{% endif %}>\n        <h3>{{ column.title }}</h3>\n        {% for card in column.cards %}'
        + TEMPLATE_PLANE_CELL + '{% empty %}<div class="plane-cell empty">empty</div>{% endfor %}\n        '
        '{% if column.target %}'
        '{% include "games/_move_form.html" with choice=column.target label="Put it here" '
        'button_class="target-button" %}{% endif %}\n      </div>'),
    "plane_cells_added_html": ('<div hx-swap-oob="beforeend:#{{ part_id }}">{% for card in added %}'
                               + TEMPLATE_PLANE_CELL + '{% endfor %}</div>'),
}
COLUMNS = [
    {"title": "Left <Seeress>", "cards": [CARD, {"hole": True}, PICKABLE], "target": MOVE},
    {"title": "Mars & co", "cards": [], "target": ""},
    {"title": "Middle", "cards": None},
]


@pytest.mark.parametrize("tag", sorted(PLANE_TEMPLATES))
@pytest.mark.parametrize("column", range(len(COLUMNS)))
@pytest.mark.parametrize("oob", [False, True])
def test_a_plane_column_drawn_in_python_is_the_html_the_template_drew(tag, column, oob):
    context = {"column": COLUMNS[column], "plane_number": 1, "column_number": column, "part_oob": oob,
               "added": COLUMNS[column]["cards"] or [CARD], "part_id": "plane-1-column-2",
               "csrf_token": "tok123", "game": SimpleNamespace(pk=4321, status="active", version=17)}
    loads = "{% load cached_url card_html game_parts %}"
    template_drew = Template(loads + PLANE_TEMPLATES[tag]).render(Context(context, use_l10n=False))
    python_drew = Template(loads + "{% " + tag + " %}").render(Context(context, use_l10n=False))
    assert python_drew == template_drew
    assert "<Seeress>" not in python_drew and "Mars & co" not in python_drew
