"""The page rung's request, called in-process as ``layerbench cost`` calls it, raises no
exception of ours: neither the pretty id's lookup (an InvalidIdError built and caught) nor the
template's fields (Jinja2 tries an attribute before the key: an AttributeError a field). An
exception costs its message and its traceback on every request (callgrind's PyTraceBack_Here
and PyUnicode_FromFormatV). The KeyErrors left are the libraries': Falcon's missing environ
keys, Jinja2's globals."""

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from layerbench.cost.collect_child import Caller
from layerbench.rungs.definitions import LADDER
from layerbench_sites.app.app_config import DATABASE_URL_VARIABLE, AppConfig
from layerbench_sites.app.ladder_data import prepare_app_data
from layerbench_sites.app.wsgi import create_app

PAGE = next(rung for rung in LADDER if rung.name == "page")
OURS = ("AttributeError", "InvalidIdError")


def raised_during(call: Callable[[], object]) -> Counter[str]:
    """The exceptions raised while ``call`` runs, by type: each where it is raised, not again
    in every frame it passes through."""
    raised: Counter[str] = Counter()

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "exception" and arg[2] is not None and arg[2].tb_next is None:
            raised[arg[0].__name__] += 1
        return trace

    sys.settrace(trace)
    try:
        call()
    finally:
        sys.settrace(None)
    return raised


def test_the_page_request_raises_no_exception_of_ours(tmp_path: Path) -> None:
    data = prepare_app_data(tmp_path / "data")
    database_url = data.environment[DATABASE_URL_VARIABLE]
    app = create_app(AppConfig(db_path=data.db_path, database_url=database_url))
    caller = Caller(app, {"method": PAGE.method, "path": PAGE.path})
    caller.call()  # the first request fills what is built once
    raised = raised_during(caller.call)
    assert caller.statuses == {"200": 2}
    assert {name: raised[name] for name in OURS} == dict.fromkeys(OURS, 0), raised
