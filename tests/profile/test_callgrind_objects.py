"""A callgrind dump's instructions by object: each cost line to the object named last, the
inclusive cost of a call to nobody, so that the objects add up to the dump's total."""

from layerbench.profile.callgrind_objects import instructions_by_object, objects_by_layer
from layerbench.profile.frame_layers import CPYTHON, UNATTRIBUTED

DUMP = """\
# callgrind format
version: 1
positions: line
events: Ir
summary: 1000

ob=(1) /usr/bin/python3.11
fl=(1) ???
fn=(1) _PyEval_EvalFrameDefault
0 500
cob=(2) /usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6
cfn=(2) sqlite3_step
calls=3 0
0 300
+2 100
ob=(2)
fn=(2)
0 300
ob=(3) ???
fn=(3) 0x0000000004995360
* 100
totals: 1000
"""


def test_each_object_has_its_own_instructions_and_they_add_up() -> None:
    objects = instructions_by_object(DUMP.splitlines(keepends=True))
    assert objects == {
        "/usr/bin/python3.11": 600,
        "/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6": 300,
        "???": 100,
    }
    assert sum(objects.values()) == 1000


def test_two_position_columns_are_skipped() -> None:
    dump = "positions: instr line\nevents: Ir\nob=(1) /lib/libc.so.6\nfn=(1) f\n0x10 3 7\n+1 4 5\n"
    assert instructions_by_object(dump.splitlines()) == {"/lib/libc.so.6": 12}


def test_objects_are_added_up_by_layer() -> None:
    def layer_of(frame: str) -> str | None:
        return CPYTHON if "python3" in frame else None

    objects = {"/usr/bin/python3.11": 600, "/lib/libnothing.so": 5, "???": 100}
    assert objects_by_layer(objects, layer_of) == {CPYTHON: 600, UNATTRIBUTED: 105}
