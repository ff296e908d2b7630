"""The site's games as a kind of mail table (``games.mail.tables``): a game's seat, its
turn, its moves and its answers, through ``games.services``."""

from __future__ import annotations

from games import services
from games.mail.outgoing import absolute, daily_results_link, numbered_moves
from games.mail.tables import MailSeat, Refused, Stale, add_kind
from games.mail.tasks import deliver_turn_mail
from games.models import Game, Seat


class GameSeat(MailSeat):
    def __init__(self, seat: Seat):
        self.seat = seat

    @property
    def table_id(self) -> int:
        return self.seat.game_id

    @property
    def player(self):
        return self.seat.user

    def _game(self) -> Game:
        return Game.objects.get(pk=self.seat.game_id)

    def check_turn(self, version: int) -> None:
        game = self.seat.game
        if game.status != Game.Status.ACTIVE:
            raise Refused("game_over" if game.is_over else "not_started", "game not in play")
        # A mail of a seat asked to act together with others still fits after their moves.
        if not services.still_current(game, self.seat.index, version):
            raise Stale()
        if self.seat.index not in game.to_act:
            raise Refused("not_your_turn", "not this seat's turn")

    def numbered_moves(self):
        game = self.seat.game
        return numbered_moves(game, game.load_state(), self.seat.index)

    def play(self, move: dict, version: int) -> None:
        try:
            services.submit_move(self.seat.game_id, self.seat, move, version)
        except services.StaleMove:
            raise Stale() from None
        except services.GameNotRunning as error:
            raise Refused("game_over", "game not in play", str(error)) from None
        except services.NotYourSeat:
            raise Refused("wrong_sender", "wrong sender") from None

    def must_act(self) -> bool:
        game = self._game()
        self.seat.game = game
        return game.status == Game.Status.ACTIVE and self.seat.index in game.to_act

    def send_turn_mail(self, *, note: str, in_reply_to: str, subject: str) -> str:
        return deliver_turn_mail(self.seat.pk, self.seat.game.version, note=note, in_reply_to=in_reply_to,
                                 subject=subject, answer=True)

    def answer_context(self) -> dict:
        game = self.seat.game
        to_act = ([s.player_name for s in game.seats.select_related("user") if s.index in game.to_act]
                  if game.status == Game.Status.ACTIVE else [])
        return {"game": game, "link": absolute(game.get_absolute_url()), "to_act": to_act,
                "outcome": game.outcome, "reason": game.end_reason,
                # A daily game that ended by this reply: where the day's results are.
                "results_link": daily_results_link(game) if game.is_over else ""}


@add_kind
def find_game_seat(token: str) -> GameSeat | None:
    seats = Seat.objects.select_related("game", "user")
    # Some mail servers lower-case the local part; 256 random bits stay unique without case.
    seat = seats.filter(reply_token=token).first() or seats.filter(reply_token__iexact=token).first()
    return GameSeat(seat) if seat is not None else None
