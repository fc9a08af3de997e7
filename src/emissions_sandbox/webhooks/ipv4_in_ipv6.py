"""The IPv4 addresses an IPv6 address carries, for the forms that route or translate to them.

A webhook URL such as `https://[64:ff9b::7f00:1]/` names IPv4 `127.0.0.1` through a NAT64
gateway, and Python's `ipaddress` (3.11) calls several of these forms global. The URL policy
therefore judges such an address by the IPv4 addresses inside it (README: Webhook endpoints).

Forms (bit positions count from the most significant bit of the 128):

| form | prefix | IPv4 |
|---|---|---|
| IPv4-mapped | `::ffff:0:0/96` | bits 96-128 |
| IPv4-translated (SIIT) | `::ffff:0:0:0/96` | bits 96-128 |
| IPv4-compatible (deprecated) | `::/96` except `::` and `::1` | bits 96-128 |
| NAT64 well-known prefix (RFC 6052) | `64:ff9b::/96` | bits 96-128 |
| NAT64 local-use (RFC 8215) | `64:ff9b:1::/48` | each RFC 6052 layout of a /48 to /96 prefix |
| 6to4 (RFC 3056) | `2002::/16` | bits 16-48 |
| Teredo (RFC 4380) | `2001::/32` | server bits 32-64; client bits 96-128 XOR `0xffffffff` |
"""

from __future__ import annotations

import ipaddress

_MAPPED = ipaddress.IPv6Network("::ffff:0:0/96")
_TRANSLATED = ipaddress.IPv6Network("::ffff:0:0:0/96")
_COMPATIBLE = ipaddress.IPv6Network("::/96")
_NAT64_WELL_KNOWN = ipaddress.IPv6Network("64:ff9b::/96")
_NAT64_LOCAL_USE = ipaddress.IPv6Network("64:ff9b:1::/48")
_SIX_TO_FOUR = ipaddress.IPv6Network("2002::/16")
_TEREDO = ipaddress.IPv6Network("2001::/32")

# RFC 6052 §2.2: where the 32 IPv4 bits sit for each NAT64 prefix length; bits 64-71 (the
# "u" octet) are never used, so an address straddling them is split around it. Byte offsets.
_RFC6052_LAYOUTS = {
    48: (6, 7, 9, 10),
    56: (7, 9, 10, 11),
    64: (9, 10, 11, 12),
    96: (12, 13, 14, 15),
}


def embedded_ipv4(address: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...] | None:
    """The IPv4 addresses `address` embeds, or None when it is none of the forms above.

    A local-use NAT64 address yields one candidate per layout, since the prefix length its
    network chose cannot be known from outside; Teredo yields its server and its client.
    """
    value = int(address)
    if address in _MAPPED or address in _TRANSLATED or address in _NAT64_WELL_KNOWN:
        return (_low32(value),)
    if address in _COMPATIBLE:
        if value <= 1:  # `::` and `::1` are the unspecified and loopback addresses themselves
            return None
        return (_low32(value),)
    if address in _NAT64_LOCAL_USE:
        packed = address.packed
        return tuple(
            ipaddress.IPv4Address(bytes(packed[i] for i in offsets))
            for offsets in _RFC6052_LAYOUTS.values()
        )
    if address in _SIX_TO_FOUR:
        return (ipaddress.IPv4Address((value >> 80) & 0xFFFFFFFF),)
    if address in _TEREDO:
        server = ipaddress.IPv4Address((value >> 64) & 0xFFFFFFFF)
        client = ipaddress.IPv4Address(~value & 0xFFFFFFFF)
        return (server, client)
    return None


def _low32(value: int) -> ipaddress.IPv4Address:
    return ipaddress.IPv4Address(value & 0xFFFFFFFF)
