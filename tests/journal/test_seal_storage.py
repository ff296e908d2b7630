"""Seal files in a shared S3-compatible bucket (a real S3 API server on loopback, moto's):
drawn by the worker's task into the bucket, handed out only through the journal's checks
as short-lived signed URLs, never by a public bucket URL."""

from __future__ import annotations

import io
import time
import urllib.error
import urllib.request
import zipfile

import pytest
from django.urls import reverse

from journal import seal_files, services
from journal.models import Seal
from journal.tasks import render_seal_task, seal_outputs
from tests.support.object_store import ObjectStore

BUCKET = "sefirot-seals"


@pytest.fixture(scope="module")
def object_store():
    store = ObjectStore().start()
    yield store
    store.stop()


@pytest.fixture
def bucket(object_store, settings):
    client = object_store.client()
    try:
        client.create_bucket(Bucket=BUCKET)
    except client.exceptions.BucketAlreadyOwnedByYou:
        pass
    settings.STORAGES = {**settings.STORAGES, "seals": object_store.storage_settings(BUCKET)}
    yield client
    for item in client.list_objects_v2(Bucket=BUCKET).get("Contents", []):
        client.delete_object(Bucket=BUCKET, Key=item["Key"])


@pytest.fixture
def stored_seal(bucket, drawn_entry):
    cards, words = services.default_seal_input(drawn_entry)
    seal = Seal.objects.create(entry=drawn_entry, cards=cards, words=words,
                               input_hash=services.seal_input_hash(cards, words))
    assert render_seal_task.apply(args=[seal.pk]).get() == len(seal_outputs())
    seal.refresh_from_db()
    return drawn_entry, seal


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_the_worker_draws_every_file_into_the_bucket_not_onto_the_disk(stored_seal, bucket, settings):
    entry, seal = stored_seal
    keys = {item["Key"] for item in bucket.list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert set(seal.files.values()) == keys and len(keys) == len(seal_outputs())
    assert all(key.startswith(f"seals/u{entry.owner_id}/") for key in keys)
    assert not (services.seal_dir(entry.owner_id)).exists()


def test_the_owner_gets_a_signed_link_and_an_outsider_gets_nothing(stored_seal, alice_client, outsider_client):
    entry, seal = stored_seal
    url = reverse("journal:seal_file", args=[entry.pk, seal.pk, "png-a5"])

    answer = alice_client.get(url)

    assert answer.status_code == 302 and "X-Amz-Signature=" in answer["Location"]
    status, body = fetch(answer["Location"])
    assert status == 200 and body.startswith(b"\x89PNG")
    assert outsider_client.get(url).status_code == 404
    # The bucket itself is private: the same object without a signature is refused.
    unsigned = answer["Location"].split("?", 1)[0]
    assert fetch(unsigned)[0] == 403


def test_a_revoked_share_link_stops_serving_the_seal(stored_seal, client, alice_client):
    entry, seal = stored_seal
    services.share(entry)
    entry.refresh_from_db()
    shared = reverse("journal:shared_seal_file", args=[entry.share_token, seal.pk, "svg-10cm"])
    assert client.get(shared).status_code == 302

    services.revoke_share(entry)

    assert client.get(shared).status_code == 404


def test_a_signed_link_is_signed_to_expire_after_seal_url_seconds(stored_seal, alice_client, settings):
    """S3 refuses a signed URL past X-Amz-Date + X-Amz-Expires. moto's server does not
    enforce that window, so this checks what the site controls: every link it hands out
    is signed (SigV4) for SEAL_URL_SECONDS from now, and no longer."""
    from datetime import datetime, timezone
    from urllib.parse import parse_qs, urlsplit

    entry, seal = stored_seal
    settings.SEAL_URL_SECONDS = 7
    answer = alice_client.get(reverse("journal:seal_file", args=[entry.pk, seal.pk, "pdf-a5"]))
    query = parse_qs(urlsplit(answer["Location"]).query)

    assert query["X-Amz-Algorithm"] == ["AWS4-HMAC-SHA256"] and query["X-Amz-Signature"]
    assert query["X-Amz-Expires"] == ["7"]
    signed_at = datetime.strptime(query["X-Amz-Date"][0], "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc)
    assert abs((datetime.now(timezone.utc) - signed_at).total_seconds()) < 60
    assert fetch(answer["Location"])[0] == 200


def test_the_export_holds_the_seal_files_from_the_bucket(stored_seal, alice_client):
    entry, seal = stored_seal
    response = alice_client.get(reverse("journal:export"))
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    names = {name for name in archive.namelist() if name.startswith("seals/")}
    assert names == {f"seals/{key.rsplit('/', 1)[1]}" for key in seal.files.values()}


def test_deleting_the_journal_empties_its_folder_in_the_bucket(stored_seal, bucket, django_capture_on_commit_callbacks):
    entry, _ = stored_seal
    with django_capture_on_commit_callbacks(execute=True):
        services.delete_journal(entry.owner)
    assert bucket.list_objects_v2(Bucket=BUCKET).get("KeyCount", 0) == 0
    assert seal_files.names(entry.owner_id) == []
