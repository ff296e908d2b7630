"""Where a seal's files live, and how they reach their owner.

Django's storage ``seals`` (settings.STORAGES): local disk under MEDIA_ROOT by default, an
S3-compatible bucket when AWS_STORAGE_BUCKET_NAME is set, so that the worker that drew a
file and the web node asked for it need not be one machine. Keys are
``seals/u<owner id>/<file name>``, the name derived from the seal's input, so a file that
exists is never drawn again. Downloads pass the journal's access checks first; then a
bucket's file is a redirect to a URL signed for SEAL_URL_SECONDS (the bucket is private),
a local one is streamed.
"""

from __future__ import annotations

import os
import tempfile

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, storages
from django.http import FileResponse, HttpResponse, HttpResponseRedirect


class LocalSealStorage(FileSystemStorage):
    """Local disk, writing each file whole: to a temporary name, then renamed into place,
    so a worker killed mid-write leaves no half file that would pass for drawn."""

    def get_available_name(self, name, max_length=None):
        return name  # names derive from the content: the same name is the same file

    def _save(self, name, content):
        path = self.path(name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".part-")
        try:
            with os.fdopen(fd, "wb") as out:
                for chunk in content.chunks():
                    out.write(chunk)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        return name


def storage():
    return storages["seals"]


def folder(owner_id: int) -> str:
    return f"seals/u{owner_id}"


def key(owner_id: int, filename: str) -> str:
    return f"{folder(owner_id)}/{os.path.basename(filename)}"


def exists(name: str) -> bool:
    return storage().exists(name)


def save(name: str, data: bytes) -> None:
    storage().save(name, ContentFile(data))


def read(name: str) -> bytes:
    with storage().open(name, "rb") as handle:
        return handle.read()


def names(owner_id: int) -> list[str]:
    try:
        return storage().listdir(folder(owner_id))[1]
    except FileNotFoundError:
        return []


def delete(name: str) -> None:
    storage().delete(name)


def delete_folder(owner_id: int) -> None:
    for filename in names(owner_id):
        delete(key(owner_id, filename))
    if isinstance(storage(), FileSystemStorage):
        path = storage().path(folder(owner_id))
        if os.path.isdir(path):
            os.rmdir(path) if not os.listdir(path) else None


def is_local() -> bool:
    return isinstance(storage(), FileSystemStorage)


def download(name: str, filename: str, content_type: str) -> HttpResponse:
    """The file as an attachment: streamed from disk, or a redirect to a signed URL."""
    if is_local():
        return FileResponse(storage().open(name, "rb"), as_attachment=True, filename=filename,
                            content_type=content_type)
    url = storage().url(name, parameters={
        "ResponseContentDisposition": f'attachment; filename="{filename}"',
        "ResponseContentType": content_type,
    }, expire=settings.SEAL_URL_SECONDS)
    return HttpResponseRedirect(url)
