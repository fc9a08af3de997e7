"""A real S3-compatible server (moto's) for the module, reached through the AWS variables of
this process, as a worker's process would reach a bucket."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.s3_server import S3Server, s3_for_this_process


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    with s3_for_this_process() as server:
        yield server
