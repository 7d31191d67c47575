"""What `pip install .` ships: every subpackage of engine/ is in pyproject.toml's package list (setuptools
installs only those named, so a new subpackage left out works in a checkout and fails once installed)."""
from __future__ import annotations

import re

from support import ROOT


def declared_packages() -> set[str]:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listing = re.search(r"^packages = \[(.*?)\]", text, re.M | re.S)
    assert listing, "pyproject.toml names no packages"
    return set(re.findall(r'"([\w.]+)"', listing.group(1)))


def test_every_subpackage_is_installed():
    found = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "engine").rglob("__init__.py")}
    assert declared_packages() == found
