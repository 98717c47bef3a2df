"""Public wallet addresses: a Bitcoin-style address is shared to be paid, not kept
secret, yet reads as random text; its checksum tells it from a random token.

- bech32 / bech32m (BIP-173, BIP-350): ``bc1q...``, ``tb1...``, ``ltc1...``;
- base58check (a version byte, 20 bytes, a 4-byte double-SHA-256 checksum):
  ``1...``, ``3...`` (Bitcoin), ``L...``/``M...`` (Litecoin), ``D...`` (Dogecoin).

A random token passes a checksum once in 2**30 or more, so no secret is let
through for looking like one. Ethereum's ``0x`` + 40 hex is hex, never high
entropy (``tokens``).
"""

from __future__ import annotations

_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_BECH32_HRPS = ("bc", "tb", "bcrt", "ltc", "tltc")
_BECH32_CONSTS = (1, 0x2BC830A3)  # bech32, bech32m
_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
# version bytes of pay-to-key-hash and pay-to-script-hash addresses: Bitcoin
# main and test, Litecoin, Dogecoin
_VERSIONS = frozenset({0x00, 0x05, 0x6F, 0xC4, 0x30, 0x32, 0x1E, 0x16})


def _polymod(values: list[int]) -> int:
    gen = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if (top >> i) & 1 else 0
    return chk


def bech32(token: str) -> bool:
    """Whether ``token`` is a bech32 or bech32m address of a known network."""
    low = token.lower()
    if token != low and token != token.upper():
        return False  # mixed case is invalid bech32
    hrp, sep, data = low.rpartition("1")
    if not sep or hrp not in _BECH32_HRPS or not 6 <= len(data) <= 90:
        return False
    if any(c not in _BECH32 for c in data):
        return False
    values = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    return _polymod(values + [_BECH32.index(c) for c in data]) in _BECH32_CONSTS


def base58check(token: str) -> bool:
    """Whether ``token`` is a base58check address (25 bytes, a known version)."""
    if not 25 <= len(token) <= 35 or any(c not in _BASE58 for c in token):
        return False
    n = 0
    for c in token:
        n = n * 58 + _BASE58.index(c)
    raw = n.to_bytes(25, "big") if n.bit_length() <= 200 else b""
    if len(raw) != 25 or raw[0] not in _VERSIONS:
        return False
    import hashlib  # here: ~25 ms to import, and bech32 needs none

    digest = hashlib.sha256(hashlib.sha256(raw[:21]).digest()).digest()
    return digest[:4] == raw[21:]


def address(token: str) -> bool:
    """Whether ``token`` is a public wallet address (see the module docstring)."""
    return bech32(token) or base58check(token)
