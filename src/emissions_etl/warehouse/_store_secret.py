"""A lake's data files in object storage (``EMISSIONS_WAREHOUSE_DATA=s3://bucket/lake/``):
DuckDB's httpfs reads and writes them, with the credentials and endpoint the files' own
readers use.

The credentials stay in AWS's chain: the secret is made with the ``credential_chain`` provider
of the packaged ``aws`` extension, which reads ``AWS_ACCESS_KEY_ID``/``AWS_SECRET_ACCESS_KEY``/
``AWS_SESSION_TOKEN``, the profiles of ``~/.aws`` and instance roles itself, so no key is ever
written into a statement (which a log, a DuckDB error or a query history could show). Only the
endpoint and region, which are not secret, are named (``AWS_ENDPOINT_URL`` for MinIO, R2 or a
test server, with path-style buckets).
"""

from __future__ import annotations

import duckdb

from emissions_etl.duckdb_extensions import load_packaged
from emissions_etl.errors import WarehouseError
from emissions_etl.scrubbing import scrub
from emissions_etl.storage import is_url, s3_secret_options

#: Schemes of the data paths httpfs writes through an S3 secret.
S3_SCHEMES = ("s3://", "s3a://")
SECRET_NAME = "emissions_lake_store"
#: The largest data file written (10,000 parts of S3's least part size, 5 MB).
UPLOAD_MAX_FILE = "50GB"
UPLOAD_THREADS = 4


def attach_store(con: duckdb.DuckDBPyConnection, data_path: str | None) -> None:
    """Make ``data_path`` (a lake's DATA_PATH) reachable: nothing for a folder; for an S3 URL,
    httpfs and a secret from AWS's credential chain. Other stores are refused with one line."""
    if data_path is None or not is_url(data_path):
        return
    if not data_path.lower().startswith(S3_SCHEMES):
        scheme = data_path.split("://", 1)[0]
        raise WarehouseError(
            f"the lake's data path {data_path}: {scheme}:// is not supported for the lake's "
            "data files; use a folder or an s3:// URL (any S3-compatible store, through "
            "AWS_ENDPOINT_URL)"
        )
    load_packaged(con, "httpfs")
    load_packaged(con, "aws")
    # httpfs sizes an upload's parts for files of 800 GB (parts of 76 MB, up to 50 at once):
    # several GB at once, more than a load's memory limit. A lake's Parquet files are far
    # smaller; 5 MB parts (S3's least), 4 at once, write them within any limit.
    con.execute(f"SET s3_uploader_max_filesize = '{UPLOAD_MAX_FILE}'")
    con.execute(f"SET s3_uploader_thread_limit = {UPLOAD_THREADS}")
    options = s3_secret_options()
    try:
        con.execute(f"CREATE OR REPLACE SECRET {SECRET_NAME} ({', '.join(options)})")
    except duckdb.Error as error:
        said = str(error).strip().splitlines()
        raise WarehouseError(
            f"the lake's data path {data_path}: no S3 secret ({scrub(said[0] if said else '')}); "
            "credentials come from the AWS chain: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
            "AWS_PROFILE, an instance role"
        ) from None
