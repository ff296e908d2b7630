import zoneinfo
from functools import cache

from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.contrib.auth import get_user_model

from . import names


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    # Only zones the running Python knows, so a saved choice always activates.
    names = sorted(zoneinfo.available_timezones() - {"localtime", "Factory"})
    return [(name, name.replace("_", " ")) for name in names]


class ProfileForm(forms.ModelForm):
    time_zone = forms.ChoiceField(
        choices=time_zone_choices,
        help_text="Times on the site and deadlines in your mail are shown in this zone.",
    )

    class Meta:
        model = get_user_model()
        fields = ["display_name", "time_zone", "turn_mail", "profile_private"]
        labels = {"display_name": "Display name", "turn_mail": "Mail when it is your turn",
                  "profile_private": "Keep my player page private"}
        help_texts = {"display_name": "What other players see. Leave empty to show your username.",
                      "profile_private": "Others then see only your name there, not your games, results or "
                                         "ratings. Your name still shows in your games and in searches."}
        widgets = {"turn_mail": forms.RadioSelect}

    def clean_display_name(self):
        display_name = " ".join(self.cleaned_data["display_name"].split())
        refused = names.display_name_refused(display_name, self.instance)
        if refused:
            raise forms.ValidationError(refused)
        return display_name


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text="To make sure it is you.",
    )

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password.")
        return password


class LoginForm(AllauthLoginForm):
    """allauth's login form, with a label that says what the one box accepts."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["login"].label = "Username or email"
        # Password managers file the login under the username as often as the address.
        self.fields["login"].widget.attrs["autocomplete"] = "username"
