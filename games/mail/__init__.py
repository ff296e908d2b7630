"""Play by mail: a turn's mail out, a reply's move in.

- ``outgoing``: the mails (turn, digest, reminder, day given, game over), the reply
  address ``play+<seat token>.<version>@MAIL_DOMAIN``, the board drawn in text and the
  numbered moves a reply chooses from;
- ``inbound``: reading a reply (SMTP receiver ``smtp_receiver``, ``manage.py ingest_mail``
  or the development mailbox in ``views``) and playing its move through
  ``games.services``;
- ``tasks`` and ``receivers``: when each mail goes, through the outbox.

Reading a reply knows of a game only what ``tables.MailSeat`` asks (``game_seats`` is
the site's games seen that way), so anything else turn-based with seats (a game
master's table) takes its players' replies through it by one ``tables.add_kind`` line,
and composes its mails with ``outgoing.compose`` and ``outgoing.answer_mail``.
"""
