"""Play by mail: a turn's mail out, a reply's move in.

- ``outgoing``: the mails (turn, digest, reminder, day given, game over), the reply
  address ``play+<seat token>.<version>@MAIL_DOMAIN``, the board drawn in text and the
  numbered moves a reply chooses from;
- ``inbound``: reading a reply (SMTP receiver ``smtp_receiver``, ``manage.py ingest_mail``
  or the development mailbox in ``views``) and playing its move through
  ``games.services``;
- ``tasks`` and ``receivers``: when each mail goes, through the outbox.

It knows of a game only what ``tables.MailTable`` asks, so anything else turn-based with
seats (a game master's table) can mail its players and take their replies through it.
"""
