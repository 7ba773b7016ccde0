"""Build the compiled search core (C) beside the pure-Python package.

Everything else about the package is in pyproject.toml. The extensions are
optional: without a C compiler the install still succeeds and the engine
uses the pure-Python twin of each primitive (explainer/core/__init__.py).
"""
from setuptools import Extension, setup

CORE = "explainer/core"
FLAGS = ["-O3", "-std=c99"]
HEADERS = [f"{CORE}/cellset.h", f"{CORE}/glue.h"]  # every module includes both (glue.h includes cellset.h)
# a module's own flags: the routing's floats round as Python's do, one operation at a time
# (no multiply-add fused into one rounding), and it calls the C library's rint
OWN = {"_route": {"extra_compile_args": ["-ffp-contract=off"], "libraries": ["m"]}}


def core(name: str) -> Extension:
    own = OWN.get(name, {})
    return Extension(f"explainer.core.{name}", sources=[f"{CORE}/{name}.c"], depends=HEADERS,
                     extra_compile_args=FLAGS + own.get("extra_compile_args", []),
                     libraries=own.get("libraries", []), optional=True)


MODULES = ("_probe", "_propagate", "_search", "_sechain", "_sepattern", "_templates", "_wings", "_sdc", "_fish",
           "_ur", "_pixels", "_route", "_deflate")

setup(ext_modules=[core(name) for name in MODULES])
