"""allauth's adapter, changed where the login throttle counts failures and where a new
user name is checked."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Q

from . import names


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        """allauth's checks, then: a new user name that reads as a name another player goes
        by (their user name or display name, however spelt) or as the site is refused."""
        username = super().clean_username(username, shallow=shallow)
        refused = None if shallow else names.username_refused(username)
        if refused:
            raise ValidationError(refused)
        return username

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        """Failed logins count per account *and* per address the attempts come from.

        allauth counts them per login as typed, so "alice" and "alice@example.com" were
        two counters, and five wrong passwords from anywhere locked the real owner out
        of her own account for five minutes. Counted per (account, address), a stranger
        locks out only themselves; the per-address limit still stops them trying many
        accounts."""
        login = (credentials.get("email") or credentials.get("username") or "").strip().lower()
        user = (get_user_model().objects.filter(Q(username__iexact=login) | Q(emailaddress__email__iexact=login)
                                                | Q(email__iexact=login)).values_list("pk", flat=True).first()
                if login else None)
        account = f"user:{user}" if user is not None else f"login:{login}"
        return f"{super()._get_login_attempts_cache_key(request)}{account}:{self.get_client_ip(request)}"
