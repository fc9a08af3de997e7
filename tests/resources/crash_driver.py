"""Load a file and kill the process (``os._exit``) right after the service answered the
``crash_after``-th write: what was written is in the service, nothing of it in the warehouse.

    python -m tests.resources.crash_driver RESOURCE FILE WAREHOUSE CRASH_AFTER [mirror]
    (service settings from EMISSIONS_API_URL, EMISSIONS_API_KEY, EMISSIONS_ORGANIZATION_ID,
    EMISSIONS_CA_FILE)
"""

from __future__ import annotations

import os
import ssl
import sys
from pathlib import Path

import httpx

from emissions_etl.client import ApiKeyAuth, EmissionsClient
from emissions_etl.loading.pipeline import LoadOptions, load_file
from emissions_etl.resources import resource_spec
from emissions_etl.warehouse import Warehouse

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
KILLED = 137


class KillingTransport(httpx.BaseTransport):
    def __init__(self, ca_file: str, crash_after: int) -> None:
        self._inner = httpx.HTTPTransport(verify=ssl.create_default_context(cafile=ca_file))
        self._left = crash_after

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self._inner.handle_request(request)
        if request.method in WRITES and response.status_code < 300:
            response.read()
            self._left -= 1
            if self._left <= 0:
                os._exit(KILLED)
        return response


def main(resource: str, file: str, warehouse: str, crash_after: str, *flags: str) -> None:
    env = os.environ
    auth = ApiKeyAuth(env["EMISSIONS_API_KEY"], env["EMISSIONS_ORGANIZATION_ID"])
    transport = KillingTransport(env["EMISSIONS_CA_FILE"], int(crash_after))
    with EmissionsClient(env["EMISSIONS_API_URL"], auth, transport=transport) as client:
        load_file(
            Path(file),
            api=client,
            warehouse=Warehouse(warehouse),
            spec=resource_spec(resource),
            options=LoadOptions(mirror="mirror" in flags),
        )


if __name__ == "__main__":
    main(*sys.argv[1:])
