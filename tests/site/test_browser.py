"""In real Chromium: a newcomer signs up, confirms the address from the mail that was
really sent, logs in, changes the turn-mail preference and logs out."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.support.users import PASSWORD


@pytest.mark.browser
def test_a_newcomer_signs_up_confirms_logs_in_sets_turn_mail_and_logs_out(page, live_server, smtp_server):
    page.goto("/")
    page.get_by_role("link", name="Sign up").first.click()

    page.get_by_label("Email").fill("erin@example.com")
    page.get_by_label("Username").fill("erin")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Verify")

    # The mail went over SMTP to the test server; open its link as if from a mail
    # program, in a session that knows nothing of the sign-up.
    message = smtp_server.wait_for("erin@example.com")
    link = next(link for link in smtp_server.links(message) if "/accounts/confirm-email/" in link)
    assert link.startswith(live_server.url)
    page.context.clear_cookies()
    page.goto(link)
    page.get_by_role("button", name="Confirm").click()

    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    page.get_by_label("Username or email").fill("erin")
    page.get_by_label("Password:").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("current-user")).to_have_text("erin")

    page.get_by_test_id("current-user").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your profile")
    page.get_by_label("Never").check()
    page.get_by_role("button", name="Save profile").click()
    expect(page.get_by_role("status")).to_contain_text("Your profile is saved.")
    expect(page.get_by_label("Never")).to_be_checked()
    assert get_user_model().objects.get(username="erin").turn_mail == "never"

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("banner").get_by_role("link", name="Log in")).to_be_visible()
    expect(page.get_by_test_id("current-user")).to_have_count(0)
