"""A table source's query reads Parquet files in S3 with the AWS chain's credentials (moto's
server on loopback), and no key is written into a statement or a message."""

from __future__ import annotations

import io

import pyarrow.parquet as pq
import pytest

from emissions_etl.resources import resource_spec
from emissions_etl.sources.headers import ColumnNamer
from emissions_etl.tables import TableReader, TableSource
from tests.s3_server import SECRET_ACCESS_KEY, S3Server
from tests.storage.conftest import s3
from tests.tables.erp import arrow_table, erp_rows

__all__ = ["s3"]
pytestmark = [
    pytest.mark.slow,  # an S3 server: left out of the fast run
    pytest.mark.xdist_group("s3-tables"),  # one server for the module, on one worker
    pytest.mark.timeout(120),
]
WASTES = resource_spec("wastes")


def test_parquet_files_in_a_bucket_are_read_with_the_aws_chains_credentials(s3: S3Server) -> None:
    s3.create_bucket("lake")
    for part in range(2):
        body = io.BytesIO()
        pq.write_table(arrow_table(erp_rows(6)[part * 3 : part * 3 + 3]), body)
        s3.client().put_object(Bucket="lake", Key=f"wastes/part-{part}.parquet",
                               Body=body.getvalue())  # fmt: skip
    source = TableSource("SELECT * FROM read_parquet('s3://lake/wastes/*.parquet')", "wastes",
                         ("doc_id",))  # fmt: skip
    namer = ColumnNamer(WASTES.columns, WASTES.aliases, WASTES.required_columns)
    with TableReader(source) as reader:
        [batch] = list(reader.batches(namer, 100))
    assert batch["_key"].tolist() == [f"doc_id=D-{n:04d}" for n in range(6)]
    assert SECRET_ACCESS_KEY not in repr(batch.to_dict())
