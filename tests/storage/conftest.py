"""A real S3-compatible server (moto's) for the module, reached through the AWS variables of
this process, as a worker's process would reach a bucket."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.s3_server import S3Server, running_s3


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    with running_s3() as server, pytest.MonkeyPatch.context() as patch:
        for name, value in server.env().items():
            patch.setenv(name, value)
        yield server
