"""engine/_core.pyi against the compiled kernel: the same public names at module level and in each
class, the same kinds (class, function, data), and the same parameters where the compiled object
tells them.

Cython 3 compiles `def` functions and methods as binding functions, so inspect.signature reads their
parameters. A cdef class exposes no constructor signature (its __init__ is a slot wrapper): the
constructors are checked by calling them with the stub's parameter names instead.
"""
from __future__ import annotations

import ast
import inspect
from typing import Optional

import pytest

from engine import Position, _core
from support import ROOT

STUB = ROOT / "engine" / "_core.pyi"


def _is_public(name: str) -> bool:
    """Private names (one leading underscore), dunders and Cython's internals are not part of the API."""
    return not name.startswith("_")


class StubScope:
    """The public names one stub scope (the module or a class body) declares, by kind."""

    def __init__(self, body: list[ast.stmt]) -> None:
        self.classes: dict[str, ast.ClassDef] = {}
        self.functions: dict[str, ast.FunctionDef] = {}   # plain functions and methods
        self.data: set[str] = set()                        # annotated names and properties
        self.init: Optional[ast.FunctionDef] = None
        for node in body:
            if isinstance(node, ast.ClassDef):
                self.classes[node.name] = node
            elif isinstance(node, ast.FunctionDef):
                if node.name == "__init__":
                    self.init = node
                elif _is_property(node):
                    self.data.add(node.name)
                else:
                    self.functions[node.name] = node
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                self.data.add(node.target.id)

    def public_names(self) -> set[str]:
        return {name for name in (*self.classes, *self.functions, *self.data) if _is_public(name)}


def _is_property(node: ast.FunctionDef) -> bool:
    """`@property` or `@name.setter` / `@name.deleter`."""
    for decorator in node.decorator_list:
        if isinstance(decorator, ast.Name) and decorator.id == "property":
            return True
        if isinstance(decorator, ast.Attribute) and decorator.attr in ("setter", "deleter"):
            return True
    return False


def _stub_parameters(node: ast.FunctionDef) -> list[tuple[str, bool]]:
    """(name, has a default) for each parameter of a stub function, `self` included."""
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    defaults = [False] * (len(positional) - len(args.defaults)) + [True] * len(args.defaults)
    params = list(zip((a.arg for a in positional), defaults))
    if args.vararg:
        params.append(("*" + args.vararg.arg, False))
    params += [(a.arg, d is not None) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    if args.kwarg:
        params.append(("**" + args.kwarg.arg, False))
    return params


def _compiled_parameters(obj: object) -> list[tuple[str, bool]]:
    prefix = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}
    return [(prefix.get(p.kind, "") + p.name, p.default is not inspect.Parameter.empty)
            for p in inspect.signature(obj).parameters.values()]


MODULE = StubScope(ast.parse(STUB.read_text(encoding="utf-8")).body)
CLASSES = {name: StubScope(node.body) for name, node in MODULE.classes.items()}


def _compiled_public_names(obj: object) -> set[str]:
    return {name for name in dir(obj) if _is_public(name)}


def test_the_module_names_match():
    stub, compiled = MODULE.public_names(), _compiled_public_names(_core)
    assert stub - compiled == set(), "in engine/_core.pyi but not in the compiled module"
    assert compiled - stub == set(), "in the compiled module but not in engine/_core.pyi"


def test_module_kinds_match():
    for name in MODULE.classes:
        assert isinstance(getattr(_core, name), type), f"{name} is a class in the stub"
    for name in MODULE.functions:
        assert callable(getattr(_core, name)) and not isinstance(getattr(_core, name), type), \
            f"{name} is a function in the stub"
    for name in MODULE.data:
        assert not callable(getattr(_core, name)), f"{name} is a value in the stub"


