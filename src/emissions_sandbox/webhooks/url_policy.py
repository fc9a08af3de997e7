"""The rules a webhook URL must meet (interface: Webhook endpoint, Events rule 6).

Every address the host resolves to must be public, so that a registered URL cannot aim
the sandbox at its own machine, a private network or a cloud metadata service.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from emissions_sandbox.webhooks.ipv4_in_ipv6 import embedded_ipv4

MAX_URL_LENGTH = 2048

# Metadata services outside the link-local range, refused even with the private flag.
_METADATA_ADDRESSES = frozenset(
    {
        ipaddress.ip_address("169.254.169.254"),  # AWS, GCP, Azure, OpenStack
        ipaddress.ip_address("fd00:ec2::254"),  # AWS over IPv6
        ipaddress.ip_address("100.100.100.200"),  # Alibaba Cloud
    }
)

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class UrlViolation:
    """One broken rule: a stable code and a sentence for people."""

    code: str
    message: str


def check_webhook_url(url: str, *, allow_private: bool) -> list[UrlViolation]:
    """Every rule `url` breaks, empty when it may be registered or delivered to.

    `allow_private` (the `--allow-private-webhooks` development flag) admits loopback and
    private addresses, and plain `http` when every address is loopback.
    """
    if len(url) > MAX_URL_LENGTH:
        return [UrlViolation("URL_TOO_LONG", f"url must be at most {MAX_URL_LENGTH} characters")]
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        return [UrlViolation("URL_UNRESOLVABLE", "url is not a valid absolute URL")]
    violations: list[UrlViolation] = []
    # Plain http is judged after resolution: the private flag admits it for loopback hosts.
    if parts.scheme not in ("https", "http"):
        violations.append(UrlViolation("URL_NOT_HTTPS", "url must use the https scheme"))
    if parts.username is not None or parts.password is not None:
        violations.append(UrlViolation("URL_HAS_CREDENTIALS", "url must not carry credentials"))
    if violations:
        return violations
    addresses = _resolve(parts)
    if not addresses:
        return [UrlViolation("URL_UNRESOLVABLE", "the url's host does not resolve")]
    if parts.scheme == "http" and not (allow_private and all(a.is_loopback for a in addresses)):
        violations.append(UrlViolation("URL_NOT_HTTPS", "url must use the https scheme"))
    if not all(_is_admitted(address, allow_private) for address in addresses):
        violations.append(
            UrlViolation("URL_NOT_PUBLIC", "the url's host must resolve to public addresses")
        )
    return violations


def _resolve(parts: SplitResult) -> list[IPAddress]:
    if not parts.hostname:
        return []
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        return []
    addresses: list[IPAddress] = []
    for info in infos:
        text = str(info[4][0]).split("%", 1)[0]  # drop an IPv6 zone id
        address = ipaddress.ip_address(text)
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        addresses.append(address)
    return addresses


def _is_admitted(address: IPAddress, allow_private: bool) -> bool:
    """Whether the sandbox may connect to `address`. An IPv6 form that carries IPv4 addresses
    (NAT64, 6to4, Teredo, IPv4-compatible, ...) is judged by every IPv4 address it carries:
    `ipaddress` calls `64:ff9b::7f00:1` global, yet it reaches 127.0.0.1 through a gateway."""
    if isinstance(address, ipaddress.IPv6Address):
        carried = embedded_ipv4(address)
        if carried is not None:
            return all(_is_admitted(v4, allow_private) for v4 in carried)
    if address in _METADATA_ADDRESSES or address.is_link_local:
        return False
    if address.is_global and not (address.is_multicast or address.is_reserved):
        return True
    return allow_private and (address.is_loopback or address.is_private)
