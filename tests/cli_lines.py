"""What a command said on stderr about itself. Any command first sweeps what killed runs left
(work directories, network namespaces) and says so in one line; on a busy machine, with other
runs killed, that line may come before the command's own. A test of the command's own words
(its one error line, said last) reads them through :func:`said`."""

import re

# proc/work_dirs.py's and hosts/lab_network.py's notices, exactly.
SWEEP_NOTICE = re.compile(
    r"layerbench: removed (1 work directory|\d+ work directories) left in \S.* by runs that "
    r"were killed \(\d+ MB\)"
    r"|layerbench: removed \d+ network namespaces left by runs that were killed \(lbh-.*\)"
)


def said(stderr: str) -> str:
    """``stderr`` without the sweep notices that came first."""
    lines = stderr.splitlines(keepends=True)
    while lines and SWEEP_NOTICE.fullmatch(lines[0].rstrip("\n")):
        lines.pop(0)
    return "".join(lines)
