from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from games.engine import cards as deck

from . import kinds, readings, services
from .models import Entry

CARD_CHOICES = [("", "— choose a card —")] + [(code, deck.label(code)) for code in deck.DECK]
MAJOR_CHOICES = [("", "— choose a Major —")] + [(code, deck.label(code)) for code in deck.MAJORS]
SPREAD_CHOICES = [(s.slug, s.title) for s in readings.SPREADS.values()]


class TagsField(forms.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 500)
        kwargs.setdefault("help_text", "Separate tags with commas.")
        super().__init__(**kwargs)

    def clean(self, value):
        value = super().clean(value)
        try:
            return services.clean_tags(value or "")
        except ValueError as exc:
            raise ValidationError(str(exc)) from None


class EntryForm(forms.Form):
    title = forms.CharField(max_length=services.MAX_TITLE)
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    reflections = forms.CharField(
        required=False, max_length=services.MAX_REFLECTIONS, widget=forms.Textarea(attrs={"rows": 10}),
        help_text="What the reading says to you. Plain text, or Markdown if you choose it below.",
    )
    reflections_format = forms.ChoiceField(choices=Entry.Format.choices, label="Write as")
    tags = TagsField()


class SearchForm(forms.Form):
    q = forms.CharField(required=False, max_length=200, label="Text")
    card = forms.ChoiceField(required=False, choices=[("", "any card")] + CARD_CHOICES[1:])
    tag = forms.CharField(required=False, max_length=40)
    mode = forms.ChoiceField(required=False, choices=lambda: [("", "any kind")] + kinds.choices())


class DrawForm(forms.Form):
    spread = forms.ChoiceField(choices=SPREAD_CHOICES)
    reversals = forms.BooleanField(required=False, initial=True, label="Cards may come reversed")
    title = forms.CharField(required=False, max_length=200)
    tags = TagsField()


class ManualHeaderForm(forms.Form):
    spread = forms.ChoiceField(choices=SPREAD_CHOICES + [("free", "My own positions")])
    title = forms.CharField(max_length=200)
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    tags = TagsField()


class ManualRowForm(forms.Form):
    """One position of a reading laid with a physical deck."""

    label = forms.CharField(max_length=120, required=False)
    card = forms.ChoiceField(choices=CARD_CHOICES, required=False)
    reversed = forms.BooleanField(required=False)
    minors = forms.CharField(
        required=False, max_length=300, label="Minors on it",
        help_text="Names or codes, separated by commas; add \u201creversed\u201d to one that lay upside down: "
                  "\u201cAce of Cups, 3s reversed\u201d.",
    )

    def clean_minors(self):
        try:
            oriented = readings.parse_oriented_cards(self.cleaned_data.get("minors", ""))
        except readings.ReadingError as exc:
            raise ValidationError(str(exc)) from None
        found = [card for card, _reversed in oriented]
        self.minors_reversed = [card for card, reversed_ in oriented if reversed_]
        majors = [c for c in found if deck.is_major(c)]
        if majors:
            raise ValidationError(f"{deck.label(majors[0])} is a Major; only Minors go on a card.")
        if len(found) > readings.MAX_MINORS:
            raise ValidationError(f"At most {readings.MAX_MINORS} Minors can rest on one card.")
        return found

    def clean(self):
        data = super().clean()
        data["minors_reversed"] = [c for c in getattr(self, "minors_reversed", []) if c in data.get("minors", [])]
        return data


ManualRowFormSet = forms.formset_factory(ManualRowForm, extra=0, min_num=1, max_num=readings.FREE_SPREAD_MAX,
                                         validate_max=True)


SEAL_TICKED = 3  # of the two to five cards a seal holds


class SealForm(forms.Form):
    """Pick 2-5 of the reading's cards and a word for each (the card's keyword by default)."""

    def __init__(self, *args, entry: Entry, **kwargs):
        super().__init__(*args, **kwargs)
        self.entry = entry
        self.choices = readings.all_cards(entry.reading)
        default_cards, default_words = services.default_seal_input(entry)
        # Every suggested card is marked "(suggested)", and the first of them start ticked,
        # but never a full seal: with five ticked, the first box a person ticks is refused.
        # The marked ones left unticked are there to add or swap in.
        ticked = default_cards[:SEAL_TICKED]
        self.initial_pairs = (ticked, default_words[:SEAL_TICKED])
        self.suggested = list(default_cards)
        self.ticked = list(ticked)
        for code in self.choices:
            self.fields[f"use_{code}"] = forms.BooleanField(required=False, initial=code in ticked,
                                                            label=deck.label(code))
            self.fields[f"word_{code}"] = forms.CharField(
                required=False, max_length=40, initial=deck.keyword(code),
                label=f"Word for {deck.label(code)}",
            )

    def rows(self):
        return [(code, self[f"use_{code}"], self[f"word_{code}"]) for code in self.choices]

    def clean(self):
        data = super().clean()
        cards = [c for c in self.choices if data.get(f"use_{c}")]
        words = [(data.get(f"word_{c}") or "").strip() or deck.keyword(c) for c in cards]
        try:
            data["cards"], data["words"] = services.clean_seal_input(cards, words)
        except ValueError as exc:
            raise ValidationError(str(exc)) from None
        return data


class ImportForm(forms.Form):
    file = forms.FileField(help_text="The journal.json of an export, or the whole export zip.")


class StatsForm(forms.Form):
    PERIODS = [("30", "the last 30 days"), ("90", "the last 90 days"), ("365", "the last year"), ("all", "all time"),
               ("custom", "these dates")]
    # The period the page shows when none is chosen (journal.views._stats_period).
    DEFAULT_PERIOD = "90"
    period = forms.ChoiceField(choices=PERIODS, required=False, initial=DEFAULT_PERIOD)
    start = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    end = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))

    def clean(self):
        data = super().clean()
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            raise ValidationError("The period must start before it ends.")
        return data
