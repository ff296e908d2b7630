"""What games.services announces, always after the transaction that caused it committed.

Receivers get plain ids and numbers (never model instances), so they can queue Celery
tasks that look the game up again and drop out if it moved on.  See the docstring of
``games.services`` for when each one is sent.
"""

from django.dispatch import Signal

# kwargs: game_id, version, to_act (list of seat indexes that must act now)
turn_changed = Signal()
# kwargs: game_id, version, seat (who moved), to_act (seats to act after it)
move_applied = Signal()
# kwargs: game_id, status ("finished" or "abandoned"), version
game_finished = Signal()
# kwargs: game_id, seat_id (a seat was offered to a user or an email address)
seat_invited = Signal()
