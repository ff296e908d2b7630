"""``soft_hyphens``: a board space's name with soft hyphens where the word may break.

A phone's board gives a space about sixty pixels, narrower than "Understanding": the
browser broke it anywhere ("Understand / ing").  With soft hyphens from a hyphenation
dictionary (pyphen, LibreOffice's patterns) it breaks as a typesetter would ("Under- /
standing") and only where it must; the hyphens are invisible otherwise.
"""

from __future__ import annotations

import functools
import re

import pyphen
from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

register = template.Library()

SOFT_HYPHEN = "\u00ad"
LONG_WORD = re.compile(r"[A-Za-z]{8,}")  # shorter words fit a space on any screen


@functools.cache
def _dictionary() -> pyphen.Pyphen:
    # The American patterns break the Tree's names where a reader expects (Foun-da-tion,
    # Splen-dour); the British ones give Found-a-tion and Splend-our.
    return pyphen.Pyphen(lang="en_US")


@functools.cache
def _hyphenated(word: str) -> str:
    return _dictionary().inserted(word, hyphen=SOFT_HYPHEN)


@register.filter
def soft_hyphens(text) -> str:
    escaped = str(conditional_escape(text))
    return mark_safe(LONG_WORD.sub(lambda found: _hyphenated(found.group()), escaped))
