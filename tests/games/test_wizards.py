"""The tarot wizards table on the site: tables and invitations, characters and their sheets,
sessions by page, who sees what (pages, partials, mails, exports), the journal and the
daily digest.  Alice is the game master, Bob and Carol play, Olive is an outsider."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games.engine import cards as deck
from games.engine.tarot_wizards import session as rules
from games.wizards import services, tasks
from games.wizards.models import Character, Member, PlaySession, SessionSeat
from journal.models import Entry

from .wizards_helpers import make_table, stack

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}

# Distinctive hands: a card's name found on a page is that card.
BOB = ["Ac", "9w", "M3", "7s", "Kp"]
CAROL = ["Aw", "8c", "M17", "2p", "Qs"]
GM = ["M16", "10s", "5p", "3w", "Nc", "6c", "4s"]
PILE = ["M13", "9p", "Pw"]
NAMES = {c: deck.name(c) for c in BOB + CAROL + GM + PILE}


@pytest.fixture
def carol(make_user):
    return make_user("carol", display_name="Carol")


@pytest.fixture
def carol_client(carol):
    from django.test import Client

    client = Client()
    client.force_login(carol)
    return client


@pytest.fixture
def table(alice, bob, carol):
    return make_table(alice, bob, carol)


@pytest.fixture
def session(table, alice):
    session = services.start_session(table, alice, title="The ferry")
    return stack(session, bob=BOB, carol=CAROL, gm=GM, top=PILE)


def act(session, user, move, version=None):
    session.refresh_from_db()
    return services.act(session.pk, user, move, session.version if version is None else version)


def key(user):
    return services.key_of(user)


def names_in(text: str, cards) -> set[str]:
    return {c for c in cards if NAMES[c] in text}


# --- tables ---------------------------------------------------------------------------------


def test_a_gm_makes_a_table_and_invites_players_by_name_and_by_address(alice_client, alice, bob, make_user):
    response = alice_client.post(reverse("wizards:new"), {"name": "Night Market", "campaign": "Bargains"})
    table = alice.wizard_tables_run.get()
    assert response.status_code == 302 and response.url == table.get_absolute_url()
    response = alice_client.post(reverse("wizards:invite", args=[table.pk]), {"who": "Bob"})
    assert response.status_code == 302
    response = alice_client.post(reverse("wizards:invite", args=[table.pk]), {"who": "nobody-here"})
    assert response.status_code == 400 and "Invite them by mail address" in response.content.decode()
    alice_client.post(reverse("wizards:invite", args=[table.pk]), {"who": "dora@example.org"})
    by_address = table.members.get(email="dora@example.org")
    assert by_address.user is None
    # Dora signs up later and follows the link in her mail.
    dora = make_user("dora", email="dora@example.org", display_name="Dora")
    from django.test import Client

    client = Client()
    client.force_login(dora)
    assert client.post(reverse("wizards:invitation", args=[by_address.token]), {"answer": "accept"}).status_code == 302
    by_address.refresh_from_db()
    assert by_address.user == dora and by_address.status == Member.Status.JOINED


def test_an_invited_player_joins_and_an_outsider_cannot_use_the_invitation(alice, bob, bob_client, outsider_client):
    table = services.create_table(alice, name="Night Market")
    member = services.invite(table, alice, "bob")
    assert outsider_client.get(reverse("wizards:invitation", args=[member.token])).status_code == 404
    assert bob_client.get(table.get_absolute_url()).status_code == 302  # to the invitation
    bob_client.post(reverse("wizards:invitation", args=[member.token]), {"answer": "accept"})
    assert bob_client.get(table.get_absolute_url()).status_code == 200


def test_only_the_gm_invites_and_starts_sessions(table, bob, bob_client):
    assert bob_client.post(reverse("wizards:start", args=[table.pk])).status_code == 400
    with pytest.raises(services.Refused):
        services.invite(table, bob, "outsider")


# --- characters -------------------------------------------------------------------------------


def character_post(**more):
    data = {"name": "Wren", "spread_source": "site", "practice_choice": "Witchcraft", "prime": "p",
            "skill_origin": "Herb lore", "skill_purpose": "Bargaining", "skill_means": "Sewing",
            "note_heart": "Wren listens more than she speaks."}
    data.update(more)
    return data


def test_a_character_is_made_from_six_cards_the_site_draws(alice, bob, carol, bob_client):
    table = services.create_table(alice, name="Night Market")
    services.answer_invitation(services.invite(table, alice, "bob"), bob, accept=True)
    response = bob_client.post(reverse("wizards:character", args=[table.pk]), character_post())
    character = Character.objects.get(owner=bob)
    assert response.status_code == 302
    assert character.spread_drawn_by_site and len({r["card"] for r in character.spread}) == 6
    assert character.spread_seed == services.creation_seed(table, bob)  # the table's seed: shown again at will
    assert character.practice["p"] == "Healing" and character.prime == "p"
    assert character.skills == {"origin": "Herb lore", "purpose": "Bargaining", "means": "Sewing"}
    assert character.spread[0]["note"] == "Wren listens more than she speaks."
    # The draw is kept: saving again does not draw again.
    cards = [r["card"] for r in character.spread]
    bob_client.post(reverse("wizards:character", args=[table.pk]), character_post(name="Wren the Wise"))
    character.refresh_from_db()
    assert [r["card"] for r in character.spread] == cards and character.name == "Wren the Wise"


def test_a_character_may_record_a_physical_draw_and_bad_cards_are_refused(alice, bob, bob_client):
    table = services.create_table(alice, name="Night Market")
    services.answer_invitation(services.invite(table, alice, "bob"), bob, accept=True)
    cards = {"card_heart": "M9", "card_obstacle": "3s", "card_origin": "Qc", "card_future": "10w",
             "card_purpose": "Ap", "card_means": "M9"}
    own = {"practice_choice": "", "practice_name": "Cartography", "aspect_s": "Roads", "aspect_w": "Beacons",
           "aspect_c": "Rivers", "aspect_p": "Borders"}
    response = bob_client.post(reverse("wizards:character", args=[table.pk]),
                               character_post(spread_source="physical", **cards, **own))
    assert response.status_code == 400 and "already in the spread" in response.content.decode()
    assert not Character.objects.exists()
    cards["card_means"] = "5p"
    response = bob_client.post(reverse("wizards:character", args=[table.pk]),
                               character_post(spread_source="physical", reversed_future="on", **cards, **own))
    character = Character.objects.get(owner=bob)
    assert not character.spread_drawn_by_site and [r["card"] for r in character.spread][:2] == ["M9", "3s"]
    assert character.spread[3]["reversed"] and character.practice_name == "Cartography"


def test_aspects_typed_beside_a_practice_of_the_text_are_kept_and_empty_ones_take_its_own(alice, bob,
                                                                                          bob_client):
    table = services.create_table(alice, name="Night Market")
    services.answer_invitation(services.invite(table, alice, "bob"), bob, accept=True)
    url = reverse("wizards:character", args=[table.pk])
    response = bob_client.post(url, character_post(practice_choice="Psychic", aspect_s="Sharp tongue",
                                                   aspect_c="  "))
    assert response.status_code == 302
    character = Character.objects.get(owner=bob)
    assert character.practice_name == "Psychic"
    assert character.practice == {"s": "Sharp tongue", "w": "Instinct", "c": "Emotion", "p": "Memory"}
    # The form shows them again as kept, and saving it unchanged keeps them.
    page = bob_client.get(url).content.decode()
    assert 'value="Sharp tongue"' in page and '<option value="Psychic" selected>' in page
    form = re.findall(r'name="(aspect_\w)"[^>]*value="([^"]*)"', page)
    assert dict(form) == {"aspect_s": "Sharp tongue", "aspect_w": "Instinct", "aspect_c": "Emotion",
                          "aspect_p": "Memory"}
    bob_client.post(url, character_post(practice_choice="Psychic", **dict(form)))
    character.refresh_from_db()
    assert character.practice["s"] == "Sharp tongue" and character.practice_name == "Psychic"
    assert "Sharp tongue" in bob_client.get(character.get_absolute_url()).content.decode()


def test_the_sheet_prints_as_pdf_and_exports_as_json_for_the_table_only(table, bob, bob_client, alice_client,
                                                                        outsider_client):
    character = Character.objects.get(owner=bob)
    page = bob_client.get(character.get_absolute_url()).content.decode()
    assert "Morwen" in page and "Played by you" in page and "The Fool" in page
    assert "Played by Bob" in alice_client.get(character.get_absolute_url()).content.decode()
    pdf = bob_client.get(reverse("wizards:sheet_pdf", args=[character.pk]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    document = json.loads(bob_client.get(reverse("wizards:sheet_json", args=[character.pk])).content)
    assert document["name"] == "Morwen" and document["practice"]["prime"] == "s"
    assert [r["card"] for r in document["spread"]] == ["M0", "2c", "3c", "4c", "5c", "7c"]
    for name in ("sheet", "sheet_pdf", "sheet_json"):
        assert outsider_client.get(reverse(f"wizards:{name}", args=[character.pk])).status_code == 404


# --- sessions -------------------------------------------------------------------------------


def test_a_session_deals_five_to_each_player_and_seven_to_the_gm(table, alice, bob, carol):
    session = services.start_session(table, alice)
    hands = [len(a["hand"]) for a in session.state["actors"].values()]
    assert hands == [5, 5] and len(session.state["gm_hand"]) == 7
    assert SessionSeat.objects.filter(session=session).count() == 3
    with pytest.raises(services.Refused, match="already in play"):
        services.start_session(table, alice)


def test_a_cast_by_page_resolves_against_the_gms_challenge(session, alice, bob, alice_client, bob_client):
    response = alice_client.post(reverse("wizards:act", args=[session.pk]),
                                 {"type": "challenge", "source": "rating", "rating": "9", "version": session.version,
                                  "target": key(bob), "narration": "The ferryman *will not* wait."}, **HX)
    assert response.status_code == 200
    session.refresh_from_db()
    # Bob's Ace of Cups: 12 against 9.
    response = bob_client.post(reverse("wizards:act", args=[session.pk]),
                               {"type": "cast", "index": "1", "version": session.version, "narration": "Tides rise."})
    assert response.status_code == 302
    page = bob_client.get(session.get_absolute_url()).content.decode()
    assert "You cast Ace of Cups" in page and "Value 12 meets rating 9: you succeeded." in page
    assert "<em>will not</em>" in page
    other = alice_client.get(session.get_absolute_url()).content.decode()
    assert "Bob cast Ace of Cups" in other and "Bob succeeded" in other


def test_a_stale_act_is_refused_with_409_and_changes_nothing(session, bob, bob_client):
    before = session.version
    act(session, bob, {"type": "post", "narration": "I look around."})
    response = bob_client.post(reverse("wizards:act", args=[session.pk]),
                               {"type": "cast", "index": "1", "version": before}, **HX)
    assert response.status_code == 409 and "moved on" in response.content.decode()
    session.refresh_from_db()
    assert session.version == before + 1 and session.state["actors"][key(bob)]["hand"][0] == "Ac"


@pytest.mark.parametrize("post, words", [
    ({"type": "fly"}, "not something one can do"),
    ({"type": "cast", "index": "9"}, "1 to 5"),
    ({"type": "cast", "index": "x"}, "not a number"),
    ({"type": "challenge", "source": "rating", "rating": "3"}, "Only the game master"),
    ({"type": "post"}, "Write something"),
])
def test_bad_input_gets_a_400_with_words_and_changes_nothing(session, bob_client, post, words):
    response = bob_client.post(reverse("wizards:act", args=[session.pk]), {**post, "version": session.version}, **HX)
    assert response.status_code == 400 and words in response.content.decode()
    assert PlaySession.objects.get(pk=session.pk).version == session.version


def test_narration_is_markdown_without_html(session, bob):
    act(session, bob, {"type": "post", "narration": "**Bold** <script>alert(1)</script>"})
    from django.test import Client

    client = Client()
    client.force_login(bob)
    page = client.get(session.get_absolute_url()).content.decode()
    assert "<strong>Bold</strong>" in page and "<script>alert(1)" not in page


def test_the_page_polls_and_answers_204_until_something_changes(session, bob, bob_client):
    url = reverse("wizards:session_version", args=[session.pk])
    assert bob_client.get(url, {"v": session.version}).status_code == 204
    act(session, bob, {"type": "post", "narration": "Hello"})
    response = bob_client.get(url, {"v": session.version})
    assert response.status_code == 200 and response["HX-Trigger"] == "session-changed"


# --- who sees what --------------------------------------------------------------------------


def hidden_from(session, user):
    """The cards ``user`` must not read now: others' hands, the GM's, the enemies' piles."""
    state = PlaySession.objects.get(pk=session.pk).state
    me = services.key_of(user)
    cards = set(state["gm_hand"]) if me != rules.GM else set()
    for k, a in state["actors"].items():
        if k != me and not (me == rules.GM and a["kind"] == "enemy"):
            cards |= set(a["hand"])
    if me != rules.GM:
        for e in state["enemies"].values():
            cards |= set(e["pile"])
    return cards & set(NAMES)


