"""Receive replies to turn mail over SMTP until stopped (Ctrl-C or SIGTERM)."""

import logging
import signal
import threading

from django.conf import settings
from django.core.management.base import BaseCommand

from games.mail.smtp_receiver import make_controller


class Command(BaseCommand):
    help = "Run the inbound SMTP receiver that plays moves sent as replies to turn mail."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=settings.INBOUND_SMTP_HOST,
                            help="Address to listen on (INBOUND_SMTP_HOST, default %(default)s).")
        parser.add_argument("--port", type=int, default=settings.INBOUND_SMTP_PORT,
                            help="Port to listen on (INBOUND_SMTP_PORT, default %(default)s).")

    def handle(self, *args, host, port, **options):
        # aiosmtpd logs every SMTP command at INFO; the outcome of each message is enough.
        logging.getLogger("mail.log").setLevel(logging.WARNING)
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        controller = make_controller(host, port)
        controller.start()
        self.stdout.write(f"Receiving replies to turn mail by SMTP on {host}:{port} "
                          f"for play+...@{settings.MAIL_DOMAIN}", ending="\n")
        self.stdout.flush()
        try:
            stop.wait()
        finally:
            controller.stop()
            self.stdout.write("Mail receiver stopped.")
