"""How a 64-bit unsigned numid is stored where the database only has signed 64-bit integers
(SQLite's INTEGER, PostgreSQL's bigint): as the signed number with the same 64 bits, so the key
stays 8 bytes and every numid has exactly one stored value. MariaDB stores it as is
(BIGINT UNSIGNED)."""

from layerbench_sites.ids.codec import MAX_NUMBER

SIGN_BIT = 2**63


def to_signed(numid: int) -> int:
    if not 0 <= numid <= MAX_NUMBER:
        raise ValueError(f"numid {numid} is outside 0 .. 2**64-1")
    return numid - 2**64 if numid >= SIGN_BIT else numid


def from_signed(stored: int) -> int:
    if not -SIGN_BIT <= stored < SIGN_BIT:
        raise ValueError(f"stored numid {stored} is not a signed 64-bit number")
    return stored + 2**64 if stored < 0 else stored
