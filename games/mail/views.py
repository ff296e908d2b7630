"""Pages of play by mail: the development mailbox, and the page of a mail's unsubscribe link.

The mailbox reads the mail the site wrote to ``EMAIL_FILE_PATH`` (the file mail backend,
the development default) and lets you answer one: the answer goes through
``games.mail.inbound.handle_message``, the same path as mail arriving by SMTP, so play by mail
works end to end on one machine.  It exists only with DEBUG on, or for staff; even then
a signed-in player sees only the mail sent to their own verified addresses and answers
only as themselves (a password-reset link or another player's turn is not theirs to
read or play), staff see everything, and a visitor who is not signed in sees nothing.

One mail more, in development only: the mail that confirms one of the reader's own
addresses, which a new player needs before any address of theirs is verified. They may
read it signed in, or straight from the "Verify your email" page, where allauth holds
their login in the session until the link is followed; they cannot answer it, and the
mail that confirms someone else's address stays closed to them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import formatdate, getaddresses, make_msgid, parseaddr
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games.mail import etiquette
from games.mail.inbound import handle_message, reply_text

SEPARATOR = b"\n" + b"-" * 79 + b"\n"  # how Django's file backend ends each message
MAIL_FILE = re.compile(r"^[\w.-]+\.log$")
MAILBOX_LIMIT = 200


# --- the development mailbox ------------------------------------------------------------


@dataclass
class SentMail:
    key: str
    message: EmailMessage
    answerable: bool = True

    def header(self, name: str) -> str:
        return str(self.message.get(name, ""))

    @property
    def subject(self) -> str:
        return self.header("Subject")

    @property
    def sender(self) -> str:
        return self.header("From")

    @property
    def to(self) -> list[str]:
        return [address for _, address in getaddresses([self.header("To"), self.header("Cc")]) if address]

    @property
    def reply_to(self) -> str:
        return parseaddr(self.header("Reply-To"))[1]

    @property
    def date(self) -> str:
        return self.header("Date")

    @property
    def text(self) -> str:
        return reply_text(self.message)


def _mailbox_reader(request):
    """Who reads the mailbox: the signed-in user (with DEBUG on, or staff), or, with DEBUG
    on, whoever waits on the "Verify your email" page; 404 for anyone else."""
    if request.user.is_authenticated:
        if settings.DEBUG or request.user.is_staff:
            return request.user
    elif settings.DEBUG:
        from allauth.account.stages import EmailVerificationStage, LoginStageController

        stage = LoginStageController.enter(request, EmailVerificationStage.key)
        if stage is not None and stage.login.user is not None:
            return stage.login.user
    raise Http404("There is no mailbox here.")


def _own_addresses(request, user) -> set[str] | None:
    """The addresses whose every mail ``user`` may read and answer here: their verified
    ones when signed in (none while waiting to verify one); None for staff (every address)."""
    if not request.user.is_authenticated:
        return set()
    if user.is_staff:
        return None
    from allauth.account.models import EmailAddress

    return {address.lower() for address in
            EmailAddress.objects.filter(user=user, verified=True).values_list("email", flat=True)}


def _is_for(mail: SentMail, addresses: set[str] | None) -> bool:
    return addresses is None or any(address.lower() in addresses for address in mail.to)


def _confirms_own_address(mail: SentMail, user) -> bool:
    """Whether ``mail`` is allauth's mail confirming an address of ``user``'s, sent to it:
    its link's key names the address (signed by the site, so it cannot be made up)."""
    if not settings.DEBUG:
        return False
    from allauth.account.models import get_emailconfirmation_model

    sent_to = {address.lower() for address in mail.to}
    for key in CONFIRMATION_LINK.findall(mail.text):
        confirmation = get_emailconfirmation_model().from_key(key)
        if confirmation is not None and confirmation.email_address.user_id == user.pk \
                and confirmation.email_address.email.lower() in sent_to:
            return True
    return False


# allauth's link to confirm an address: /accounts/confirm-email/<key>/
CONFIRMATION_LINK = re.compile(r"/confirm-email/([-:\w]+)/")


def _mail_dir() -> Path:
    return Path(settings.EMAIL_FILE_PATH)


