"""``layerbench ids``: encode, decode, generate and check short ids.

layerbench ids encode N        the id of the number N
layerbench ids decode ID       the number behind ID
layerbench ids gen [-n COUNT]  COUNT new ids, one a line
layerbench ids check ID        exit 0 when ID is well-formed, 1 with the reason when not
"""

import argparse
from typing import Any

from layerbench.console.output import print_out
from layerbench.errors import ConfigError
from layerbench.sites import decode_id, encode_id, id_scheme_version, new_id

MAX_GENERATED = 10**9
LINES_PER_WRITE = 4096


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "ids",
        help="encode, decode, generate and check short ids",
        description="Short URL-safe ids: a 64-bit number as 13 characters of base36 (version 0).",
    )
    actions = parser.add_subparsers(dest="ids_action", required=True, metavar="ACTION")
    encode_parser = actions.add_parser("encode", help="the id of a number (0 to 2**64-1)")
    encode_parser.add_argument("number", help="a decimal number")
    encode_parser.set_defaults(handler=cmd_encode)
    decode_parser = actions.add_parser("decode", help="the number behind an id")
    decode_parser.add_argument("id")
    decode_parser.set_defaults(handler=cmd_decode)
    gen_parser = actions.add_parser("gen", help="new random ids, one a line")
    gen_parser.add_argument("-n", "--count", default="1", help="how many (1)")
    gen_parser.set_defaults(handler=cmd_gen)
    check_parser = actions.add_parser("check", help="exit 0 when an id is well-formed")
    check_parser.add_argument("id")
    check_parser.set_defaults(handler=cmd_check)


def parse_number(text: str, what: str) -> int:
    try:
        return int(text, 10)
    except ValueError:
        raise ConfigError(f"{what} {text!r} is not a decimal number") from None


def cmd_encode(args: argparse.Namespace) -> int:
    number = parse_number(args.number, "number")
    try:
        identifier = encode_id(number)
    except ValueError as error:
        raise ConfigError(str(error)) from None  # a wrong argument: a usage error
    print_out(identifier)
    return 0


def cmd_decode(args: argparse.Namespace) -> int:
    try:
        number = decode_id(args.id)
    except ValueError as error:
        raise ConfigError(str(error)) from None  # a wrong argument: a usage error
    print_out(str(number))
    return 0


def cmd_gen(args: argparse.Namespace) -> int:
    count = parse_number(args.count, "count")
    if not 1 <= count <= MAX_GENERATED:
        raise ConfigError(f"count must be 1 to {MAX_GENERATED:,}, not {count}")
    while count:
        batch = min(count, LINES_PER_WRITE)
        print_out("\n".join(new_id() for _ in range(batch)))
        count -= batch
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    version = id_scheme_version(args.id)
    number = decode_id(args.id)
    print_out(f"{args.id}: well-formed, scheme version {version}, number {number}")
    return 0
