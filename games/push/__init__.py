"""Web Push: the site's notifications on a player's devices (RFC 8030, with VAPID, RFC 8292,
and the payload encrypted for the browser, RFC 8291), sent by ``pywebpush``.

A player opts in on their profile, per device (``PushSubscription``: the endpoint the
browser's push service gave it and its keys), and may mute one game (``GameMute``). What
is pushed mirrors the mail (``games.mail``): a turn, an invitation, a game's end and a
deadline close to running out, each recorded in the outbox inside the transaction of its
cause (``receivers``) and sent by a worker (``tasks``), once per device. A push service
answering 404 or 410 says the subscription is gone: it is deleted.

A payload names the game, its address and people by name; it never holds a card, so a
notification on a locked phone tells nothing the board hides.
"""
