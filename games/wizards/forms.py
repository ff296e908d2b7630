"""Forms of the tarot wizards pages, and the reading of an act's fields into a move."""

from __future__ import annotations

from django import forms

from games.engine import cards as deck
from games.engine.tarot_wizards import characters as ch

SUIT_CHOICES = [(s, deck.SUIT_NAMES[s]) for s in ch.SUITS]
CARD_CHOICES = [("", "— choose the card —")] + [(code, deck.name(code)) for code in deck.DECK]


class TableForm(forms.Form):
    name = forms.CharField(max_length=120, label="Name of the table")
    campaign = forms.CharField(max_length=200, required=False, label="The campaign, in a line")
    slow = forms.BooleanField(required=False, label="A slow table: everyone gets one digest of the day's log")


class InviteForm(forms.Form):
    who = forms.CharField(max_length=254, label="A player's user name here, or a mail address")


class CharacterForm(forms.Form):
    name = forms.CharField(max_length=80, label="Your wizard's name")
    spread_source = forms.ChoiceField(choices=[("site", "The site draws six cards for me"),
                                               ("physical", "I drew six cards from my own deck")],
                                      widget=forms.RadioSelect, initial="site", required=False,
                                      label="The creation spread")
    practice_choice = forms.ChoiceField(
        choices=[("", "My own Practice (below)")] + [(n, n) for n in ch.PRACTICES], required=False,
        label="A Practice of the text, or your own")
    practice_name = forms.CharField(max_length=80, required=False, label="Your own Practice's name")
    prime = forms.ChoiceField(choices=SUIT_CHOICES, label="Prime Aspect (its suit)")
    extra_skills = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False, max_length=1000,
                                   label="Skills learnt in play, one a line")
    sheet_notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), required=False, max_length=4000,
                                  label="Notes")

    def __init__(self, *args, spread_fixed: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        for suit in ch.SUITS:
            self.fields[f"aspect_{suit}"] = forms.CharField(max_length=ch.MAX_ASPECT, required=False,
                                                            label=f"Aspect of {deck.SUIT_NAMES[suit]}")
        for pid, label, meaning, skill, _upright in ch.POSITIONS:
            if not spread_fixed:
                # Chosen by name: a person who drew the cards at home knows "Queen of Swords", not "Qs".
                self.fields[f"card_{pid}"] = forms.ChoiceField(choices=CARD_CHOICES, required=False,
                                                               label=f"{label}: the card")
                if not _upright:
                    self.fields[f"reversed_{pid}"] = forms.BooleanField(required=False, label="reversed")
            self.fields[f"note_{pid}"] = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False,
                                                         max_length=ch.MAX_NOTE, label=f"{label}: {meaning}")
            if skill:
                self.fields[f"skill_{pid}"] = forms.CharField(max_length=ch.MAX_SKILL, required=False,
                                                              label=f"Skill from the card {label.lower()}")

    def practice(self) -> tuple[str, dict]:
        """The Practice's name and an aspect per suit, as the player typed them.  A Practice
        of the text only fills the aspects left empty: the rule text lets a player modify or
        mix its correspondences, so a typed aspect is never replaced by the Practice's."""
        data = self.cleaned_data
        typed = {s: data.get(f"aspect_{s}", "").strip() for s in ch.SUITS}
        if data.get("practice_choice"):
            defaults = ch.PRACTICES[data["practice_choice"]]
            return data["practice_choice"], {s: typed[s] or defaults[s] for s in ch.SUITS}
        return data.get("practice_name", ""), typed


INT_FIELDS = ("index", "rating", "cards")
TEXT_FIELDS = ("source", "enemy", "target", "skill", "narration", "name", "kind", "prime", "suit", "patient")
ACT_TYPES = ("post", "cast", "roll", "divine", "meditate", "ritual", "offer", "cast_spread", "choose_prime",
             "challenge", "clear_challenge", "enemy_cast", "let_pass", "enemy", "wound", "end_scene", "rest",
             "new_day", "ask", "end_session")


def move_from_post(post) -> dict:
    """The move an act form posted: its type and only the fields that type may carry,
    numbers as numbers; ValueError with a reason a person can read otherwise."""
    kind = post.get("type", "")
    if kind not in ACT_TYPES:
        raise ValueError("That is not something one can do at this table.")
    move: dict = {"type": kind}
    for name in INT_FIELDS:
        value = post.get(name, "").strip()
        if value:
            if not value.lstrip("-").isdigit() or len(value) > 3:
                raise ValueError(f"“{value}” is not a number.")
            move[name] = int(value)
    for name in TEXT_FIELDS:
        value = post.get(name, "")
        if value.strip():
            move[name] = value.strip() if name != "narration" else value
    if post.get("save"):
        move["save"] = True
    return move
