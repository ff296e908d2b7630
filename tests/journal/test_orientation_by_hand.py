"""A reading written down by hand records which way up each card lay: the position's card
(its box) and, written "reversed" after its name, every Minor laid on it, in any spread."""

from __future__ import annotations

import pytest

from journal import readings
from journal.models import Entry

from .test_entries import post_by_hand

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("spread", ["one", "three", "free"])
def test_a_minor_written_reversed_is_kept_reversed_in_any_spread(alice_client, alice, spread):
    response = post_by_hand(alice_client, spread, "Upside down",
                            {"label": "Here", "card": "M9", "reversed": "on",
                             "minors": "Ace of Cups reversed, 3s, 5p (r)"})
    assert response.status_code == 302, response.content.decode()[:2000]
    entry = Entry.objects.get(owner=alice)
    position = entry.reading["sections"][0]["positions"][0]
    assert position["reversed"] is True
    assert position["minors"] == [{"card": "Ac", "reversed": True}, {"card": "3s", "reversed": False},
                                  {"card": "5p", "reversed": True}]
    assert sorted(entry.cards.filter(reversed=True).values_list("card", flat=True)) == ["5p", "Ac", "M9"]
    page = alice_client.get(entry.get_absolute_url()).content.decode()
    assert page.count("(reversed)") == 3


def test_the_reversed_mark_is_read_in_its_usual_spellings():
    assert readings.parse_oriented_cards("Ac rev; The Sun (Reversed), 9p, Nine of Cups reversed") == [
        ("Ac", True), ("M19", True), ("9p", False), ("9c", True)]
    with pytest.raises(readings.ReadingError):
        readings.parse_oriented_cards("reversed")
