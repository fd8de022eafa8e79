"""An environment variable's name given on the command line (``smoke --env NAME``): letters,
digits and underscores, not starting with a digit, or argparse's one-line usage error, exit 2."""

import argparse
import re

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def variable_name(text: str) -> str:
    if not NAME.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an environment variable's name (letters, digits, _)"
        )
    return text


variable_name.__name__ = "variable name"
