"""Check that every game's stored state is exactly the replay of its seed, options and moves
(and that the copies kept beside it, the seats to act and the outcome, agree with it)."""

import json

from django.core.management.base import BaseCommand, CommandError

from games.models import Game


def replay_mismatch(game: Game) -> str | None:
    """Why ``game``'s stored state differs from its replay, or None when they agree."""
    try:
        rules = game.rules
        moves = [(m.seat, m.move) for m in game.moves.order_by("number")]
        if [m.number for m in game.moves.order_by("number")] != list(range(1, len(moves) + 1)):
            return "its move numbers have a gap"
        if len(moves) != game.version:
            return f"its version is {game.version} but it has {len(moves)} moves"
        state = rules.replay(game.seed, game.players, game.options, moves)
        replayed = rules.dumps(state)
        to_act, outcome = rules.to_act(state), rules.outcome(state)
    except Exception as error:  # an engine error here is itself the finding
        return f"replay failed: {type(error).__name__}: {error}"
    if replayed != game.state:
        return "its stored state differs from the replay of its seed and moves"
    # The lists of games, the turn mail and the clocks read these copies, never the state.
    if list(game.to_act) != list(to_act):
        return f"its seats to act are stored as {game.to_act} but the replay has {to_act}"
    if _json(game.outcome) != _json(outcome):
        return "its stored outcome differs from the replay's"
    if (game.status == Game.Status.FINISHED) != (outcome is not None):
        return f"it is {game.status} but the replay's outcome is {'none' if outcome is None else 'there'}"
    return None


def _json(value) -> str:
    return json.dumps(value, sort_keys=True)


class Command(BaseCommand):
    help = "Replay every game from seed + options + move log and compare with the stored state."

    def handle(self, *args, **options):
        checked = 0
        bad = []
        for game in Game.objects.order_by("pk").iterator(chunk_size=200):
            checked += 1
            problem = replay_mismatch(game)
            if problem:
                bad.append(game.pk)
                self.stderr.write(f"game {game.pk} ({game.mode}): {problem}")
        if bad:
            raise CommandError(
                f"{len(bad)} of {checked} games do not match their replay: {', '.join(map(str, bad))}"
            )
        self.stdout.write(f"All {checked} games match the replay of their seed and moves.")
