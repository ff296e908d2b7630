"""What games.services announces: the plain signals after the transaction that caused
them committed; the ``*_before_commit`` twins inside it.

Receivers get plain ids and numbers (never model instances), so they can queue Celery
tasks that look the game up again and drop out if it moved on.  See the docstring of
``games.services`` for when each one is sent.
"""

from django.dispatch import Signal

# kwargs: game_id, version, to_act (list of seat indexes that must act now)
turn_changed = Signal()
# kwargs: game_id, version, seat (who moved), to_act (seats to act after it), computer_to_act
# (whether a computer player is among them), clocked (whether the game has a clock)
move_applied = Signal()
# kwargs: game_id, status ("finished" or "abandoned"), version
game_finished = Signal()
# kwargs: game_id, seat_id (a seat was offered to a user or an email address)
seat_invited = Signal()
# kwargs: game_id, version, to_act (a computer player of the house took over seats that left)
seat_taken_over = Signal()

# The same three, sent inside the transaction that made the change, before it commits.
# Receivers record there what must follow (an outbox row for a mail, a journal entry), so
# it commits, or rolls back, together with its cause and is never lost in between. They
# do no I/O and must not break the transaction (wrap risky work in a savepoint).
turn_changed_before_commit = Signal()
move_applied_before_commit = Signal()
game_finished_before_commit = Signal()
seat_invited_before_commit = Signal()
seat_taken_over_before_commit = Signal()