def everything_read(client, session):
    session.refresh_from_db()
    character = Character.objects.filter(table=session.table).first()
    urls = [session.get_absolute_url(), session.table.get_absolute_url(), reverse("wizards:list"),
            character.get_absolute_url(), reverse("wizards:sheet_json", args=[character.pk])]
    texts = [client.get(url).content.decode() for url in urls]
    texts.append(client.get(session.get_absolute_url(), **HX).content.decode())
    return "\n".join(texts)


def test_a_player_never_reads_the_gms_hand_another_hand_or_a_face_down_card(
        session, alice, bob, carol, bob_client, carol_client, alice_client, outsider_client, smtp_server):
    act(session, alice, {"type": "enemy", "name": "The Drowned Bell", "cards": 3})
    act(session, alice, {"type": "challenge", "source": "enemy", "enemy": "e1"})  # reveals Death, the top
    act(session, bob, {"type": "divine", "index": 2, "narration": "I read the water."})  # sees the deck's top
    act(session, alice, {"type": "ask", "target": key(bob), "narration": "The bell tolls."})
    session.refresh_from_db()
    for user, client in ((bob, bob_client), (carol, carol_client)):
        text = everything_read(client, session)
        assert names_in(text, hidden_from(session, user)) == set(), user
        mine = session.state["actors"][key(user)]["hand"]
        assert names_in(text, mine) == set(mine)
    gm_text = everything_read(alice_client, session)
    assert names_in(gm_text, session.state["gm_hand"]) == set(session.state["gm_hand"])
    assert "Nine of Pentacles" in gm_text  # the pile's next card, face down: the GM's alone
    assert "The top card of the deck is" not in everything_read(carol_client, session)
    # The mails: Bob's "asked to act" mail numbers his own hand and nothing hidden.
    seat = session.seats.get(key=key(bob))
    assert tasks.deliver_ask_mail(seat.pk, session.version) == "sent"
    mail = smtp_server.text(smtp_server.wait_for("bob@example.com"))
    assert names_in(mail, hidden_from(session, bob)) == set()
    assert "1. cast Ace of Cups" in mail and "Alice asks you to act" in mail
    # An outsider gets nothing from any address of the table.
    character = Character.objects.get(owner=bob)
    for url in (session.get_absolute_url(), session.table.get_absolute_url(),
                reverse("wizards:session_version", args=[session.pk]), character.get_absolute_url(),
                reverse("wizards:sheet_json", args=[character.pk]), reverse("wizards:sheet_pdf", args=[character.pk]),
                reverse("wizards:character", args=[session.table_id])):
        assert outsider_client.get(url).status_code == 404, url
    assert outsider_client.post(reverse("wizards:act", args=[session.pk]),
                                {"type": "post", "narration": "hi", "version": session.version}).status_code == 404
    assert "Salt Road" not in outsider_client.get(reverse("wizards:list")).content.decode()


