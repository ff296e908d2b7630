"""A real S3 API server on loopback for the storage tests: moto's standalone server."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from .net import free_port

ACCESS_KEY, SECRET_KEY, REGION = "sefirot-test", "sefirot-test-secret", "us-east-1"


class ObjectStore:
    def __init__(self):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 60) -> "ObjectStore":
        script = Path(sys.executable).parent / "moto_server"
        self.process = subprocess.Popen([str(script), "-H", "127.0.0.1", "-p", str(self.port)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"moto_server exited with {self.process.returncode}")
            try:
                urllib.request.urlopen(self.url + "/moto-api/", timeout=1)
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("moto_server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def client(self):
        import boto3

        return boto3.client("s3", endpoint_url=self.url, aws_access_key_id=ACCESS_KEY,
                            aws_secret_access_key=SECRET_KEY, region_name=REGION)

    def storage_settings(self, bucket: str) -> dict:
        """settings.STORAGES["seals"] for a private bucket on this server."""
        return {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {"bucket_name": bucket, "endpoint_url": self.url, "region_name": REGION,
                        "access_key": ACCESS_KEY, "secret_key": SECRET_KEY, "default_acl": "private",
                        "querystring_auth": True, "file_overwrite": True, "signature_version": "s3v4"},
        }
