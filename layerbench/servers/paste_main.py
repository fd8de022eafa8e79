"""Run the reference application under paste.httpserver (it has no command of its own):

python -m layerbench.servers.paste_main HOST PORT THREADS BACKLOG
"""

import importlib
import sys

from paste import httpserver  # type: ignore[import-untyped]

from layerbench.site_contract import WSGI_ENTRY_MODULE


def main(argv: list[str]) -> None:
    host, port, threads, backlog = argv
    application = importlib.import_module(WSGI_ENTRY_MODULE).application
    httpserver.serve(
        application,
        host=host,
        port=port,
        use_threadpool=True,
        threadpool_workers=int(threads),
        # Exactly THREADS threads: paste otherwise adds up to 5 more whenever none is idle
        # (and refuses a pool smaller than that), which is not the pool the user asked for.
        threadpool_options={"spawn_if_under": 0},
        request_queue_size=int(backlog),
    )


if __name__ == "__main__":
    main(sys.argv[1:])
