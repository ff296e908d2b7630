"""A desktop's notification centre, on a D-Bus session bus of its own: the stand-in for the
system that shows a browser's notifications and tells it when one is clicked.

Chromium on Linux shows a web page's notifications through the freedesktop.org
Notifications interface (``org.freedesktop.Notifications`` on the session bus), when a
server owns that name; a click on one is that server's ``ActionInvoked`` signal with the
``default`` action, upon which Chromium dispatches the service worker's
``notificationclick`` as for any click: a trusted event, allowed to open or focus one
window.  Headless Chromium has no notification centre of its own that a test could click
(the DevTools protocol has no command for it), so this one stands in for the desktop's,
as ``tests/support/push_service.py`` stands in for the browser vendor's push service.

``dbus-daemon`` (Debian's dbus-daemon package) runs the bus; jeepney (pure Python) speaks
the protocol.  The server answers from a thread of its own; ``shown`` lists what Chromium
asked it to show, and ``click`` clicks one.
"""

from __future__ import annotations

import os
import queue
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from jeepney import DBusAddress, MessageType, new_error, new_method_call, new_method_return, new_signal
from jeepney.io.blocking import open_dbus_connection

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
DAEMON = "/usr/bin/dbus-daemon"


@dataclass
class Shown:
    id: int
    app_name: str
    summary: str
    body: str
    actions: list[str]
    hints: dict = field(repr=False)
    closed: bool = False


class NotificationCenter:
    """``with NotificationCenter() as centre:`` then give Chromium ``centre.env``."""

    def __init__(self):
        # A folder of its own under /tmp: a socket's path must be short (108 bytes).
        self._folder = tempfile.TemporaryDirectory(prefix="sefirot-bus-")
        self.directory = Path(self._folder.name)
        self.address = f"unix:path={self.directory / 'bus'}"
        self.shown: list[Shown] = []
        self._lock = threading.Lock()
        self._asks: queue.Queue = queue.Queue()
        self._stop = threading.Event()

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "DBUS_SESSION_BUS_ADDRESS": self.address}

    def __enter__(self) -> NotificationCenter:
        if not Path(DAEMON).exists():
            self._folder.cleanup()
            raise RuntimeError(f"{DAEMON} is missing: install Debian's dbus-daemon (apt-get install -y dbus-daemon)")
        config = self.directory / "session.conf"
        config.write_text(
            '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"'
            ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">\n'
            f"<busconfig><type>session</type><listen>{self.address}</listen>"
            "<auth>EXTERNAL</auth><policy context=\"default\"><allow send_destination=\"*\" eavesdrop=\"true\"/>"
            "<allow eavesdrop=\"true\"/><allow own=\"*\"/></policy></busconfig>\n")
        self._daemon = subprocess.Popen([DAEMON, f"--config-file={config}", "--nofork", "--nopidfile"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while not (self.directory / "bus").exists():
            if self._daemon.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"dbus-daemon did not start: {self._daemon.stderr.read().decode()}")
            time.sleep(0.02)
        try:
            self._connection = open_dbus_connection(self.address)
            reply = self._connection.send_and_get_reply(new_method_call(
                DBusAddress("/org/freedesktop/DBus", bus_name="org.freedesktop.DBus", interface="org.freedesktop.DBus"),
                "RequestName", "su", (NAME, 4)))  # 4: do not queue
            if reply.body != (1,):
                raise RuntimeError(f"could not own {NAME}: {reply.body}")
        except BaseException:
            self._daemon.terminate()
            self._daemon.wait(5)
            self._folder.cleanup()
            raise
        self._thread = threading.Thread(target=self._serve, name="notification-centre", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(5)
        self._connection.close()
        self._daemon.terminate()
        self._daemon.wait(5)
        self._folder.cleanup()

    # --- what a test does ---------------------------------------------------------------

    def wait_for(self, count: int = 1, timeout: float = 20) -> list[Shown]:
        """The notifications shown (and not closed), once there are ``count`` of them."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                open_ = [n for n in self.shown if not n.closed]
            if len(open_) >= count or time.monotonic() > deadline:
                return open_
            time.sleep(0.05)

    def click(self, shown: Shown) -> None:
        """A person's click on the notification's body: its ``default`` action."""
        self._asks.put(("click", shown.id))

    # --- the server -----------------------------------------------------------------------

    def _signal(self, name: str, signature: str, body: tuple):
        emitter = DBusAddress(PATH, interface=NAME)
        self._connection.send(new_signal(emitter, name, signature, body))

    def _serve(self) -> None:
        next_id = 1
        while not self._stop.is_set():
            while not self._asks.empty():
                what, number = self._asks.get()
                if what == "click":
                    self._signal("ActionInvoked", "us", (number, "default"))
                    self._close(number, 2)  # 2: dismissed by the user
            try:
                message = self._connection.receive(timeout=0.05)
            except TimeoutError:
                continue
            except OSError:
                return
            if message.header.message_type != MessageType.method_call:
                continue
            member = message.header.fields.get(3)  # HeaderFields.member
            if member == "GetCapabilities":
                reply = new_method_return(message, "as", (["actions", "body", "body-markup", "icon-static"],))
            elif member == "GetServerInformation":
                reply = new_method_return(message, "ssss", ("sefirot-tests", "sefirot", "1.0", "1.2"))
            elif member == "Notify":
                app_name, replaces, _icon, summary, body, actions, hints, _timeout = message.body
                number = replaces or next_id
                next_id += replaces == 0
                with self._lock:
                    self.shown = [n for n in self.shown if n.id != number]
                    self.shown.append(Shown(number, app_name, summary, body, list(actions), dict(hints)))
                reply = new_method_return(message, "u", (number,))
            elif member == "CloseNotification":
                self._close(message.body[0], 3)  # 3: closed by CloseNotification
                reply = new_method_return(message)
            else:
                reply = new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "s", (f"no {member}",))
            self._connection.send(reply)

    def _close(self, number: int, reason: int) -> None:
        with self._lock:
            for shown in self.shown:
                if shown.id == number:
                    shown.closed = True
        self._signal("NotificationClosed", "uu", (number, reason))
