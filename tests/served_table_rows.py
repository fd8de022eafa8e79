"""The served table (layerbench.served.served_table) read back as its reader sees it: per column
label, per role, the row's cells with its wrapped last cell joined again into one line."""

ROLE_INDENT = "  "


def served_rows(table: str) -> dict[str, dict[str, str]]:
    """``{label: {role: "role procs instructions … calls"}}``; a column counted not at all has
    its reason under the role ``-``. The caption and the header are skipped."""
    rows: dict[str, dict[str, str]] = {}
    label, role = "", ""
    lines = table.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["role", "procs"])
    for line in lines[header + 1 :]:
        if not line.startswith(" "):
            label, role = line, ""
            rows[label] = {}
        elif line.startswith(ROLE_INDENT) and line[len(ROLE_INDENT)] != " ":
            role = line.split()[0] if "  " in line.strip() else "-"
            rows[label][role] = line.strip()
        else:
            rows[label][role] += " " + line.strip()
    return rows


def caption(table: str) -> str:
    """The caption, its wrapped lines joined again."""
    lines = table.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["role", "procs"])
    return " ".join(lines[:header])
