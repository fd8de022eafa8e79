"""``--published NAME`` of ``ladder`` and ``matrix``: after the run's tables, a published
experiment's figures beside this run's; and ``--seed NNN``, the name it replaced, kept hidden:
it still works, and says on stderr what replaced it."""

import argparse
import sys

from layerbench.errors import ConfigError
from layerbench.replicate.published import of_post


def add_published_argument(parser: argparse.ArgumentParser, kind: str) -> None:
    parser.add_argument(
        "--published",
        metavar="NAME[,NAME]",
        help=f"after the tables, a published {kind} experiment's figures beside this run's "
        "(see layerbench replicate --list)",
    )
    parser.add_argument("--seed", help=argparse.SUPPRESS)


def published_names(args: argparse.Namespace, kind: str) -> str | None:
    """The experiments ``--published`` names, or those of the post ``--seed`` numbers."""
    if args.seed is None:
        given: str | None = args.published
        return given
    if args.published is not None:
        raise ConfigError("--published or --seed, not both")
    names = ",".join(experiment.name for experiment in of_post(args.seed, kind))
    if not names:
        raise ConfigError(
            f"--seed {args.seed} is replaced by --published NAME, and post {args.seed} has no "
            f"{kind} experiment (see layerbench replicate --list)"
        )
    print(f"layerbench: --seed {args.seed} is now --published {names}", file=sys.stderr)
    return names
