"""Names people go by, compared as a reader sees them.

A display name is what other players read of someone; a user name is what they type to
invite them.  A display name that reads as another account's user name ("zed" shown by
Mallory) or as the site itself lets one person pass for another, so it is refused, and so
is a new user name that reads as a name someone already goes by.  "Reads as" is decided
on a key: Unicode's compatibility normalisation (NFKC: full-width and styled letters
become plain ones), case folding, stray marks and invisible characters left out, and each
character that Unicode lists as confusable with an ASCII one replaced by it (Cyrillic "е"
by "e", "0" by "o"), much as the skeleton of UTS #39 does.  Each account keeps the keys of its two names (``User.username_key``,
``User.display_name_key``), so the comparison is one indexed query.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from django.contrib.auth import get_user_model
from django.db.models import Q

SITE_NAME = "Sefirot Online"
# ASCII characters that Unicode lists as confusable with another ASCII one (after case
# folding, which settles "O" and "I" too).
ASCII_TWINS = {"0": "o", "1": "l", "|": "l", "`": "'"}


@cache
def _plain(char: str) -> str:
    """The ASCII character ``char`` can be taken for, or ``char`` itself."""
    if char.isascii():
        return ASCII_TWINS.get(char, char)
    # Unicode's table takes 10 MB and half a second to load: only a name beyond ASCII
    # needs it, so most processes never do.
    from confusable_homoglyphs import confusables

    for found in confusables.is_confusable(char, greedy=True) or []:
        for glyph in found["homoglyphs"]:
            if len(glyph["c"]) == 1 and glyph["c"].isascii():
                twin = glyph["c"].casefold()
                return ASCII_TWINS.get(twin, twin)
    return char


def name_key(name: str) -> str:
    """What ``name`` reads as: two names with one key can be taken for each other."""
    text = unicodedata.normalize("NFKC", name or "").casefold()
    # Marks left over a letter after NFKC ("z\u0337") and invisible characters (a zero-width
    # space, a soft hyphen) change nothing a reader sees: left out.
    return "".join(_plain(char) for char in text if unicodedata.category(char) not in ("Mn", "Me", "Cf"))


def _letters(key: str) -> str:
    return "".join(char for char in key if char.isalnum())


def _is_the_site(key: str) -> bool:
    # Spaces and marks aside: "Sefirot-Online" and "sefirotonline" read as the site too.
    return _letters(key) == _letters(name_key(SITE_NAME))


def display_name_refused(display_name: str, user) -> str | None:
    """Why ``user`` may not go by ``display_name``, in words for them; None if they may.
    Their own user name is theirs to show."""
    key = name_key(display_name)
    if not key:
        return None
    if _is_the_site(key):
        return f"“{display_name}” reads as the site’s own name; choose a name of your own."
    others = get_user_model().objects.filter(username_key=key)
    if user is not None and user.pk is not None:
        others = others.exclude(pk=user.pk)
    if others.exists():
        return (f"“{display_name}” reads as another player’s user name, so others could take you for them; "
                "choose another.")
    return None


def username_refused(username: str) -> str | None:
    """Why a new account may not take ``username``: it reads as the site, or as a name
    another account goes by (its user name or its display name)."""
    key = name_key(username)
    if _is_the_site(key):
        return "That name reads as the site’s own name; choose a name of your own."
    if get_user_model().objects.filter(Q(username_key=key) | Q(display_name_key=key)).exists():
        return "That name reads as the name of another player, so others could take you for them; choose another."
    return None
