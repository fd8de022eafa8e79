"""A callgrind dump's instructions by the shared object that executed them, and by layer.

callgrind's format (valgrind's manual, "Callgrind Format Specification") names the object of
the functions that follow with ``ob=``, compressed after its first mention (``ob=(3)
/usr/lib/…/libm.so.6``, then ``ob=(3)``); each cost line (positions, then the events, ``Ir``
first) adds to the current function; ``cob=`` names a callee's object, in the same numbering;
a ``calls=`` line says the *next* cost line is the
inclusive cost of a call (its callee's object given by ``cob=``), not the caller's own.

The self cost of an object is the sum of its own cost lines: the objects' self costs add up to
the dump's total, as the sampler's self shares add up to its samples, and by the same rule
(:mod:`layerbench.profile.layer_shares`): an instruction is charged to the code that executed
it. Python code is not told apart here: on Python 3.11 the interpreter executes every Python
function inside ``_PyEval_EvalFrameDefault`` of the ``python3.11`` executable (or
libpython), whose instructions callgrind cannot tie to a Python function or its file; they
are ``CPython``'s, with the C code it calls of its own (dicts, strings, the allocator).
"""

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from layerbench.profile.frame_layers import UNATTRIBUTED

# The object callgrind could not name (code generated at run time, or unmapped).
UNKNOWN_OBJECT = "???"
_COST_START = tuple("0123456789+-*")


def instructions_by_object(lines: Iterable[str]) -> dict[str, int]:
    """Each object's own instructions (the first event) in a dump's lines."""
    names: dict[str, str] = {}
    positions = 1
    current = UNKNOWN_OBJECT
    inclusive_next = False
    found: dict[str, int] = {}
    for line in lines:
        if line.startswith(_COST_START):
            if inclusive_next:
                inclusive_next = False
                continue
            fields = line.split()
            if len(fields) > positions:
                found[current] = found.get(current, 0) + int(fields[positions])
        elif line.startswith("ob="):
            current = _name(line[3:].rstrip("\n"), names)
        elif line.startswith("cob="):  # names an object too, in the same numbering
            _name(line[4:].rstrip("\n"), names)
        elif line.startswith("calls="):
            inclusive_next = True
        elif line.startswith("positions:"):
            positions = len(line.split()) - 1
    return found


def _name(value: str, names: dict[str, str]) -> str:
    """``(3) /path`` (defining 3), ``(3)`` (using it) or a plain ``/path``."""
    if value.startswith("("):
        number, _, rest = value.partition(")")
        rest = rest.strip()
        if rest:
            names[number] = rest
        return names.get(number, UNKNOWN_OBJECT)
    return value.strip() or UNKNOWN_OBJECT


def dump_objects(path: Path) -> dict[str, int]:
    with path.open(errors="replace") as dump:
        return instructions_by_object(dump)


def objects_by_layer(
    objects: Mapping[str, int], layer_of: Callable[[str], str | None]
) -> dict[str, int]:
    """The objects' instructions added up by layer (``layer_of`` is given a frame of the
    object, as a sampler would write it); an object of no known layer is ``unattributed``."""
    layers: dict[str, int] = {}
    for name, count in objects.items():
        layer = layer_of(f"code ({name})") if name.startswith("/") else None
        key = layer or UNATTRIBUTED
        layers[key] = layers.get(key, 0) + count
    return layers
