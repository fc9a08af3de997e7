"""A real S3-compatible server for tests and benchmarks: moto's server mode (``moto[s3]`` with
Flask), started as a process of its own on a free loopback port, in memory.

    with running_s3() as s3:
        s3.create_bucket("exports")
        env = {**os.environ, **s3.env()}   # what a process needs to reach it: AWS_* variables

Every client reaches it through the AWS chain, as it would reach a real store: fake keys in
``AWS_ACCESS_KEY_ID``/``AWS_SECRET_ACCESS_KEY``, the server in ``AWS_ENDPOINT_URL``, and
``AWS_EC2_METADATA_DISABLED`` so that no client ever asks an instance-metadata address.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The fake credentials the server accepts (moto checks none); tests look for them in output.
ACCESS_KEY_ID = "AKIAEMISSIONSTEST01"
SECRET_ACCESS_KEY = "tEsT-sEcReT-aCcEsS-kEy-0123456789abcdef"
REGION = "eu-west-1"


@dataclass(frozen=True)
class S3Server:
    port: int

    @property
    def endpoint_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        """The AWS variables that point every client (s3fs, DuckDB's httpfs) at this server."""
        return {
            "AWS_ACCESS_KEY_ID": ACCESS_KEY_ID,
            "AWS_SECRET_ACCESS_KEY": SECRET_ACCESS_KEY,
            "AWS_DEFAULT_REGION": REGION,
            "AWS_REGION": REGION,
            "AWS_ENDPOINT_URL": self.endpoint_url,
            "AWS_EC2_METADATA_DISABLED": "true",
        }

    def client(self, service: str = "s3") -> Any:
        """A boto3 client of this server (for tests to put and read objects; ``sqs``: its
        queues, which moto serves beside S3)."""
        import boto3

        return boto3.client(
            service,
            endpoint_url=self.endpoint_url,
            aws_access_key_id=ACCESS_KEY_ID,
            aws_secret_access_key=SECRET_ACCESS_KEY,
            region_name=REGION,
        )

    def notified_queue(self, bucket: str, name: str) -> str:
        """A new SQS queue the bucket sends its s3:ObjectCreated:* notifications to; its URL."""
        url = str(self.client("sqs").create_queue(QueueName=name)["QueueUrl"])
        arn = f"arn:aws:sqs:{REGION}:123456789012:{name}"
        self.client().put_bucket_notification_configuration(
            Bucket=bucket,
            NotificationConfiguration={
                "QueueConfigurations": [{"QueueArn": arn, "Events": ["s3:ObjectCreated:*"]}]
            },
        )
        return url

    def create_bucket(self, name: str) -> str:
        """A new empty bucket; returns its name."""
        self.client().create_bucket(
            Bucket=name, CreateBucketConfiguration={"LocationConstraint": REGION}
        )
        return name

    def upload_folder(self, folder: Path, url: str) -> None:
        """Every file under ``folder`` to ``s3://bucket/prefix``, keeping its relative path."""
        bucket, _, prefix = url.removeprefix("s3://").partition("/")
        client = self.client()
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                key = "/".join(filter(None, [prefix.strip("/"), *path.relative_to(folder).parts]))
                client.upload_file(str(path), bucket, key)

    def keys(self, bucket: str, prefix: str = "") -> list[str]:
        """The keys of the bucket's objects under ``prefix``, sorted."""
        pages = self.client().get_paginator("list_objects_v2").paginate(Bucket=bucket,
                                                                        Prefix=prefix)  # fmt: skip
        return sorted(item["Key"] for page in pages for item in page.get("Contents", []))


@contextmanager
def running_s3() -> Iterator[S3Server]:
    """Start moto's S3 server on a free loopback port; stop it afterwards."""
    port = _free_port()
    env = {**os.environ, "AWS_EC2_METADATA_DISABLED": "true"}
    process = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    try:
        _wait_for(port, process)
        yield S3Server(port)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def s3_for_this_process() -> Iterator[S3Server]:
    """``running_s3``, with this process's AWS variables pointing at it while the block runs (as
    a worker's process would reach a bucket)."""
    import pytest

    with running_s3() as server, pytest.MonkeyPatch.context() as patch:
        for name, value in server.env().items():
            patch.setenv(name, value)
        yield server


def _wait_for(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"moto's server ended at start (exit {process.returncode})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"moto's server did not listen on port {port} within 60 s")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
