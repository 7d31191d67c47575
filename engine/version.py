"""The engine's version and the commit it was built from, and the name it gives itself.

    >>> ENGINE_NAME            # doctest: +SKIP
    'jiangjun 0.1.0 (5a2f245)'

The commit comes from ``engine/_build_info.py``, which ``setup.py`` writes at every build from
``git rev-parse --short HEAD`` (with ``+dirty`` when tracked files differ from that commit). The file is
git-ignored; outside a git checkout nothing is written, and the commit is None: the name is then just
``jiangjun 0.1.0``. The stamp is the build's, so a tree changed after the last build still shows the
commit of that build.
"""
from __future__ import annotations

from typing import Optional

__version__ = "0.1.0"

try:
    from ._build_info import COMMIT as _COMMIT
except ImportError:    # not built by setup.py, or built outside a git checkout
    _COMMIT = None

#: The short hash the engine was built from ("5a2f245", "5a2f245+dirty"), or None when unknown.
COMMIT: Optional[str] = _COMMIT or None

#: What the engine calls itself: UCI/UCCI `id name`, CECP `myname`, the PGN player name.
ENGINE_NAME = f"jiangjun {__version__}" + (f" ({COMMIT})" if COMMIT else "")
