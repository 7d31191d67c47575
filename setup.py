"""Build script for the Cython extension ``engine._core``.

All kernel sources live in ``ext/``: ``_core.pyx`` includes one ``.pxi`` file per concept, so that the
whole kernel is one C translation unit and the compiler can inline move generation and make/unmake.
"""
from Cython.Build import cythonize
from setuptools import Extension, setup

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
