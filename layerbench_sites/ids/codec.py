"""The short id scheme, version 0: a 64-bit number as 13 characters of lowercase base36.

    0         -> 0000000000000
    35        -> 000000000000z
    2**64 - 1 -> 3w5e11264sgsf

Identifiers in general match ``ID_PATTERN`` (the seed's pattern, which UUIDs also match); the
length tells the scheme version, so that a later scheme can come in beside this one. Decoding is
the exact inverse of encoding: one number, one id.
"""

import re

from layerbench.errors import LayerbenchError

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
BASE = len(ALPHABET)
MAX_NUMBER = 2**64 - 1
V0_LENGTH = 13
# The seed's pattern for any identifier, of any scheme: 13 to 32 characters.
ID_PATTERN = re.compile(r"[0-9a-z][0-9a-z-]{11,30}[0-9a-z]")
SCHEME_VERSIONS = {V0_LENGTH: 0}


class InvalidIdError(LayerbenchError, ValueError):
    """Not an identifier this scheme can decode; the message says why."""


def encode(number: int) -> str:
    """The version-0 id of ``number``, which must be in 0 .. 2**64 - 1."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise InvalidIdError(f"{number!r} is not an integer")
    if not 0 <= number <= MAX_NUMBER:
        raise InvalidIdError(f"{number} is out of range: ids encode 0 to 2**64-1 ({MAX_NUMBER})")
    digits = []
    while number:
        number, digit = divmod(number, BASE)
        digits.append(ALPHABET[digit])
    return "".join(reversed(digits)).rjust(V0_LENGTH, "0")


def scheme_version(identifier: str) -> int:
    """The scheme version of a well-formed identifier, told by its length."""
    if not isinstance(identifier, str):
        raise InvalidIdError(f"{identifier!r} is not a string")
    if not ID_PATTERN.fullmatch(identifier):
        raise InvalidIdError(f"{identifier!r} is not an id: {why_malformed(identifier)}")
    try:
        return SCHEME_VERSIONS[len(identifier)]
    except KeyError:
        raise InvalidIdError(
            f"{identifier!r} has {len(identifier)} characters: no known id scheme has that "
            f"length (version 0 has {V0_LENGTH})"
        ) from None


def decode(identifier: str) -> int:
    """The number behind a version-0 id; the exact inverse of ``encode``."""
    scheme_version(identifier)
    if "-" in identifier:
        raise InvalidIdError(f"{identifier!r}: version-0 ids have no '-'")
    number = int(identifier, BASE)
    if number > MAX_NUMBER:
        raise InvalidIdError(f"{identifier!r} is beyond the largest id, {encode(MAX_NUMBER)}")
    return number


def why_malformed(identifier: str) -> str:
    """Says what is wrong with a string that does not match ``ID_PATTERN``."""
    outside = sorted({c for c in identifier if c not in ALPHABET and c != "-"})
    if outside:
        return "characters outside 0-9, a-z and '-': " + " ".join(repr(c) for c in outside)
    if not 13 <= len(identifier) <= 32:
        return f"{len(identifier)} characters, where ids have 13 to 32"
    return "it starts or ends with '-'"
