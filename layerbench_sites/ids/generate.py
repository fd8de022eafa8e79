"""New ids, drawn from a cryptographically strong source over the whole 64-bit range.

(The seed's MySQL ``gen_num_id`` multiplied by 184467440737095516, a digit short of 2**64, and
so drew from 1 % of the space.)
"""

import secrets

from layerbench_sites.ids.codec import encode


def new_number() -> int:
    return secrets.randbits(64)


def new_id() -> str:
    return encode(new_number())
