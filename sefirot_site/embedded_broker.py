"""kombu's filesystem transport (the broker of the embedded defaults), with each message
written whole before a consumer can see it.

kombu creates a message's file under its final name and then writes into it; a consumer
does not take the writer's lock, so one that lists the folder in between moves and reads
an empty file, and Celery stops the worker on it ("Unrecoverable error: JSONDecodeError").
A full test run on SQLite hit it twice in a row.  Here a message is written under a name
no consumer reads (``.part`` after it) and renamed into place: a rename within a folder is
atomic, so a consumer sees no file or a whole one.

``register()`` makes this the transport of every ``filesystem://`` URL in the process
(kombu looks transports up by the URL's scheme); ``sefirot_site.celery`` calls it, so the
site, its workers and the tests' own Celery apps all write this way.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        # kombu's own name, so consumers order and pick messages as before.
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = final + ".part"
        try:
            with open(partial, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as error:
            raise ChannelError(f"Cannot add file {final!r} to directory") from error


class Transport(filesystem.Transport):
    Channel = Channel


def register() -> None:
    TRANSPORT_ALIASES["filesystem"] = f"{__name__}:Transport"