@pytest.mark.parametrize("class_name", sorted(CLASSES))
def test_class_names_and_kinds_match(class_name):
    stub, cls = CLASSES[class_name], getattr(_core, class_name)
    compiled = _compiled_public_names(cls)
    assert stub.public_names() - compiled == set(), f"in the stub's {class_name} but not in the compiled class"
    assert compiled - stub.public_names() == set(), f"in the compiled {class_name} but not in the stub"
    for name in stub.functions:
        assert callable(getattr(cls, name)), f"{class_name}.{name} is a method in the stub"
    for name in stub.data:
        assert inspect.isdatadescriptor(getattr(cls, name)), f"{class_name}.{name} is an attribute in the stub"


def _functions():
    for name, node in MODULE.functions.items():
        yield name, node, getattr(_core, name)
    for class_name, scope in CLASSES.items():
        for name, node in scope.functions.items():
            yield f"{class_name}.{name}", node, getattr(getattr(_core, class_name), name)


@pytest.mark.parametrize("name, node, compiled", list(_functions()), ids=[entry[0] for entry in _functions()])
def test_parameters_match(name, node, compiled):
    assert _compiled_parameters(compiled) == _stub_parameters(node), name


def _all_defaults(scope: StubScope) -> bool:
    return scope.init is not None and all(has_default for _, has_default in _stub_parameters(scope.init)[1:])


#: Values for the constructor parameters the stub gives no default.
REQUIRED_ARGUMENTS = {"Searcher": {"hash_mb": 1},
                      "TbTable": {"red": (1, 0, 0, 0, 1, 0, 0), "black": (1, 0, 0, 0, 0, 0, 0)}}
# Constructors are called with the stub's defaults (and REQUIRED_ARGUMENTS); SearchReport has its own test.
BUILT_FROM_DEFAULTS = sorted(name for name, scope in CLASSES.items()
                             if _all_defaults(scope) or name in REQUIRED_ARGUMENTS)


def test_every_stub_constructor_is_checked():
    with_init = {name for name, scope in CLASSES.items() if scope.init is not None}
    assert with_init == {*BUILT_FROM_DEFAULTS, "SearchReport"}


@pytest.mark.parametrize("class_name", BUILT_FROM_DEFAULTS)
def test_constructors_accept_the_stub_defaults_by_name(class_name):
    init = CLASSES[class_name].init
    names = [name for name, _ in _stub_parameters(init)[1:]]
    defaulted = names[len(names) - len(init.args.defaults):]
    kwargs = {name: ast.literal_eval(value) for name, value in zip(defaulted, init.args.defaults)}
    kwargs.update(REQUIRED_ARGUMENTS.get(class_name, {}))
    assert sorted(kwargs) == sorted(names), "a constructor parameter without a value to call it with"
    getattr(_core, class_name)(**kwargs)


def test_search_report_takes_its_attributes_by_name():
    # The stub's constructor parameters are the report's attributes, in order, and round-trip.
    params = [name for name, _ in _stub_parameters(CLASSES["SearchReport"].init)[1:]]
    properties = [node.name for node in MODULE.classes["SearchReport"].body
                  if isinstance(node, ast.FunctionDef) and _is_property(node)]
    assert params == properties
    values = dict(bestmove="h2e2", ponder="h9g7", score=-29990, depth=7, seldepth=12, multipv=2,
                  nodes=12345, time_ms=67, nps=184253, hashfull=3, pv=("h2e2", "h9g7"), tbhits=5)
    report = _core.SearchReport(**values)
    assert {name: getattr(report, name) for name in params} == values
    with pytest.raises(AttributeError):
        report.score = 0


def test_the_search_returns_and_reports_the_stub_type():
    infos = []
    found = _core.Searcher(1, 1).search(Position().kernel_board, depth=2, multipv=2, on_info=infos.append)
    assert isinstance(found, _core.SearchReport) and found.bestmove == found.pv[0]
    assert infos and all(isinstance(info, _core.SearchReport) for info in infos)
    assert [info.multipv for info in infos] == [1, 2, 1, 2]
