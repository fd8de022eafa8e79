"""The ZEO server of the Zope application's storage, for as long as the server it serves lives:

    python -m layerbench_sites.frameworks.zope_site.zeo_server RUNZEO-ARGUMENTS

runzeo (ZEO's own server program), which ends itself once no other process is left in its
process group. A process of the application starts it (:mod:`zeo`) in that process's
group: a server the lab starts is a group of its own, stopped as a whole, and the ZEO server
goes with it; started by a process that is not (a script that imports the application), it
goes when that script's group has ended, rather than outliving everything that used it.
"""

import os
import signal
import sys
import threading
import time

import ZEO.runzeo  # type: ignore[import-untyped]

from layerbench.proc.watchdog import live_members

POLL_S = 0.5


def watch_group() -> None:
    """SIGTERM to ourselves (runzeo's clean stop) once we are alone in our process group."""
    group = os.getpgid(0)
    while [pid for pid in live_members(group) if pid != os.getpid()]:
        time.sleep(POLL_S)
    os.kill(os.getpid(), signal.SIGTERM)


if __name__ == "__main__":
    threading.Thread(target=watch_group, name="group-watch", daemon=True).start()
    ZEO.runzeo.main(sys.argv[1:])