def test_pages_name_people_by_name_or_you(session, alice, bob, bob_client, carol_client):
    act(session, alice, {"type": "ask", "target": key(bob)})
    bob_page = bob_client.get(session.get_absolute_url()).content.decode()
    carol_page = carol_client.get(session.get_absolute_url()).content.decode()
    assert "Alice asked you to act." in bob_page and "Game master: Alice." in bob_page
    assert "Alice asked Bob to act." in carol_page and "Asked to act: Bob." in carol_page
    for page in (bob_page, carol_page):
        # A CSRF token is random letters and digits, so it may hold "u2" or "SeAt" by chance
        # (CI once saw "...Dfu24b..."): read the page without its tokens.
        words = re.sub(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[A-Za-z0-9]+', "", page)
        assert "seat" not in words.lower()
        assert "u%d" % bob.pk not in words.replace(f'value="u{bob.pk}"', "")


# --- the journal and the digest -------------------------------------------------------------


def test_a_finished_session_leaves_each_participant_an_entry_with_their_cards(session, alice, bob, carol):
    act(session, alice, {"type": "challenge", "source": "hand", "index": 2})  # Ten of Swords
    act(session, bob, {"type": "cast", "index": 3, "narration": "The Empress answers."})
    act(session, alice, {"type": "end_session", "narration": "Dawn."})
    made = tasks.make_journal_entries(session.pk)
    assert made == 3 and tasks.make_journal_entries(session.pk) == 0  # once each, however often asked
    bob_entry = Entry.objects.get(owner=bob)
    assert bob_entry.mode == "tarot_wizards" and "session 1" in bob_entry.title
    assert [c.card for c in bob_entry.cards.all()] == ["M3"]
    assert any("The Empress answers." in line for line in bob_entry.reading["story"])
    assert [c.card for c in Entry.objects.get(owner=alice).cards.all()] == ["10s"]
    # Carol's entry tells the story as she could read it: no private lines of Bob's.
    carol_story = "\n".join(Entry.objects.get(owner=carol).reading["story"])
    assert "Bob cast The Empress" in carol_story and "You drew" in carol_story
    assert names_in(carol_story, BOB[:2] + GM[2:]) == set()
    # Reflections and seals, as on any reading.
    from journal import services as journal

    seal = journal.request_seal(bob_entry, ["M3", "10s"], ["abundance", "collapse"])
    assert seal.entry == bob_entry
    from django.test import Client

    client = Client()
    client.force_login(bob)
    page = client.get(bob_entry.get_absolute_url()).content.decode()
    assert "The Empress" in page and "The Empress answers." in page


def test_the_daily_digest_goes_once_a_day_to_slow_tables_only_when_something_happened(
        alice, bob, carol, smtp_server):
    table = make_table(alice, bob, carol, slow=True)
    session = stack(services.start_session(table, alice), bob=BOB, carol=CAROL, gm=GM)
    act(session, bob, {"type": "post", "narration": "We row on."})
    assert tasks.send_table_digest(carol.pk, "2026-11-25").startswith("sent")
    digest = smtp_server.text(smtp_server.wait_for("carol@example.com"))
    assert "Bob wrote:" in digest and "We row on." in digest and "The Salt Road" in digest
    assert names_in(digest, hidden_from(session, carol)) == set()
    assert tasks.send_table_digest(carol.pk, "2026-11-25") == "already sent"
    assert tasks.send_table_digest(carol.pk, "2026-11-26") == "nothing new"
    assert tasks.send_table_digests() >= 1  # everyone at the slow table who has no digest today


def test_the_services_name_the_tasks_that_exist():
    assert (tasks.send_invitation_mail.name, tasks.send_ask_mail.name, tasks.make_journal_entries.name) == (
        services.SEND_INVITATION, services.SEND_ASK_MAIL, services.MAKE_JOURNAL_ENTRIES)


def test_a_player_who_joins_later_follows_the_session_but_cannot_act_in_it(session, alice, make_user):
    from django.test import Client

    dora = make_user("dora", display_name="Dora")
    services.answer_invitation(services.invite(session.table, alice, "dora"), dora, accept=True)
    client = Client()
    client.force_login(dora)
    page = client.get(session.get_absolute_url()).content.decode()
    assert "You follow this session without a wizard in it." in page
    assert names_in(page, hidden_from(session, dora)) == set()
    response = client.post(reverse("wizards:act", args=[session.pk]),
                           {"type": "post", "narration": "Hi", "version": session.version})
    assert response.status_code == 400 and "no wizard in this session" in response.content.decode()


def test_a_sessions_record_is_its_start_and_acts_and_replay_rebuilds_it(session, alice, bob, carol):
    act(session, alice, {"type": "challenge", "source": "deck"})
    act(session, bob, {"type": "roll", "narration": "I shove the door."})
    act(session, carol, {"type": "meditate", "index": 2})
    session.refresh_from_db()
    assert rules.replay(session.start, [(k, m) for k, m in session.acts]) == session.state
    assert [r["by"] for r in session.state["randomness"] if r["what"] == "1d10"] == [key(bob)]


def test_the_digest_is_on_the_beats_timetable(settings):
    assert settings.CELERY_BEAT_SCHEDULE["wizards-table-digests"]["task"] == tasks.send_table_digests.name


def test_an_invitation_by_address_is_mailed_with_its_link(alice, smtp_server):
    table = services.create_table(alice, name="Night Market")
    member = services.invite(table, alice, "dora@example.org")
    assert tasks.send_invitation_mail(member.pk) == "sent"
    mail = smtp_server.text(smtp_server.wait_for("dora@example.org"))
    assert "Alice invites you" in mail and f"/wizards/invitation/{member.token}/" in mail


def test_skills_learnt_in_play_join_the_sheet_and_the_next_session(table, alice, bob, bob_client):
    data = character_post(name="Morwen", practice_choice="Elementalism", prime="s",
                          extra_skills="Boat handling\n\nKnot magic")
    assert bob_client.post(reverse("wizards:character", args=[table.pk]), data).status_code == 302
    character = Character.objects.get(owner=bob)
    assert character.extra_skills == ["Boat handling", "Knot magic"]
    session = services.start_session(table, alice)
    assert "Boat handling" in session.state["actors"][key(bob)]["skills"]


def test_a_mundane_roll_by_page_with_a_skill_faces_the_rating_less_two(session, alice, bob, bob_client):
    act(session, alice, {"type": "challenge", "source": "rating", "rating": 5})
    session.refresh_from_db()
    response = bob_client.post(reverse("wizards:act", args=[session.pk]),
                               {"type": "roll", "skill": "Latin", "narration": "I read the old sign.",
                                "version": session.version}, **HX)
    page = response.content.decode()
    assert response.status_code == 200 and "You rolled 1d10 for a mundane effort" in page
    assert "rating 3 (with a skill)" in page or "falls short of rating 3" in page
