"""Play (or refuse, with an answer) the move in one raw message read from standard input.

For a production mail server's pipe transport, e.g. in Postfix's aliases:
``play: "|/srv/sefirot/.venv/bin/python /srv/sefirot/manage.py ingest_mail"``, and the same
for ``bounces:`` (reports of mail that could not be delivered: ``games.mail.bounces``).
Exit status follows sendmail's conventions: 0 handled (played, refused and answered, or
ignored as automatic mail), 65 when the input is empty, 75 on an internal error so the
mail server keeps the message and tries again.
"""

import sys

from django.conf import settings
from django.core.management.base import BaseCommand

from games.mail.inbound import handle_message

EX_DATAERR = 65
EX_TEMPFAIL = 75


class Command(BaseCommand):
    help = "Handle one raw RFC 5322 message from standard input as a reply to turn mail."
    # Run once per incoming message: skip the system checks a long-running command does.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--sender", default=None,
                            help="The envelope sender, if the mail server passes it (\"\" for a bounce).")
        parser.add_argument("--recipient", action="append", default=[],
                            help="An envelope recipient (may be given several times).")

    def handle(self, *args, sender, recipient, **options):
        limit = settings.INBOUND_MAX_MESSAGE_BYTES
        raw = sys.stdin.buffer.read(limit + 1)
        if not raw.strip():
            self.stderr.write("ingest_mail: no message on standard input")
            sys.exit(EX_DATAERR)
        if len(raw) > limit:
            # The same limit as the SMTP receiver's: a reply to a turn mail is a few KB.
            self.stderr.write(f"ingest_mail: the message is larger than {limit} bytes (INBOUND_MAX_MESSAGE_BYTES)")
            sys.exit(EX_DATAERR)
        try:
            outcome = handle_message(raw, envelope_from=sender, recipients=recipient)
        except Exception as error:  # keep the message queued at the mail server
            self.stderr.write(f"ingest_mail: could not handle the message: {error!r}")
            sys.exit(EX_TEMPFAIL)
        self.stdout.write(str(outcome))
        if outcome.status == "rejected":
            sys.exit(EX_DATAERR)  # a permanent failure: the mail server bounces it
