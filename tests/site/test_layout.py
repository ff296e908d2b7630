"""The base layout every page extends."""

from pathlib import Path

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
    assert "unpkg.com" not in html and "cdn" not in html.lower()
    token = response.context["csrf_token"]
    assert f"<body hx-headers='{{\"X-CSRFToken\": \"{token}\"}}'>" in html


def test_the_layout_works_on_a_phone_and_in_the_dark(client, db):
    html = client.get("/").content.decode()
    css = (Path(__file__).parents[2] / "static/css/site.css").read_text()

    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "prefers-color-scheme: dark" in css
    assert 'href="#main"' in html and 'id="main"' in html
