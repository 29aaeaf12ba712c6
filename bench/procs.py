"""What a server's processes use, read from Linux's /proc: a process and all its children
(granian's main process and its workers)."""

from __future__ import annotations

import os
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def tree(pid: int) -> list[int]:
    """`pid` and every process descended from it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int(_stat(int(entry.name))[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children.get(current, [])
    return found


def rss_mb(pid: int) -> float:
    """Resident memory of the tree, in MB."""
    total = 0
    for member in tree(pid):
        try:
            status = Path(f"/proc/{member}/status").read_text()
        except OSError:
            continue
        total += sum(
            int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")
        )
    return total / 1024


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) the tree has used so far."""
    total = 0
    for member in tree(pid):
        try:
            fields = _stat(member)
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / TICKS


def _stat(pid: int) -> list[str]:
    """/proc/<pid>/stat after the command name (which may hold spaces): state, ppid, ..."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
