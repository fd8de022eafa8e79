"""Thread-local storage that stays with Apache's thread under mod_python.

mod_python runs a handler in a Python thread state taken from a pool: ``get_interpreter`` pops
one, ``release_interpreter`` pushes it back when the handler is done, and the next request, on
whichever of Apache's threads, pops it again. Upstream cleared the thread state before pooling it
(``PyThreadState_Clear``); Debian 12's package (3.5.0+git20211031.e6458ec-1+deb12u1, "Fix
segfaults when releasing threads", as upstream's 8c081e0 for Python 3.9 and later) no longer
does. The thread state's dict, where every ``threading.local`` keeps its values, so travels from
one Apache thread to another, while ``threading.get_ident()`` names the OS thread: Django finds
the connection an other thread opened in its ``threading.local`` and refuses it ("DatabaseWrapper
objects created in a thread can only be used in that same thread").

:func:`own_thread_locals` gives each OS thread its own thread-state dict for the length of a
request, as a server with one thread state per thread does (mod_wsgi): it puts in the thread
state the dict this OS thread left at the end of its last request, and takes it back out at the
end of this one. What another use of the pooled thread state left in it (mod_python's
``PythonImport``) is dropped, as ``PyThreadState_Clear`` would have.
"""

import ctypes
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

# The CPython function behind it: the current thread state's dict, a borrowed reference. Its
# result is read as an address: a py_object restype would be taken for a new reference and
# released once more than it was taken. Called with the GIL held (pythonapi is a PyDLL).
_thread_state_dict_address = ctypes.pythonapi.PyThreadState_GetDict
_thread_state_dict_address.restype = ctypes.c_void_p
_thread_state_dict_address.argtypes = []


def _thread_state_dict() -> dict[Any, Any]:
    """The current thread state's dict (a reference of our own)."""
    address = _thread_state_dict_address()
    state: dict[Any, Any] = ctypes.cast(address, ctypes.py_object).value
    return state


# Each OS thread's thread-state dict between its requests.
_parked: dict[int, dict[Any, Any]] = {}


@contextmanager
def own_thread_locals() -> Iterator[None]:
    """Run the block with this OS thread's thread-local values in the current thread state."""
    state = _thread_state_dict()
    ident = threading.get_ident()
    state.clear()
    state.update(_parked.pop(ident, {}))
    try:
        yield
    finally:
        _parked[ident] = dict(state)
        state.clear()
