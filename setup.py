"""Build script for the Cython extension ``engine._core``.

All kernel sources live in ``ext/``: ``_core.pyx`` includes one ``.pxi`` file per concept, so that the
whole kernel is one C translation unit and the compiler can inline move generation and make/unmake.

Every run also stamps the git commit into ``engine/_build_info.py`` (git-ignored), which
``engine.version`` reads for the engine's name.
"""
import os
import subprocess

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD_INFO = os.path.join(HERE, "engine", "_build_info.py")


def git_commit():
    """The short hash of HEAD, with ``+dirty`` when a tracked file differs from it; None outside a git
    checkout (or without git)."""
    def git(*args):
        return subprocess.run(["git", "-C", HERE, *args], capture_output=True, text=True, check=True).stdout
    try:
        commit = git("rev-parse", "--short", "HEAD").strip()
        dirty = git("status", "--porcelain", "--untracked-files=no").strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return commit + ("+dirty" if dirty else "") if commit else None


def stamp_build_info():
    """Write the commit for engine.version; outside a git checkout leave whatever is there (an sdist's)."""
    commit = git_commit()
    if commit is None:
        return
    text = f'"""Written by setup.py at build time; do not edit."""\nCOMMIT = {commit!r}\n'
    try:
        with open(BUILD_INFO, encoding="utf-8") as handle:
            if handle.read() == text:
                return
    except OSError:
        pass
    with open(BUILD_INFO, "w", encoding="utf-8") as handle:
        handle.write(text)


stamp_build_info()

extensions = [
    Extension(
        "engine._core",
        ["ext/_core.pyx"],
        extra_compile_args=["-O3"],
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=["ext"],
        compiler_directives={
            "language_level": "3",
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )
)
