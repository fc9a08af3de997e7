"""Every operation of the served OpenAPI document (v1 and v2) survives a schemathesis run
with no server error (issues: "passes a schemathesis run against the sandbox with no server
errors").

The run has its own sandbox, because generated requests create, change and delete records
that other tests would see. Authentication is the organization admin's: `x-api-key` +
`x-organization-id` for the new scheme, plus `Authorization: Bearer <key>` and `x-user-id`
for the operations that take the legacy scheme. Each operation gets valid (positive) and
invalid (negative) generated requests; the seed is fixed, so a failure reproduces.

The cases come from `APIOperation.as_strategy` under plain Hypothesis rather than
`schemathesis.pytest.from_fixture`: the lazy loader of schemathesis 4.32 writes
`Function._nodeid`, which pytest 9 no longer has.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests.sandbox_fixture import SandboxServer, provisioned_sandbox

if TYPE_CHECKING:
    import requests
    import schemathesis

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(240),
    # Schemathesis's own strategies draw from `random`; the warning prints the case, test key
    # included.
    pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisDeprecationWarning"),
]

SEED = 20261005
EXAMPLES_PER_OPERATION_AND_MODE = 8


@pytest.fixture(scope="module")
def fuzzed_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxServer]:
    with provisioned_sandbox(tmp_path_factory.mktemp("schemathesis")) as server:
        yield server


def admin_headers(server: SandboxServer) -> dict[str, str]:
    org = server.org
    return {
        "x-api-key": org.api_key,
        "x-organization-id": org.organization_id,
        "Authorization": f"Bearer {org.api_key}",
        "x-user-id": org.user_id,
    }


@pytest.fixture
def session() -> Iterator[requests.Session]:
    """One session for every case: its connection to the sandbox is kept alive, where each
    case's request of its own paid a TLS handshake on both sides (the test: 35.9 -> 30.7 s of
    CPU)."""
    import requests

    with requests.Session() as kept_alive:
        yield kept_alive


def test_every_operation_answers_without_a_server_error(
    fuzzed_sandbox: SandboxServer, session: requests.Session, subtests: pytest.Subtests
) -> None:
    # Imported here, not at the top: every test worker collects this module, and importing
    # schemathesis and Hypothesis costs each of them 1.3 s of CPU for a test one of them runs.
    import schemathesis
    from hypothesis import HealthCheck, Phase, given, seed, settings
    from hypothesis.errors import Unsatisfiable
    from schemathesis import GenerationMode
    from schemathesis.core.result import Ok

    bounded = settings(
        max_examples=EXAMPLES_PER_OPERATION_AND_MODE,
        phases=[Phase.explicit, Phase.generate],
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    ca_file = str(fuzzed_sandbox.ca_file)
    schema = schemathesis.openapi.from_url(
        f"{fuzzed_sandbox.base_url}/openapi.json", verify=ca_file
    )
    headers = admin_headers(fuzzed_sandbox)
    operations = [result.ok() for result in schema.get_all_operations() if isinstance(result, Ok)]
    assert {op.path.split("/")[1] for op in operations} >= {"v1", "v2"}

    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            with subtests.test(msg=f"{operation.label} ({mode.value})"):

                @seed(SEED)
                @bounded
                @given(case=operation.as_strategy(mode, headers=headers))
                def no_server_error(case: schemathesis.Case) -> None:
                    response = case.call(
                        base_url=fuzzed_sandbox.base_url,
                        session=session,
                        verify=ca_file,
                        timeout=30,
                    )
                    assert response.status_code < 500, (
                        f"{case.method} {case.formatted_path} → {response.status_code}: "
                        f"{response.text[:300]}"
                    )

                try:
                    no_server_error()
                except Unsatisfiable:
                    if mode is GenerationMode.POSITIVE:
                        raise
                    pytest.skip("nothing in this operation can be made invalid")