def sent_mail(limit: int = MAILBOX_LIMIT) -> list[SentMail]:
    """The newest mails in the file backend's folder, newest first."""
    folder = _mail_dir()
    if not folder.is_dir():
        return []
    files = sorted((p for p in folder.iterdir() if MAIL_FILE.match(p.name)),
                   key=lambda p: (p.stat().st_mtime, p.name), reverse=True)
    found: list[SentMail] = []
    for path in files:
        chunks = [c for c in path.read_bytes().split(SEPARATOR) if c.strip()]
        for index in range(len(chunks) - 1, -1, -1):
            found.append(SentMail(f"{path.name}:{index}", message_from_bytes(chunks[index], policy=policy.default)))
            if len(found) >= limit:
                return found
    return found


def find_sent_mail(key: str) -> SentMail:
    name, _, index = key.rpartition(":")
    if not MAIL_FILE.match(name) or not index.isdigit():
        raise Http404("No such mail.")
    path = _mail_dir() / name
    if not path.is_file():
        raise Http404("No such mail.")
    chunks = [c for c in path.read_bytes().split(SEPARATOR) if c.strip()]
    if int(index) >= len(chunks):
        raise Http404("No such mail.")
    return SentMail(key, message_from_bytes(chunks[int(index)], policy=policy.default))


def mailbox(request):
    reader = _mailbox_reader(request)
    recipient = request.GET.get("to", "").strip().lower()
    addresses = _own_addresses(request, reader)
    mails = []
    for mail in sent_mail():
        if _is_for(mail, addresses):
            mail.answerable = True
        elif _confirms_own_address(mail, reader):
            mail.answerable = False  # to read and follow its link; it asks no answer
        else:
            continue
        mails.append(mail)
    if recipient:
        mails = [m for m in mails if recipient in (a.lower() for a in m.to)]
    file_backend = settings.EMAIL_BACKEND.endswith("filebased.EmailBackend")
    return render(request, "games/mailbox.html", {"mails": mails, "recipient": recipient,
                                                  "file_backend": file_backend, "folder": _mail_dir()})


def build_reply(original: SentMail, sender: str, recipient: str, body: str) -> bytes:
    """An answer as a mail client would write it: our text on top, the original quoted below."""
    reply = EmailMessage(policy=policy.SMTP)
    subject = original.subject
    reply["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    reply["From"] = sender
    reply["To"] = recipient
    reply["Date"] = formatdate(localtime=False)
    reply["Message-ID"] = make_msgid(domain="mailbox.localhost")
    if original.header("Message-ID"):
        reply["In-Reply-To"] = original.header("Message-ID")
        reply["References"] = original.header("Message-ID")
    quoted = "\n".join(f"> {line}" for line in original.text.splitlines())
    reply.set_content(f"{body.strip()}\n\nOn {original.date}, {original.sender} wrote:\n{quoted}\n")
    return reply.as_bytes()


@require_http_methods(["GET", "POST"])
def mailbox_reply(request, key: str):
    reader = _mailbox_reader(request)
    original = find_sent_mail(key)
    addresses = _own_addresses(request, reader)
    if not _is_for(original, addresses):
        raise Http404("No such mail.")
    sender = request.POST.get("sender") or (original.to[0] if original.to else "")
    if addresses is not None and sender.lower() not in addresses:
        # A player answers as themselves only; staff may answer as anyone to test.
        sender = next(a for a in original.to if a.lower() in addresses)
    recipient = request.POST.get("recipient") or original.reply_to or parseaddr(original.sender)[1]
    if request.method == "POST":
        body = request.POST.get("body", "")
        if not body.strip() or "@" not in sender or "@" not in recipient:
            messages.error(request, "Write your answer, and give a sender and a recipient address.")
        else:
            outcome = handle_message(build_reply(original, sender, recipient, body), recipients=[recipient])
            messages.success(request, f"Your answer was delivered to the site: {outcome}.")
            return redirect("mail:mailbox")
    return render(request, "games/mailbox_reply.html",
                  {"mail": original, "sender": sender, "recipient": recipient,
                   "body": request.POST.get("body", "")})


# --- one-click unsubscribe ------------------------------------------------------------------


# RFC 8058: a mail client's one-click POST carries no cookie and no CSRF token; the signed
# token in the address is the key (games.mail.etiquette). Only this view is exempt.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """GET asks (link scanners GET every link in a mail: they must not unsubscribe
    anyone); POST, from a mail client's button or the page's, does it, or undoes it."""
    asked = etiquette.read(token)
    if asked is None:
        raise Http404("This unsubscribe link is not valid: it may be cut short, or its game or account is gone.")
    done = ""
    if request.method == "POST":
        again = request.POST.get("again") == "yes"
        asked.apply(muted=not again)
        done = "again" if again else "stopped"
    return render(request, "games/unsubscribe.html", {"asked": asked, "done": done})
