"""Reading replies to turn mail: the reply address, the first line, the move it names."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from games.engine import IllegalMove
from games.mail.inbound import UnreadableMove, first_line, is_automatic, parse, read_move, reply_target
from games.mail.outgoing import NumberedMove, parse_reply_address

MOVES = [
    NumberedMove(1, "Play the Three of Wands onto the left Seeress", {"type": "play", "card": "3w", "column": 0}),
    NumberedMove(2, "Play the Three of Wands onto the middle Seeress", {"type": "play", "card": "3w", "column": 1}),
    NumberedMove(3, "Play The Fool to the Crown", {"type": "play", "card": "M0", "to": "crown"}),
]


def message(body: str, *, html: str | None = None, **headers) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = headers.pop("From", "Alice <alice@example.com>")
    mail["To"] = headers.pop("To", "play+abcdefghijklmnopqrstuvwxyz012345.7@sefirot.localhost")
    mail["Subject"] = "Re: Your move"
    for name, value in headers.items():
        mail[name.replace("_", "-")] = value
    mail.set_content(body)
    if html is not None:
        mail.add_alternative(html, subtype="html")
    return parse(mail.as_bytes())


def test_a_reply_address_names_the_seat_token_and_the_version(settings):
    token = "Ab-_" + "x" * 39
    assert parse_reply_address(f"play+{token}.12@{settings.MAIL_DOMAIN}") == (token, 12)
    assert parse_reply_address(f"<play+{token}.12@SEFIROT.localhost>") == (token, 12)


@pytest.mark.parametrize("address", [
    "play+short.1@sefirot.localhost",  # too short to be a token
    "play+abcdefghijklmnopqrstuvwxyz.1@example.org",  # another domain
    "play+abcdefghijklmnopqrstuvwxyz@sefirot.localhost",  # no version
    "alice@example.com",
    "",
])
def test_anything_else_is_not_a_reply_address(address):
    assert parse_reply_address(address) is None


def test_the_reply_address_is_found_in_the_envelope_or_the_headers():
    mail = message("3", To="Sefirot <play+abcdefghijklmnopqrstuvwxyz012345.7@sefirot.localhost>")
    assert reply_target(mail) == ("abcdefghijklmnopqrstuvwxyz012345", 7)
    other = message("3", To="someone@example.org")
    assert reply_target(other) is None
    assert reply_target(other, ["play+zyxwvutsrqponmlkjihgfedcba.9@sefirot.localhost"]) == (
        "zyxwvutsrqponmlkjihgfedcba", 9)


def test_the_first_line_is_what_the_player_wrote_above_the_quote():
    assert first_line(message("\n\n  3  \nthanks!\n\n> Your moves\n> 1. ...")) == "3"
    assert first_line(message("On Tue, 1 Dec 2026, Sefirot wrote:\n> 1. Play")) == ""
    assert first_line(message("> 1. Play the Fool\n")) == ""
    assert first_line(message("")) == ""


def test_an_html_only_reply_is_read_without_its_tags_and_quotes():
    mail = EmailMessage()
    mail["From"] = "alice@example.com"
    mail.set_content("<div>Play&nbsp;the Fool to the Crown</div><blockquote>1. old</blockquote>", subtype="html")
    assert first_line(parse(mail.as_bytes())) == "Play the Fool to the Crown"


def test_a_move_is_read_by_its_number():
    assert read_move("2", MOVES) is MOVES[1]
    assert read_move("#3.", MOVES) is MOVES[2]
    assert read_move("Move 1 please", MOVES) is MOVES[0]


def test_a_number_outside_the_list_is_an_illegal_move():
    with pytest.raises(IllegalMove, match="numbered 1 to 3"):
        read_move("4", MOVES)
    with pytest.raises(IllegalMove):
        read_move("0", MOVES)


def test_a_move_is_read_by_its_words_whatever_the_case_and_punctuation():
    assert read_move("play the fool to the crown!", MOVES) is MOVES[2]
    assert read_move("Play The Fool", MOVES) is MOVES[2]  # a beginning that fits one move only


def test_words_that_fit_several_moves_ask_for_the_number():
    with pytest.raises(UnreadableMove, match="more than one move"):
        read_move("Play the Three of Wands", MOVES)


def test_words_that_name_no_legal_move_are_an_illegal_move():
    with pytest.raises(IllegalMove, match="not one of your moves"):
        read_move("Play The Sun to the Crown", MOVES)


def test_an_empty_first_line_asks_for_a_move():
    with pytest.raises(UnreadableMove, match="first line"):
        read_move("", MOVES)


@pytest.mark.parametrize("headers, envelope_from", [
    ({"Auto-Submitted": "auto-replied"}, None),
    ({"Precedence": "bulk"}, None),
    ({"X-Autoreply": "yes"}, None),
    ({"List-Id": "<games.lists.example.org>"}, None),
    ({}, ""),  # a bounce: the null envelope sender
])
def test_robots_are_recognised_so_they_are_never_answered(headers, envelope_from):
    assert is_automatic(message("3", **headers), envelope_from)


def test_a_person_is_not_a_robot():
    assert not is_automatic(message("3", Auto_Submitted="no"), "alice@example.com")
