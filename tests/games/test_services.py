"""games.services: starting games, invitations, and moves checked then done under a lock."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import services, signals
from games.engine import IllegalMove
from games.models import Game, Move, Seat

from .conftest import play_random_moves, reload, two_player_mode

pytestmark = pytest.mark.django_db


def first_legal(game, seat_index=None):
    rules = game.rules
    seat_index = game.to_act[0] if seat_index is None else seat_index
    return rules.legal_moves(rules.loads(game.state), seat_index)[0]


def test_a_solo_game_starts_at_once(alice):
    game = services.start_game(alice, "know_thyself", {"variant": ["fated", "meditative"]})
    assert game.status == Game.Status.ACTIVE and game.started_at is not None
    assert game.options["variant"] == ["fated", "meditative"]
    assert game.to_act == [0] and game.version == 0
    assert game.seats.get().user == alice


def test_it_refuses_an_unknown_variant_or_mode_with_the_engines_words(alice):
    with pytest.raises(services.CannotStart, match="Unknown variant"):
        services.start_game(alice, "know_thyself", {"variant": "backwards"})
    with pytest.raises(services.CannotStart, match="Unknown game"):
        services.start_game(alice, "snap")
    assert not Game.objects.exists()


def test_a_two_player_game_waits_for_the_invited_player(alice, bob):
    game = services.start_game(alice, two_player_mode(), opponent=bob)
    assert game.status == Game.Status.INVITED
    with pytest.raises(services.GameNotRunning):
        services.submit_move(game.pk, alice, first_legal(game, 0), 0)
    services.accept_invitation(game.pk, bob)
    game = reload(game)
    assert game.status == Game.Status.ACTIVE
    assert [s.user for s in game.seats.all()] == [alice, bob]


def test_a_declined_invitation_ends_the_game(alice, bob):
    game = services.start_game(alice, two_player_mode(), opponent=bob)
    services.decline_invitation(game.pk, bob)
    assert reload(game).status == Game.Status.DECLINED
    with pytest.raises(services.CannotJoin):
        services.accept_invitation(game.pk, bob)


def test_only_the_invited_user_can_accept(alice, bob, outsider):
    game = services.start_game(alice, two_player_mode(), opponent=bob)
    with pytest.raises(services.CannotJoin):
        services.accept_invitation(game.pk, outsider)
    assert reload(game).status == Game.Status.INVITED


def test_an_email_invitation_is_taken_with_its_token(alice, make_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        game = services.start_game(alice, two_player_mode(), invite_email="newcomer@example.org")
    seat = game.seats.get(index=1)
    assert seat.user is None and seat.invited_email == "newcomer@example.org" and len(seat.invite_token) >= 40
    newcomer = make_user("newcomer", email="newcomer@example.org")
    services.accept_invitation(game.pk, newcomer, seat.invite_token)
    seat.refresh_from_db()
    assert seat.user == newcomer and seat.invite_token is None
    assert reload(game).status == Game.Status.ACTIVE


def test_an_open_challenge_is_taken_by_the_first_to_accept(alice, bob, outsider):
    game = services.start_game(alice, two_player_mode(), open_challenge=True)
    assert game.status == Game.Status.OPEN
    with pytest.raises(services.CannotJoin):
        services.accept_challenge(game.pk, alice)
    services.accept_challenge(game.pk, bob)
    with pytest.raises(services.CannotJoin):
        services.accept_challenge(game.pk, outsider)
    assert reload(game).seats.get(index=1).user == bob


def test_cancel_withdraws_a_game_that_has_not_started(alice, bob):
    game = services.start_game(alice, two_player_mode(), opponent=bob)
    services.cancel_game(game.pk, alice)
    assert reload(game).status == Game.Status.CANCELLED
    with pytest.raises(services.CannotJoin):
        services.accept_invitation(game.pk, bob)


def test_a_rematch_swaps_the_seats_and_keeps_the_options(duel, alice, bob):
    services.resign(duel.pk, alice)
    old = reload(duel)
    assert old.is_over
    new = services.rematch(old.pk, bob)
    assert new.rematch_of == old and new.mode == old.mode and new.options == old.options
    assert [s.user for s in new.seats.all()] == [bob, alice]
    assert new.seats.get(index=1).status == Seat.Status.INVITED


def test_a_rematch_asked_by_the_first_player_seats_the_other_first(duel, alice, bob):
    services.resign(duel.pk, bob)
    new = services.rematch(duel.pk, alice)
    assert [(s.index, s.user, s.status) for s in new.seats.all()] == [
        (0, bob, Seat.Status.INVITED), (1, alice, Seat.Status.JOINED)]
    services.accept_invitation(new.pk, bob)
    assert reload(new).to_act == [0]  # bob, who moved second before, moves first now


def test_a_rematch_asked_twice_or_by_both_players_is_one_game(duel, alice, bob):
    services.resign(duel.pk, alice)
    first = services.rematch(duel.pk, alice)
    assert services.rematch(duel.pk, alice) == first
    assert services.rematch(duel.pk, bob) == first
    assert Game.objects.filter(rematch_of=duel).count() == 1
    services.decline_invitation(first.pk, bob)
    # Declined: asking again makes a new one.
    assert services.rematch(duel.pk, bob) != first


def test_it_applies_a_legal_move_and_logs_it(solo_game, alice):
    move = first_legal(solo_game)
    record = services.submit_move(solo_game.pk, alice, move, 0)
    game = reload(solo_game)
    assert game.version == 1 and record.number == 1 and record.seat == 0 and record.move == move
    assert record.description == game.rules.describe_move(solo_game.load_state(), 0, move)
    assert game.state == game.rules.dumps(game.rules.apply(solo_game.load_state(), 0, move))


def test_it_refuses_a_stale_move_and_changes_nothing(solo_game, alice):
    services.submit_move(solo_game.pk, alice, first_legal(solo_game), 0)
    before = reload(solo_game)
    with pytest.raises(services.StaleMove) as refused:
        services.submit_move(solo_game.pk, alice, first_legal(before), 0)
    assert refused.value.status == 409
    after = reload(solo_game)
    assert (after.state, after.version, Move.objects.count()) == (before.state, 1, 1)


def test_it_refuses_an_illegal_move_with_the_engines_message(solo_game, alice):
    with pytest.raises(IllegalMove) as refused:
        services.submit_move(solo_game.pk, alice, {"type": "play", "card": "M99", "to": "crown"}, 0)
    assert str(refused.value)
    game = reload(solo_game)
    assert (game.state, game.version, Move.objects.count()) == (solo_game.state, 0, 0)


def test_it_refuses_a_move_from_someone_without_a_seat(solo_game, outsider):
    with pytest.raises(services.NotYourSeat):
        services.submit_move(solo_game.pk, outsider, first_legal(solo_game), 0)
    assert reload(solo_game).version == 0


def test_it_refuses_a_move_out_of_turn(duel, bob):
    assert duel.to_act == [0]
    moves = duel.rules.legal_moves(duel.load_state(), 0)
    with pytest.raises(IllegalMove):
        services.submit_move(duel.pk, bob, moves[0], 0)
    assert reload(duel).version == 0


def test_a_seat_found_by_its_reply_token_can_move(solo_game):
    seat = Seat.objects.get(reply_token=solo_game.seats.get().reply_token)
    services.submit_move(solo_game.pk, seat, first_legal(solo_game), 0)
    assert reload(solo_game).version == 1


def test_signals_follow_the_commit(duel, alice, django_capture_on_commit_callbacks):
    heard = []
    def listen(signal, **kwargs):
        heard.append((signal, kwargs))
    for signal in (signals.turn_changed, signals.move_applied, signals.game_finished):
        signal.connect(listen)
    try:
        game = duel
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            while reload(game).to_act == [0]:
                game = reload(game)
                services.submit_move(game.pk, alice, first_legal(game, 0), game.version)
        assert heard == []  # nothing before the commit
        for callback in callbacks:
            callback()
        game = reload(game)
        kinds = [s for s, _ in heard]
        assert kinds.count(signals.move_applied) == game.version
        assert kinds.count(signals.turn_changed) == 1
        turn = next(k for s, k in heard if s is signals.turn_changed)
        assert turn["game_id"] == game.pk and turn["to_act"] == [1] and turn["version"] == game.version
    finally:
        for signal in (signals.turn_changed, signals.move_applied, signals.game_finished):
            signal.disconnect(listen)


def test_game_finished_is_sent_once_when_the_engine_ends_the_game(alice, django_capture_on_commit_callbacks):
    finished = []
    signals.game_finished.connect(lambda **kw: finished.append(kw), weak=False, dispatch_uid="t-finished")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            game = services.start_game(alice, "know_thyself", seed=7)
            game = play_random_moves(game, 500, seed=7)
        assert game.status == Game.Status.FINISHED and game.outcome is not None and game.deadline is None
        assert finished == [{"signal": signals.game_finished, "sender": Game, "game_id": game.pk,
                             "status": "finished", "version": game.version}]
        with pytest.raises(services.GameNotRunning):
            services.submit_move(game.pk, alice, {"type": "play"}, game.version)
    finally:
        signals.game_finished.disconnect(dispatch_uid="t-finished")


def test_a_clock_sets_a_deadline_that_moves_with_play(alice):
    game = services.start_game(alice, "know_thyself", time_control=3)
    first = game.deadline
    assert first is not None and 3 * 86400 - 60 < (first - game.started_at).total_seconds() <= 3 * 86400
    services.submit_move(game.pk, alice, first_legal(game), 0)
    assert reload(game).deadline > first


def test_resigning_a_game_without_a_forfeit_abandons_it(alice, solo_game):
    services.resign(solo_game.pk, alice)
    assert reload(solo_game).status == Game.Status.ABANDONED


def test_resigning_warring_planets_is_the_forfeit_move(alice, bob):
    game = services.start_game(alice, "warring_planets", opponent=bob)
    services.accept_invitation(game.pk, bob)
    services.resign(game.pk, bob)
    game = reload(game)
    assert game.status == Game.Status.FINISHED and game.outcome["winners"] == [0]
    assert game.moves.get().move == {"type": "forfeit"}


def test_deleting_an_account_abandons_its_running_games_and_keeps_finished_ones(alice, bob, duel):
    finished = services.start_game(bob, "know_thyself", seed=7)
    finished = play_random_moves(finished, 500, seed=7)
    bob.delete()
    assert reload(duel).status == Game.Status.ABANDONED
    seat = reload(finished).seats.get()
    assert seat.user is None and seat.player_name == "a departed player"
    assert reload(finished).status == Game.Status.FINISHED


def test_verify_replays_passes_on_honest_games_and_names_a_tampered_one(alice, capsys):
    game = services.start_game(alice, "know_thyself", seed=3)
    play_random_moves(game, 20, seed=3)
    call_command("verify_replays")
    assert "match" in capsys.readouterr().out
    move = Move.objects.filter(game=game).order_by("number").first()
    Move.objects.filter(pk=move.pk).update(seat=0, move={"type": "play", "card": "M0", "to": "crown"})
    with pytest.raises(CommandError, match=str(game.pk)):
        call_command("verify_replays")
    assert f"game {game.pk}" in capsys.readouterr().err


def test_verify_replays_also_names_a_game_whose_stored_turn_or_outcome_went_astray(duel, alice, capsys):
    play_random_moves(duel, 6, seed=2)
    call_command("verify_replays")
    Game.objects.filter(pk=duel.pk).update(to_act=[0, 1])
    with pytest.raises(CommandError, match=str(duel.pk)):
        call_command("verify_replays")
    assert "seats to act" in capsys.readouterr().err
    game = reload(duel)
    Game.objects.filter(pk=duel.pk).update(to_act=game.rules.to_act(game.load_state()),
                                           outcome={"result": "draw", "winners": [], "scores": [0, 0], "reason": ""})
    with pytest.raises(CommandError, match=str(duel.pk)):
        call_command("verify_replays")
    assert "stored outcome differs" in capsys.readouterr().err
