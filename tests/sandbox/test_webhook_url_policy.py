"""Webhook URLs whose IPv6 host carries a private, loopback or link-local IPv4 address are
`URL_NOT_PUBLIC` (README: Webhook endpoints, URL rules), and the same forms carrying a public
IPv4 address are judged by it.

The registrations go through the served sandboxes: `strict_sandbox_server` is served without
`--allow-private-webhooks` (production rules), the session `sandbox` with it (loopback and
private admitted, link-local and metadata never). Endpoints are created disabled, so nothing is
ever sent. The decoding itself is checked against the worked examples of the RFCs.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator

import httpx
import pytest

from emissions_sandbox.webhooks.ipv4_in_ipv6 import embedded_ipv4
from tests.sandbox_fixture import SandboxServer, create_org

pytestmark = pytest.mark.timeout(120)

EVENTS = ["ingest_job.finished"]

# Each disguise of a loopback or private IPv4 address (refused without the flag, admitted with
# it) and of a link-local or metadata one (refused with the flag too).
LOOPBACK_OR_PRIVATE = [
    pytest.param("127.0.0.1", id="plain-v4-loopback"),
    pytest.param("10.1.2.3", id="plain-v4-private"),
    pytest.param("[::1]", id="plain-v6-loopback"),
    pytest.param("[fc00::1]", id="plain-v6-unique-local"),
    pytest.param("[::ffff:127.0.0.1]", id="ipv4-mapped-loopback"),
    pytest.param("[::ffff:10.0.0.1]", id="ipv4-mapped-private"),
    pytest.param("[::ffff:0:127.0.0.1]", id="ipv4-translated-loopback"),
    pytest.param("[::127.0.0.1]", id="ipv4-compatible-loopback"),
    pytest.param("[::192.168.1.1]", id="ipv4-compatible-private"),
    pytest.param("[64:ff9b::7f00:1]", id="nat64-well-known-loopback"),
    pytest.param("[64:ff9b::10.1.2.3]", id="nat64-well-known-private"),
    pytest.param("[64:ff9b:1::7f00:1]", id="nat64-local-use-loopback-96"),
    pytest.param("[64:ff9b:1:c0a8:1:100::]", id="nat64-local-use-private-48"),
    pytest.param("[2002:7f00:1::]", id="6to4-loopback"),
    pytest.param("[2002:c0a8:101::1]", id="6to4-private"),
    pytest.param("[2001:0:808:808::80ff:fffe]", id="teredo-client-loopback"),
    pytest.param("[2001:0:a00:1::fefe:fefe]", id="teredo-server-private"),
]
LINK_LOCAL_OR_METADATA = [
    pytest.param("169.254.169.254", id="plain-v4-metadata"),
    pytest.param("169.254.1.1", id="plain-v4-link-local"),
    pytest.param("100.100.100.200", id="plain-v4-alibaba-metadata"),
    pytest.param("[fe80::1]", id="plain-v6-link-local"),
    pytest.param("[fd00:ec2::254]", id="plain-v6-aws-metadata"),
    pytest.param("[::ffff:169.254.169.254]", id="ipv4-mapped-metadata"),
    pytest.param("[::ffff:0:169.254.169.254]", id="ipv4-translated-metadata"),
    pytest.param("[::169.254.169.254]", id="ipv4-compatible-metadata"),
    pytest.param("[64:ff9b::a9fe:a9fe]", id="nat64-well-known-metadata"),
    pytest.param("[64:ff9b::100.100.100.200]", id="nat64-well-known-alibaba-metadata"),
    pytest.param("[64:ff9b:1::a9fe:a9fe]", id="nat64-local-use-metadata-96"),
    pytest.param("[64:ff9b:1:a9fe:a9:fe00::]", id="nat64-local-use-metadata-48"),
    pytest.param("[2002:a9fe:a9fe::]", id="6to4-metadata"),
    pytest.param("[2001:0:808:808::5601:5601]", id="teredo-client-metadata"),
    pytest.param("[2001:0:a9fe:a9fe::fefe:fefe]", id="teredo-server-metadata"),
]
# A public IPv4 address (8.8.8.8, and 1.1.1.1 as a Teredo client) in each decodable form.
PUBLIC_INSIDE = [
    pytest.param("[::ffff:8.8.8.8]", id="ipv4-mapped"),
    pytest.param("[::ffff:0:8.8.8.8]", id="ipv4-translated"),
    pytest.param("[::8.8.8.8]", id="ipv4-compatible"),
    pytest.param("[64:ff9b::8.8.8.8]", id="nat64-well-known"),
    pytest.param("[64:ff9b:1:808:8:808:808:808]", id="nat64-local-use-every-layout"),
    pytest.param("[2002:808:808::1]", id="6to4"),
    pytest.param("[2001:0:808:808::fefe:fefe]", id="teredo"),
]


@pytest.fixture(scope="module")
def strict(strict_sandbox_server: SandboxServer) -> Iterator[httpx.Client]:
    """A sandbox served without --allow-private-webhooks, as an organization of its own."""
    org = create_org(strict_sandbox_server.db_path, "URL policy")
    with strict_sandbox_server.client(org) as client:
        yield client


@pytest.fixture(scope="module")
def flagged(sandbox: SandboxServer) -> Iterator[httpx.Client]:
    """The session sandbox (--allow-private-webhooks), as the admin of an organization of its
    own, so the endpoints made here are seen by no other test."""
    with sandbox.client(create_org(sandbox.db_path, "URL policy")) as client:
        yield client


def _register(client: httpx.Client, host: str) -> httpx.Response:
    body = {"url": f"https://{host}/hook", "event_types": EVENTS, "enabled": False}
    return client.post("/v2/webhook-endpoints", json=body)


def _codes(response: httpx.Response) -> list[str]:
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "VALIDATION_ERROR"
    return [entry["code"] for entry in response.json()["errors"]]


@pytest.mark.parametrize("host", LOOPBACK_OR_PRIVATE + LINK_LOCAL_OR_METADATA)
def test_without_the_flag_every_disguise_is_not_public(strict: httpx.Client, host: str) -> None:
    assert _codes(_register(strict, host)) == ["URL_NOT_PUBLIC"]


@pytest.mark.parametrize("host", LINK_LOCAL_OR_METADATA)
def test_the_flag_never_admits_link_local_or_metadata(flagged: httpx.Client, host: str) -> None:
    assert _codes(_register(flagged, host)) == ["URL_NOT_PUBLIC"]


@pytest.mark.parametrize("host", LOOPBACK_OR_PRIVATE)
def test_the_flag_admits_loopback_and_private_in_any_form(flagged: httpx.Client, host: str) -> None:
    response = _register(flagged, host)

    assert response.status_code == 201, response.text


@pytest.mark.parametrize("host", PUBLIC_INSIDE)
def test_a_public_ipv4_inside_is_admitted_without_the_flag(strict: httpx.Client, host: str) -> None:
    response = _register(strict, host)

    assert response.status_code == 201, response.text
    assert response.json()["url"] == f"https://{host}/hook"


@pytest.mark.parametrize(
    "host",
    [
        # 8.8.8.8 at the /96 place, but the /64 layout reads 0.0.0.8: the prefix length of a
        # local-use network is unknown, so every layout must be public
        pytest.param("[64:ff9b:1::808:808]", id="nat64-local-use-public-only-at-96"),
        # public Teredo server, client 192.0.2.45 (TEST-NET-1, RFC 4380's own example)
        pytest.param("[2001:0:4136:e378:8000:63bf:3fff:fdd2]", id="teredo-documentation-client"),
        pytest.param("[2002:808:808::]", id="6to4-public-control"),
    ],
)
def test_every_carried_ipv4_counts(strict: httpx.Client, host: str) -> None:
    response = _register(strict, host)
    codes = [] if response.status_code == 201 else _codes(response)

    carried = embedded_ipv4(ipaddress.IPv6Address(host.strip("[]")))
    assert carried is not None
    assert codes == ([] if all(v4.is_global for v4 in carried) else ["URL_NOT_PUBLIC"])


@pytest.mark.parametrize(
    ("address", "carried"),
    [
        # RFC 6052 §2.4: 192.0.2.33 under each prefix length, moved onto 64:ff9b:1::/48
        ("64:ff9b:1:c000:2:2100::", "192.0.2.33"),  # /48 layout
        ("64:ff9b:1:c0:0:221::", "192.0.2.33"),  # /56 layout
        ("64:ff9b:1:0:c0:2:2100:0", "192.0.2.33"),  # /64 layout
        ("64:ff9b:1::c000:221", "192.0.2.33"),  # /96 layout
        ("64:ff9b::192.0.2.33", "192.0.2.33"),  # RFC 6052 well-known prefix example
        ("2002:c000:221::1", "192.0.2.33"),  # RFC 3056: 2002:V4ADDR::/48
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "65.54.227.120"),  # RFC 4380 server
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "192.0.2.45"),  # RFC 4380 client (XOR)
        ("::ffff:192.0.2.33", "192.0.2.33"),
        ("::ffff:0:192.0.2.33", "192.0.2.33"),
        ("::192.0.2.33", "192.0.2.33"),
    ],
)
def test_decoding_follows_the_rfc_examples(address: str, carried: str) -> None:
    found = embedded_ipv4(ipaddress.IPv6Address(address))

    assert found is not None
    assert ipaddress.IPv4Address(carried) in found


@pytest.mark.parametrize("address", ["::", "::1", "2001:4860:4860::8888", "fe80::1", "fc00::1"])
def test_other_ipv6_addresses_carry_nothing(address: str) -> None:
    assert embedded_ipv4(ipaddress.IPv6Address(address)) is None
