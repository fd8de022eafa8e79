"""The process a kill test kills: it starts one adapter or service through the project's own
code, then waits to be killed.

    python -m tests.start_driver adapter NAME WORKDIR
    python -m tests.start_driver service NAME

It prints ``starting`` just before the start begins and ``started`` once the server answers
(both flushed), so the test can time its SIGKILL from the first; or ``missing`` and why, when a
program it runs is not installed.
"""

import sys
import time
from pathlib import Path

from layerbench.errors import MissingPackageError
from layerbench.servers.adapters import ADAPTERS
from layerbench.servers.deployment import Deployment
from layerbench.services.registry import service_class
from layerbench.services.service import ManagedService
from tests.adapter_plan import plan_for


def main() -> None:
    kind, name = sys.argv[1], sys.argv[2]
    target: Deployment | ManagedService
    try:
        if kind == "adapter":
            target = ADAPTERS[name].build(plan_for(Path(sys.argv[3])))
        else:
            target = service_class(name)()
            for program in target.programs():
                target.find(program)
    except MissingPackageError as error:
        print(f"missing {error}", flush=True)
        return
    print("starting", flush=True)
    target.start()
    print("started", flush=True)
    time.sleep(600)


if __name__ == "__main__":
    main()
