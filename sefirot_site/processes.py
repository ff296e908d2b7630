"""The processes that make up a running site, listed in one place.

``manage.py runsite`` starts every entry of ``site_processes()`` as a child process,
prefixes its output with the entry's name, and stops them all together. To run one more
long-lived process with the site (the inbound-mail receiver, say), add an entry here,
for example ``SiteProcess("mail-in", [python, str(settings.BASE_DIR / "manage.py"), "..."])``.
Each must stop cleanly on SIGTERM.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from django.conf import settings


# gunicorn's default access line, but the path without its query string and no Referer:
# a game page's "?pick=<card>" names a card in the player's own hand, which has no place
# in a server's logs.
ACCESS_LOG_FORMAT = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s "%(a)s"'


@dataclass(frozen=True)
class SiteProcess:
    name: str
    argv: list[str]


def site_processes(host: str, port: int, reload: bool = False) -> list[SiteProcess]:
    python = sys.executable  # the venv's Python, the one running manage.py
    web = [
        python, "-m", "gunicorn", "sefirot_site.wsgi",
        "--bind", f"{host}:{port}",
        "--workers", str(settings.WEB_WORKERS),
        "--access-logfile", "-",
        "--access-logformat", ACCESS_LOG_FORMAT,
        "--graceful-timeout", "10",
        # gunicorn's control socket lives in $HOME: two sites on one machine would clash.
        "--no-control-socket",
    ]
    if reload:
        web.append("--reload")  # restart the web workers when the code changes
    return [
        SiteProcess("web", web),
        SiteProcess("worker", [
            python, "-m", "celery", "-A", "sefirot_site", "worker",
            "--loglevel", "INFO", "--concurrency", str(settings.WORKER_CONCURRENCY),
            "--queues", settings.CELERY_TASK_DEFAULT_QUEUE,
        ]),
        # Seal renders on their own queue and worker: a journal import's hundreds of them
        # once held turn mail back for minutes. One process: a render is all CPU.
        SiteProcess("seals", [
            python, "-m", "celery", "-A", "sefirot_site", "worker",
            "--loglevel", "INFO", "--concurrency", "1", "--hostname", "seals@%h",
            "--queues", settings.SEAL_QUEUE,
        ]),
        # The timetable is settings.CELERY_BEAT_SCHEDULE; its state file lives in DATA_DIR.
        SiteProcess("beat", [python, "-m", "celery", "-A", "sefirot_site", "beat", "--loglevel", "INFO"]),
        # Replies to turn mail by SMTP on INBOUND_SMTP_HOST:INBOUND_SMTP_PORT (games.mail.smtp_receiver).
        SiteProcess("mail-in", [python, str(settings.BASE_DIR / "manage.py"), "run_mail_receiver"]),
    ]

