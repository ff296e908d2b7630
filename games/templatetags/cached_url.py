"""``{% cached_url 'games:move' game.pk %}``: Django's ``{% url %}``, remembered.

Every answer to a move draws the board's forms and links again, each with its game's URLs
(a form per legal target carries two), and reversing a URL walks the URLconf each time:
an eighth of an answer's drawing.  A URL depends only on the view's name, its arguments,
the script prefix and the URLconf in force, so the answers are kept (per process, the
newest few thousand) under all of them.  The output is ``{% url %}``'s, ``as var`` too."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.template import defaulttags
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape

register = template.Library()


@lru_cache(maxsize=4096)
def _reversed(view_name, args: tuple, kwargs: tuple, current_app, prefix: str, urlconf) -> str:
    return reverse(view_name, args=args, kwargs=dict(kwargs), current_app=current_app)


def cached_reverse(view_name: str, *args) -> str:
    """``reverse(view_name, args=args)``, remembered as the tag remembers it."""
    return _reversed(view_name, args, (), None, get_script_prefix(), get_urlconf())


class CachedURLNode(defaulttags.URLNode):
    def render(self, context):
        if self.asvar is not None:
            return super().render(context)  # rare, and it swallows NoReverseMatch: as Django does
        args = tuple(arg.resolve(context) for arg in self.args)
        kwargs = tuple(sorted((k, v.resolve(context)) for k, v in self.kwargs.items()))
        try:
            current_app = context.request.current_app
        except AttributeError:
            try:
                current_app = context.request.resolver_match.namespace
            except AttributeError:
                current_app = None
        view_name = self.view_name.resolve(context)
        try:
            url = _reversed(view_name, args, kwargs, current_app, get_script_prefix(), get_urlconf())
        except TypeError:  # an argument that cannot be a key: reversed every time
            url = reverse(view_name, args=args, kwargs=dict(kwargs), current_app=current_app)
        return conditional_escape(url) if context.autoescape else url


@register.tag
def cached_url(parser, token):
    node = defaulttags.url(parser, token)
    return CachedURLNode(node.view_name, node.args, node.kwargs, node.asvar)
