"""The embedded broker (kombu's filesystem transport, sefirot_site.embedded_broker): a
message is whole before any consumer can see it."""

from __future__ import annotations

import json
import multiprocessing
import os

from kombu import Connection

from sefirot_site.embedded_broker import Transport


def folder_options(tmp_path):
    for folder in ("queue", "processed", "control"):
        (tmp_path / folder).mkdir()
    # The control folder too: kombu's default is one in the current directory.
    return {"data_folder_in": str(tmp_path / "queue"), "data_folder_out": str(tmp_path / "queue"),
            "store_processed": True, "processed_folder": str(tmp_path / "processed"),
            "control_folder": str(tmp_path / "control")}


def test_every_filesystem_url_of_the_site_uses_it(tmp_path):
    with Connection("filesystem://localhost/", transport_options=folder_options(tmp_path)) as connection:
        assert isinstance(connection.transport, Transport)


def consume(folder: str, stop, results) -> None:
    """A consumer as kombu's: it lists the queue's folder and reads each message file it
    finds, without the writer's lock; it counts the messages it read whole and broken."""
    whole = broken = 0
    while not stop.is_set() or any(name.endswith(".q.msg") for name in os.listdir(folder)):
        for name in os.listdir(folder):
            if not name.endswith(".q.msg"):
                continue
            try:
                with open(os.path.join(folder, name), "rb") as file:
                    text = file.read()
                os.remove(os.path.join(folder, name))
            except FileNotFoundError:
                continue
            try:
                json.loads(text)
                whole += 1
            except ValueError:
                broken += 1
    results.put((whole, broken))


def test_a_consumer_never_reads_a_message_before_it_is_whole(tmp_path):
    # The consumer in a process of its own, as a worker is: under kombu's own _put, which
    # creates the file under its final name before writing it, this consumer read most of
    # 3,000 messages empty (the session worker died on one, JSONDecodeError).
    options = folder_options(tmp_path)
    processes = multiprocessing.get_context("fork")
    stop, results = processes.Event(), processes.Queue()
    consumer = processes.Process(target=consume, args=(options["data_folder_in"], stop, results))
    consumer.start()
    try:
        with Connection("filesystem://localhost/", transport_options=options) as connection:
            channel = connection.default_channel
            for number in range(3000):
                channel._put("q", {"body": "x" * 4000, "number": number})
    finally:
        stop.set()
    assert results.get(timeout=60) == (3000, 0)
    consumer.join(timeout=10)


def test_its_messages_reach_a_consumer_and_leave_nothing_behind(tmp_path):
    with Connection("filesystem://localhost/", transport_options=folder_options(tmp_path)) as connection:
        queue = connection.SimpleQueue("orders")
        for number in range(5):
            queue.put({"number": number})
        # In kombu's order: by the millisecond each was sent (within one, any order).
        assert sorted(queue.get(timeout=1).payload["number"] for _ in range(5)) == list(range(5))
        assert not os.listdir(tmp_path / "queue")
        queue.close()
