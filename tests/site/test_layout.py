"""The base layout every page extends."""

import re
from pathlib import Path

import pytest
from django.urls import reverse


def test_the_home_page_offers_sign_up_to_a_visitor(client, db):
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert reverse("account_signup") in html
    assert reverse("account_login") in html
    assert "Logged in as" not in html
    assert f'href="{reverse("games:list")}"' not in html


def test_the_navigation_shows_who_is_logged_in(alice_client):
    html = alice_client.get("/").content.decode()

    assert "Logged in as" in html
    assert ">Alice</a>" in html
    assert f'action="{reverse("account_logout")}"' in html
    assert f'href="{reverse("games:list")}"' in html
    assert f'href="{reverse("journal:list")}"' in html


def test_htmx_comes_from_the_site_itself_with_the_csrf_token_on_body(alice_client):
    response = alice_client.get("/")
    html = response.content.decode()

    assert '<script src="/static/django_htmx/htmx-2.min.js" defer></script>' in html
    token = str(response.context["csrf_token"])
    # Read without the token: its random letters may spell "cdn".
    assert "unpkg.com" not in html and "cdn" not in html.replace(token, "").lower()
    assert f"<body hx-headers='{{\"X-CSRFToken\": \"{token}\"}}'>" in html


def test_the_layout_works_on_a_phone_and_in_the_dark(client, db):
    html = client.get("/").content.decode()
    css = (Path(__file__).parents[2] / "static/css/site.css").read_text()

    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "prefers-color-scheme: dark" in css
    assert 'href="#main"' in html and 'id="main"' in html


def colour_schemes():
    """The custom properties of site.css: the light scheme, and the dark one over it."""
    css = (Path(__file__).parents[2] / "static/css/site.css").read_text()
    light_block = re.search(r":root\s*{(.*?)}", css, re.S).group(1)
    dark_block = re.search(r"prefers-color-scheme: dark\)\s*{\s*:root\s*{(.*?)}", css, re.S).group(1)
    light = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", light_block))
    return {"light": light, "dark": {**light, **dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", dark_block))}}


def contrast(one, other):
    """WCAG 2 contrast ratio of two #rrggbb colours."""
    def luminance(colour):
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    high, low = sorted([luminance(one), luminance(other)], reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_fields_and_focus_rings_are_readable_in_both_schemes(scheme):
    colours = colour_schemes()[scheme]
    text_pairs = [  # WCAG AA for text: 4.5:1
        ("text", "bg"), ("text", "surface"), ("text", "surface-2"), ("muted", "bg"), ("muted", "surface"),
        ("muted", "surface-2"), ("accent", "bg"), ("accent", "surface"), ("accent-contrast", "accent"),
        ("success-text", "success-bg"), ("error-text", "error-bg"), ("warning-text", "warning-bg"),
        ("info-text", "info-bg"), ("surface", "error-text"),
    ]
    edge_pairs = [  # WCAG 1.4.11 for a field's edge and the focus ring: 3:1
        ("field-border", "surface"), ("field-border", "bg"), ("focus", "bg"), ("focus", "surface"),
    ]

    too_faint = [(fg, bg, round(contrast(colours[fg], colours[bg]), 2)) for fg, bg in text_pairs
                 if contrast(colours[fg], colours[bg]) < 4.5]
    too_faint += [(fg, bg, round(contrast(colours[fg], colours[bg]), 2)) for fg, bg in edge_pairs
                  if contrast(colours[fg], colours[bg]) < 3]
    assert too_faint == []


@pytest.mark.django_db
def test_every_page_carries_a_content_security_policy_without_inline_scripts_or_eval(client, alice_client):
    for response in (client.get("/"), client.get("/accounts/login/"), alice_client.get("/games/new/")):
        policy = response["Content-Security-Policy"]
        directives = {d.split()[0]: d.split()[1:] for d in policy.split(";") if d.strip()}
        assert directives["script-src"] == ["'self'"]
        assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == ["'none'"]
