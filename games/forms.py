from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q

from games.catalogue import modes
from games.computer import DEFAULT_LEVEL, LEVELS, computer_players
from games.models import ChatMessage, Game, Note

OPPONENTS = [
    ("solo", "Nobody: I play alone"),
    ("computer", "The computer: against it, or as my partner"),
    ("user", "A player of this site, by name"),
    ("email", "Someone by email address"),
    ("open", "Anyone: post an open challenge in the lobby"),
]
CLOCKS = [("", "No clock")] + [(str(v), label) for v, label in Game.TimeControl.choices]
# The fields that count computer players of each level, besides the one under "Play with".
COMPUTER_COUNTS = {f"computers_{level}": level for level in LEVELS}


class NewGameForm(forms.Form):
    mode = forms.ChoiceField(widget=forms.RadioSelect)
    variants = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple,
                                         help_text="Leave all unticked for the standard rules.")
    opponent = forms.ChoiceField(choices=OPPONENTS, initial="solo", widget=forms.RadioSelect)
    computer_level = forms.ChoiceField(
        choices=[(level, f"{name}, {words}") for level, (name, words) in LEVELS.items()],
        initial=DEFAULT_LEVEL, required=False, label="Computer player")
    username = forms.CharField(required=False, max_length=150, label="Player's user name")
    email = forms.EmailField(required=False, label="Their email address")
    time_control = forms.TypedChoiceField(choices=CLOCKS, required=False, coerce=int, empty_value=None,
                                          label="Clock")
    # Games are public unless made private (Game.public): anyone may watch a public one.
    private = forms.BooleanField(required=False, label="Private game: only its players may open it")
    # Games for more than two (the engine's max_players) seat up to that many.
    seats = forms.TypedChoiceField(choices=[(n, str(n)) for n in range(2, 7)], coerce=int, required=False,
                                   empty_value=None, label="Seats at the table")
    invites = forms.CharField(required=False, max_length=2000, label="Invite more players",
                              widget=forms.Textarea(attrs={"rows": 2}),
                              help_text="User names or email addresses, separated by commas or lines; "
                                        "seats nobody is invited to are open in the lobby.")

    watch = forms.BooleanField(
        required=False, label="I only watch: computer players take every seat",
        help_text="You hold no seat: you see the table as an onlooker does, without anyone's hand.")

    def __init__(self, data=None, *args, user=None, **kwargs):
        if data is not None and hasattr(data, "getlist"):
            # Each mode's variations are ticked in that mode's own fieldset
            # (``variants-<mode>``); only the chosen mode's count, so a box left ticked
            # under another mode changes nothing.
            data = data.copy()
            self.modes = modes()
            # A game with another edition (the 2021 prototype) offers it as a radio of its
            # own (``edition-<mode>``): choosing it picks that edition's engine, whose
            # variations are ticked in their own fieldset (``variants-<edition slug>``).
            chosen = next((m for m in self.modes if m["slug"] == data.get("mode")), None)
            edition = data.get(f"edition-{data.get('mode')}")
            if chosen and edition and edition != "final":
                slug = next((e["slug"] for e in chosen["editions"] if e["slug"] == edition), None)
                # No such edition of this game: a mode that is no choice, refused below (never
                # another game that happens to be named).
                data.setlist("mode", [slug or f"{data.get('mode')}, edition {edition}"])
            data.setlist("variants", data.getlist("variants") + data.getlist(f"variants-{data.get('mode')}"))
        super().__init__(data, *args, **kwargs)
        self.user = user
        self.modes = modes()
        self.fields["mode"].choices = [(m["slug"], m["title"]) for m in self.modes]
        if self.modes and not self.is_bound:
            self.fields["mode"].initial = self.modes[0]["slug"]
        names = sorted({v["name"] for m in self.modes for v in m["variants"]})
        self.fields["variants"].choices = [(n, n.capitalize()) for n in names]
        for field, level in COMPUTER_COUNTS.items():
            name, words = LEVELS[level]
            self.fields[field] = forms.IntegerField(
                required=False, min_value=0, max_value=6, label=f"{name}, {words}",
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "count"}),
                error_messages={"max_value": "A table has at most six seats.",
                                "min_value": "Choose how many, from none up.",
                                "invalid": "Write how many, as a number."})

    def computer_count_fields(self):
        """The fields that count computer players of each level, for the template."""
        return [self[field] for field in COMPUTER_COUNTS]

    def clean(self):
        data = super().clean()
        mode = next((m for m in self.modes if m["slug"] == data.get("mode")), None)
        if mode is None:
            return data
        allowed = {v["name"] for v in mode["variants"]}
        wrong = [v for v in data.get("variants") or [] if v not in allowed]
        if wrong:
            self.add_error("variants", f"{mode['title']} has no {', '.join(wrong)} variation.")
        opponent = data.get("opponent")
        # The computer players besides the one under "Play with", in the order of the levels.
        data["more_computers"] = [level for field, level in COMPUTER_COUNTS.items()
                                  for _ in range(data.get(field) or 0)]
        if opponent == "solo" and not mode["solo"] and (data.get("seats") or 2) == 2 \
                and not (data.get("invites") or "").strip() and not data["more_computers"]:
            self.add_error("opponent", f"{mode['title']} is for two players: choose whom to play with.")
        if opponent != "solo" and not mode["two_player"]:
            self.add_error("opponent", f"{mode['title']} is played alone.")
        elif (data["more_computers"] or data.get("watch")) and not mode["two_player"]:
            self.add_error("watch" if data.get("watch") else None, f"{mode['title']} is played alone.")
            return data
        if opponent == "user":
            name = (data.get("username") or "").strip()
            if not name:
                self.add_error("username", "Whom do you want to invite?")
            else:
                found = get_user_model().objects.filter(Q(username__iexact=name), is_active=True).first()
                if found is None:
                    self.add_error("username", f"There is no player called {name!r}.")
                elif self.user is not None and found.pk == self.user.pk:
                    self.add_error("username", "You cannot invite yourself.")
                data["opponent_user"] = found
        if opponent == "computer" and not data["more_computers"] and not data.get("watch"):
            from games.computer import computer_player

            data["opponent_user"] = computer_player(data.get("computer_level") or DEFAULT_LEVEL)
        if opponent == "email" and not data.get("email"):
            self.add_error("email", "Which address should the invitation go to?")
        self._clean_table(data, mode)
        return data

    def _clean_table(self, data: dict, mode: dict) -> None:
        """A game for more than two with more than two seats: ``table_invitees`` lists whom
        to offer the seats after the creator's (users, or addresses of people not signed
        up), the one chosen under "Play with" first."""
        seats = data.get("seats") or 2
        data["table"] = False
        more, watch = data.get("more_computers") or [], bool(data.get("watch"))
        invites = (data.get("invites") or "").strip()
        if seats == 2 and not invites and not more and not watch:
            return
        if mode["max_players"] <= 2 and (seats > 2 or invites):
            if seats > 2:
                self.add_error("seats", f"{mode['title']} is for {mode['players']} players.")
            else:
                self.add_error("invites", f"{mode['title']} seats two: invite one player above.")
            return
        if not mode["min_players"] <= seats <= mode["max_players"]:
            self.add_error("seats", f"{mode['title']} is for {mode['players']} players.")
            return
        opponent = data.get("opponent")
        levels = ([data.get("computer_level") or DEFAULT_LEVEL] if opponent == "computer" else []) + more
        if not self._computers_fit(seats, levels, watch, opponent, invites):
            return
        # Numbered within each level, so that no two seats hold the same player.
        computers = computer_players(levels)
        data["creator_plays"], data["seats"] = not watch, seats
        if watch:
            data["table"], data["table_invitees"] = True, computers
            return
        invitees = []
        if opponent == "user" and data.get("opponent_user") is not None:
            invitees.append(data["opponent_user"])
        elif opponent == "email" and data.get("email"):
            invitees.append(data["email"])
        invitees += computers
        users = get_user_model().objects
        for word in (w.strip() for w in (data.get("invites") or "").replace("\n", ",").split(",")):
            if not word:
                continue
            if "@" in word:
                try:
                    forms.EmailField().clean(word)
                except forms.ValidationError:
                    self.add_error("invites", f"{word!r} is not an email address.")
                    return
                invitees.append(word)
                continue
            found = users.filter(username__iexact=word, is_active=True).first()
            if found is None:
                self.add_error("invites", f"There is no player called {word!r}.")
                return
            if self.user is not None and found.pk == self.user.pk:
                self.add_error("invites", "You cannot invite yourself.")
                return
            invitees.append(found)
        if len(invitees) > seats - 1:
            self.add_error("invites", f"{seats} seats leave room for {seats - 1} more players, "
                                      f"not {len(invitees)}.")
            return
        data["table"] = True
        data["table_invitees"] = invitees

    def _computers_fit(self, seats: int, levels: list[str], watch: bool, opponent: str, invites: str) -> bool:
        """Whether the computer players chosen fit the table, else the reason said on the form."""
        if watch:
            if opponent in ("user", "email", "open") or invites:
                self.add_error("watch", "A game you only watch has computer players in every seat: choose "
                                        "“The computer” under “Play with”, or no one, and invite nobody.")
                return False
            if len(levels) != seats:
                self.add_error("watch", f"To only watch, choose a computer player for each of the {seats} seats "
                                        f"(you chose {len(levels)}).")
                return False
            return True
        if len(levels) > seats - 1:
            others = f"{seats - 1} more player" + ("s" if seats > 2 else "")
            self.add_error(None, f"{seats} seats leave room for {others} besides you, "
                                 f"not {len(levels)} computer players.")
            return False
        return True

    def game_options(self) -> dict:
        return {"variant": list(self.cleaned_data.get("variants") or []) or "standard"}


class NoteForm(forms.ModelForm):
    class Meta:
        model = Note
        fields = ["text"]
        widgets = {"text": forms.Textarea(attrs={"rows": 5, "placeholder": "Only you can read these notes."})}
        labels = {"text": "My notes"}


class ChatForm(forms.ModelForm):
    class Meta:
        model = ChatMessage
        fields = ["text"]
        widgets = {"text": forms.TextInput(attrs={"autocomplete": "off", "placeholder": "Say something"})}
        labels = {"text": "Message"}
        # The field strips the text first, so a line of spaces is refused as a blank one.
        error_messages = {"text": {"required": "Write something first."}}
