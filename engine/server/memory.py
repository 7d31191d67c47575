"""What the machine's memory allows the transposition table: the Hash option's maximum (half the physical
memory) and, before a table is allocated, whether the memory is free now.

The second question matters because Linux overcommits: a table of 12 GB on a machine with 16 GB of which
3 GB are free is granted by malloc, and the kernel's clearing of it, which touches every page, then gets
the engine killed. So a size the free memory cannot hold is refused before the allocation, and the old
table is kept (engine.server.engine.Engine.configure).
"""
from __future__ import annotations

import os
from typing import Optional

#: Memory (MB) left to the rest of the engine and of the machine when a table is allocated.
HEADROOM_MB = 256
#: Where Linux says how much memory can be had without swapping (the `MemAvailable` line, in kB).
MEMINFO = "/proc/meminfo"
_MB = 1024 * 1024


def physical_mb() -> Optional[int]:
    """The machine's physical memory in MB, None when the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // _MB
    except (ValueError, OSError, AttributeError):
        return None


def available_mb() -> Optional[int]:
    """The memory (MB) that can be had now without swapping: Linux's MemAvailable (free memory plus the
    caches it can drop), else the free pages; None when the system does not say."""
    try:
        with open(MEMINFO, encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES") // _MB
    except (ValueError, OSError, AttributeError):
        return None


def check_table_fits(hash_mb: int) -> None:
    """Raise MemoryError when a table of `hash_mb` MB would not fit in the memory free now (with
    HEADROOM_MB to spare); nothing when it would, or when the system does not say."""
    free = available_mb()
    if free is not None and hash_mb > free - HEADROOM_MB:
        raise MemoryError(f"a {hash_mb} MB hash table does not fit in the {free} MB of memory free now")
