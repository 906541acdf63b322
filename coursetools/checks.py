"""Check helpers for the course notebooks' visible and hidden tests.

Every test cell starts with::

    from coursetools.checks import *
    guard()

and then states what it expects with :func:`check`, :func:`check_close`, :func:`check_equal` and
:func:`check_raises` (and :func:`is_number` for an answer's form). Each helper raises ``AssertionError`` with a message the student can act on.

:func:`guard` makes faked answers earn nothing: it fails when the code of ``minigrad`` or of these
helpers was changed in the running kernel (monkeypatched methods, replaced functions, edited code
objects or defaults, swapped modules, replaced builtins). It compares everything reachable from
the loaded ``minigrad.*`` and ``coursetools.*`` modules (and the few library modules they compute
with, such as NumPy) against a fingerprint taken from a fresh Python process that imports the
same modules from disk.

The values a student's code returns are converted to plain Python data with the helpers'
own (verified) code before comparing, so an object that pretends to be equal to everything gets
no points either.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import math
import os
import re
import subprocess
import sys
import types
from collections.abc import Callable

__all__ = ["check", "check_close", "check_equal", "check_raises", "guard", "is_number"]

_PACKAGES = ("minigrad", "coursetools")

# Library modules whose functions minigrad and the helpers compute with: replacing one of their
# functions (say ``numpy.matmul``) could fake a result just as well as patching minigrad itself.
_LIBRARIES = ("numpy", "numpy.linalg", "cupy", "math", "cmath", "operator", "functools", "itertools", "re")
# Builtins the helpers and test cells rely on; each must still be the interpreter's own.
_BUILTINS = (
    "abs", "all", "any", "bool", "callable", "dict", "enumerate", "float", "getattr", "hasattr", "id",
    "int", "isinstance", "issubclass", "iter", "len", "list", "map", "max", "min", "next", "object",
    "print", "range", "repr", "round", "setattr", "sorted", "str", "sum", "super", "tuple", "type",
    "vars", "zip", "BaseException", "Exception", "AssertionError", "TypeError", "ValueError",
    "RuntimeError", "IndexError", "KeyError", "NotImplementedError", "KeyboardInterrupt",
)  # fmt: skip
_SIMPLE = (type(None), bool, int, float, complex, str, bytes)
_ROUTINES = (
    types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.MethodWrapperType,
    types.WrapperDescriptorType, types.MethodDescriptorType, types.ClassMethodDescriptorType,
    staticmethod, classmethod, property,
)  # fmt: skip
_UNCHANGED_DUNDERS = ("__getattr__", "__dir__")  # the only module dunders worth comparing
_CLASS_SKIP = ("__dict__", "__weakref__", "__doc__", "__module__", "__annotations__", "__firstlineno__")


# ---------------------------------------------------------------------------------------------
# The checks


def check(condition: bool, message: str) -> None:
    """Raise ``AssertionError(message)`` unless ``condition`` is ``True``.

    ``condition`` must be a real ``bool`` (``x is None``, ``a == 3`` on plain numbers, ...):
    compare tensors with :func:`check_close` instead, whose result cannot be faked.
    """
    if type(condition) is not bool:
        raise TypeError(
            f"check() needs True or False, got {type(condition).__name__}; compare tensors with check_close"
        )
    if not condition:
        raise AssertionError(message)


def check_equal(actual, expected, message: str) -> None:
    """Raise ``AssertionError`` unless ``actual`` equals ``expected`` as plain Python data.

    Both sides are converted first (tensors to nested lists, tuples and lists compared alike,
    ``torch.Size`` to a tuple), so an object with a forged ``__eq__`` is not believed.
    """
    got, want = _plain(actual, message), _plain(expected, "expected value")
    if not _same(got, want):
        raise AssertionError(f"{message}\n  expected: {_show(want)}\n  got:      {_show(got)}")


def check_close(actual, expected, message: str, atol: float = 1e-6, rtol: float = 1e-5) -> None:
    """Raise ``AssertionError`` unless ``actual`` and ``expected`` have the same shape and values.

    Accepts minigrad tensors, numbers and (nested) lists or tuples of numbers on either side.
    Values match when ``|actual - expected| <= atol + rtol * |expected|`` (NaN matches NaN).
    """
    if actual is None:
        raise AssertionError(f"{message}\n  expected: {_show(_plain(expected, 'expected value'))}\n  got:      None")
    got, want = _plain(actual, message), _plain(expected, "expected value")
    got_shape, want_shape = _shape(got), _shape(want)
    if got_shape is None:
        raise AssertionError(f"{message}\n  got a ragged or non-numeric value: {_show(got)}")
    if got_shape != want_shape:
        raise AssertionError(
            f"{message}\n  expected shape {want_shape}, got shape {got_shape}\n"
            f"  expected: {_show(want)}\n  got:      {_show(got)}"
        )
    for a, e in zip(_flat(got), _flat(want)):
        if not _close(a, e, atol, rtol):
            raise AssertionError(f"{message}\n  expected: {_show(want)}\n  got:      {_show(got)}")


def check_raises(
    exc_type: type[BaseException], fn: Callable[[], object], message: str, match: str | None = None
) -> None:
    """Call ``fn()`` and raise ``AssertionError`` unless it raises ``exc_type``.

    With ``match``, the exception's message must also contain a match of that regular expression.
    Returns ``None`` (a value left as a test cell's result would be read by nbgrader as a score).
    """
    try:
        fn()
    except exc_type as error:
        text = str(error)
        if match is not None and re.search(match, text) is None:
            raise AssertionError(f"{message}\n  the {type(error).__name__} says: {text!r}") from None
        return None
    except Exception as error:
        raise AssertionError(
            f"{message}\n  expected {exc_type.__name__}, got {type(error).__name__}: {error}"
        ) from None
    raise AssertionError(f"{message}\n  expected {exc_type.__name__}, but nothing was raised")


# ---------------------------------------------------------------------------------------------
# Plain-data conversion (never calls methods of the value's own class)


def _plain(value, what: str):
    kind = type(value)
    if kind in _SIMPLE:
        return value
    if kind in (list, tuple):
        return [_plain(v, what) for v in value]
    tensor = _tensor_class()
    if tensor is not None and isinstance(value, tensor):
        return tensor.tolist(value)  # the class's own tolist: a subclass cannot override it here
    size = _size_class()
    if size is not None and kind is size:
        return [int(v) for v in tuple.__iter__(value)]
    if kind.__module__ == "numpy" and kind.__name__ in _NUMPY_TYPES:
        return value.tolist()
    if kind.__module__.split(".")[0] == "torch":
        # PyTorch itself, imported by the student, replaced the notebook's `import minigrad as torch`.
        raise AssertionError(
            f"{what}: got a PyTorch {kind.__name__}, not a minigrad tensor. In this course `torch` is "
            "minigrad (`import minigrad as torch`); an `import torch` in your notebook replaced it: "
            "remove it, then restart the kernel and run all cells"
        )
    raise AssertionError(f"{what}: expected a tensor, a number or a list, got {kind.__name__}")


_NUMPY_NUMBERS = frozenset(("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8"))
_NUMPY_TYPES = _NUMPY_NUMBERS | {"ndarray", "bool", "bool_"}


def is_number(value) -> bool:
    """True for a number as the checks read one: an int, a float or a NumPy number such as
    ``np.float32(1.5)`` (so an answer computed with NumPy counts); not a bool, a tensor or a list.

    >>> is_number(1.5), is_number(True), is_number([1.5])
    (True, False, False)
    """
    kind = type(value)
    return kind in (int, float) or (kind.__module__ == "numpy" and kind.__name__ in _NUMPY_NUMBERS)


def _tensor_class():
    module = sys.modules.get("minigrad.tensor")
    return None if module is None else module.__dict__.get("Tensor")


def _size_class():
    module = sys.modules.get("minigrad")
    return None if module is None else module.__dict__.get("Size")


def _shape(value):
    """The nested-list shape of ``value``, or ``None`` when it is ragged or not numeric."""
    if type(value) is not list:
        return () if type(value) in (bool, int, float, complex) else None
    inner = [_shape(v) for v in value]
    if any(s is None for s in inner) or any(s != inner[0] for s in inner[1:]):
        return None
    return (len(value),) + (inner[0] if inner else ())


def _flat(value):
    if type(value) is list:
        for v in value:
            yield from _flat(v)
    else:
        yield value


def _close(a, e, atol: float, rtol: float) -> bool:
    a, e = complex(a), complex(e)
    if math.isnan(a.real) or math.isnan(a.imag) or math.isnan(e.real) or math.isnan(e.imag):
        return (math.isnan(a.real) or math.isnan(a.imag)) and (math.isnan(e.real) or math.isnan(e.imag))
    if a == e:  # equal infinities included
        return True
    return abs(a - e) <= atol + rtol * abs(e)


def _same(a, b) -> bool:
    if type(a) is list and type(b) is list:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if type(a) is list or type(b) is list:
        return False
    if type(a) in (bool, int, float, complex) and type(b) in (bool, int, float, complex):
        return a == b
    return type(a) is type(b) and a == b


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 300 else text[:300] + " ..."


# ---------------------------------------------------------------------------------------------
# guard()

# Fingerprints of a fresh import, per set of modules, with the stamps of the files they were read from.
_fresh: dict[tuple, tuple[dict[str, list[int]], dict[str, str]]] = {}
_code_keys: dict[int, tuple[types.CodeType, str]] = {}


def guard() -> None:
    """Fail when ``minigrad`` or the test helpers were modified in this kernel.

    Raises ``AssertionError`` naming what changed, so the test (and its points) fail: a
    submission that patches ``Tensor.__eq__``, replaces ``minigrad.autograd.grad`` or silences
    :func:`check` earns nothing for the tests that would have caught it. Otherwise it switches
    grad mode back on (and says so) if an answer left it off, so every test starts recording.
    """
    problems = _helper_problems(sys._getframe(1).f_globals) + _builtin_problems()
    if not problems:  # the comparison below needs the real builtins
        problems = _compare_modules()
    if problems:
        shown = "; ".join(problems[:3]) + (f"; and {len(problems) - 3} more" if len(problems) > 3 else "")
        raise AssertionError(
            f"minigrad or the test helpers were modified in this notebook ({shown}). "
            "Restart the kernel, remove the patching code, and run all cells again."
        )
    _record_again()


def _record_again() -> None:
    """Switch grad mode back on, as a fresh kernel has it, so that an answer that left it off
    (``torch.set_grad_enabled(False)`` called as a plain function, and never undone) costs the
    points of its own tests only, not those of every test after it."""
    torch = sys.modules.get("minigrad")
    if torch is not None and not torch.is_grad_enabled():
        torch.set_grad_enabled(True)
        print("Note: grad mode was off (torch.set_grad_enabled(False) never switched back); the test switched it on.")


def _compare_modules() -> list[str]:
    modules, libraries = _loaded()
    key = (modules, libraries)
    if key not in _fresh or _fresh[key][0] != stamps(modules):  # none yet, or the files changed since
        _fresh[key] = (stamps(modules), _fresh_fingerprint(modules, libraries))
    return _compare(_fresh[key][1], fingerprint(modules, libraries))


def _helper_problems(caller_globals: dict) -> list[str]:
    """The helpers a test cell just imported must be this module's own, loaded from disk."""
    problems = []
    if sys.modules.get(__name__) is not _THIS_MODULE:
        problems.append(f"sys.modules[{__name__!r}] was replaced")
    for name in __all__:
        if name in caller_globals and caller_globals[name] is not _ORIGINALS[name]:
            problems.append(f"{name} was replaced")
    return problems


def _builtin_problems() -> list[str]:
    # Uses no builtin it is checking: ``type`` comes from a literal, which no patch can reach.
    real_type = ().__class__.__class__
    problems = []
    for name in _BUILTINS:
        value = builtins.__dict__.get(name)
        if real_type(value) is real_type:
            real = value.__name__ == name and value.__module__ == "builtins" and not value.__flags__ & (1 << 9)
        else:
            real = real_type(value) is types.BuiltinFunctionType and value.__name__ == name
            real = real and value.__self__ is builtins
        if not real:
            problems.append(f"builtins.{name} was replaced")
    return problems


def _loaded() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The modules to compare: all of minigrad and the test helpers (imported now if need be)."""
    import importlib
    import pkgutil

    # Importing the same set every time makes the fingerprint the same in every kernel, so the
    # grader can compute it once for a whole batch (see seed()).
    packages = [importlib.import_module(name) for name in _PACKAGES]
    while packages:
        package = packages.pop()
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            if info.name.endswith("__main__") or not _is_runtime(info.name):
                continue
            module = sys.modules.get(info.name) or importlib.import_module(info.name)
            if info.ispkg:
                packages.append(module)
    modules = tuple(
        sorted(name for name in list(sys.modules) if name.split(".")[0] in _PACKAGES and not name.endswith("__main__"))
    )
    libraries = tuple(name for name in _LIBRARIES if name in sys.modules)
    return modules, libraries


def _is_runtime(name: str) -> bool:
    """Modules a notebook uses: all of minigrad, and the check helpers (``coursetools.*checks``).

    The instructor's tools in coursetools (nbgrader preprocessors, builders) are not imported
    by guard(); they are compared too if a notebook imported them.
    """
    return name.startswith("minigrad") or name.rsplit(".", 1)[-1].endswith("checks")


def reference() -> str:
    """The fingerprint of this process's modules (as a fresh kernel loads them), as JSON.

    The autograder computes it once, in a fresh process, and hands it to each kernel with
    :func:`seed`, which saves every kernel the fresh import that :func:`guard` needs otherwise.
    """
    modules, libraries = _loaded()
    found = fingerprint(modules, libraries)
    return json.dumps({"modules": modules, "libraries": libraries, "stamps": stamps(modules), "fingerprint": found})


def seed(text: str) -> None:
    """Accept a :func:`reference` made by a fresh process (used by the autograder).

    It is used only while the modules' files keep the modification times and sizes it records.
    """
    data = json.loads(text)
    _fresh[(tuple(data["modules"]), tuple(data["libraries"]))] = (data["stamps"], data["fingerprint"])


def stamps(modules) -> dict[str, list[int]]:
    """``{file: [modification time in ns, size]}`` of the modules' source files."""
    out = {}
    for name in modules:
        file = getattr(sys.modules.get(name), "__file__", None)
        if type(file) is str:
            try:
                info = os.stat(file)
            except OSError:
                continue
            out[file] = [info.st_mtime_ns, info.st_size]
    return out


def _fresh_fingerprint(modules: tuple[str, ...], libraries: tuple[str, ...]) -> dict[str, str]:
    """The fingerprint of the same modules imported from disk by a new Python process."""
    request = json.dumps({"path": [p for p in sys.path if p], "modules": modules, "libraries": libraries})
    script = (
        "import json, sys\n"
        "request = json.loads(sys.stdin.read())\n"
        "sys.path[:] = request['path']\n"
        "import importlib\n"
        "for name in request['modules'] + request['libraries']:\n"
        "    importlib.import_module(name)\n"
        "from coursetools.checks import fingerprint\n"
        "print(json.dumps(fingerprint(tuple(request['modules']), tuple(request['libraries']))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=request,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    )
    if done.returncode != 0:
        raise AssertionError(f"guard() could not import the course modules afresh:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def _compare(fresh: dict[str, str], now: dict[str, str]) -> list[str]:
    problems = []
    for path, want in fresh.items():
        got = now.get(path)
        if got is None:
            if "[" not in path:
                problems.append(f"{_dotted(path)} was deleted")
        elif got != want:
            problems.append(f"{_dotted(path)} was replaced")
    for path in now:
        # Library modules and containers may gain entries legitimately (lazy imports, caches).
        if path not in fresh and "[" not in path and path.split(":")[0].split(".")[0] in _PACKAGES:
            problems.append(f"{_dotted(path)} was added")
    return problems


def _dotted(path: str) -> str:
    module, _, rest = path.partition(":")
    return f"{module}.{rest}" if rest else module


def fingerprint(modules: tuple[str, ...], libraries: tuple[str, ...]) -> dict[str, str]:
    """Describe every function, class and constant reachable from ``modules`` (and ``libraries``).

    Returns ``{path: description}`` where a description names what a value is (its module,
    qualified name and a digest of its code, defaults and closures), not where it lives in
    memory, so two processes that loaded the same files give the same fingerprint.
    """
    walker = _Walker()
    for name in modules:
        walker.module(sys.modules[name])
    for name in libraries:
        walker.library(sys.modules[name])
    return walker.found


class _Walker:
    def __init__(self):
        self.found: dict[str, str] = {}
        self.seen: set[int] = set()

    def module(self, module) -> None:
        name = module.__name__ if type(module.__dict__.get("__name__")) is str else "?"
        path = name + ":"
        self.found[path] = f"module {type(module).__qualname__} {module.__dict__.get('__file__')}"
        mutable = _mutable_globals(module)
        for attr, value in sorted(module.__dict__.items()):
            if attr.startswith("__") and attr.endswith("__") and attr not in _UNCHANGED_DUNDERS:
                continue
            if attr in mutable:
                self.found[path + attr] = "mutable"
                continue
            self.value(path + attr, value, deep=True)

    def library(self, module) -> None:
        path = module.__name__ + ":"
        for attr, value in sorted(module.__dict__.items()):
            if attr.startswith("__") and attr.endswith("__"):
                continue
            if callable(value):
                self.found[path + attr] = self.describe(value)

    def value(self, path: str, value, deep: bool) -> None:
        """Record ``value`` at ``path`` and walk into what it contains."""
        if type(value) in _SIMPLE:
            if deep and path.rsplit(":", 1)[-1].split(".")[-1].startswith("_"):
                # Private module data such as a loop variable left behind, whose final value
                # may follow string hashing: compared by type only.
                self.found[path] = f"data {type(value).__name__}"
            elif deep:  # data inside containers and instances is state, and may change
                text = repr(value)
                self.found[path] = text if len(text) < 120 else "sha1 " + hashlib.sha1(text.encode()).hexdigest()
            return
        if isinstance(value, type):
            self.found[path] = self.describe(value)
            if _owned(value) and id(value) not in self.seen:
                self.seen.add(id(value))
                self.cls(path, value)
            return
        if type(value) in (list, tuple, dict, set, frozenset, types.MappingProxyType):
            if id(value) in self.seen:
                return
            self.seen.add(id(value))
            if type(value) in (dict, types.MappingProxyType):
                items = list(value.items())
                items = [(_key(k, i), v) for i, (k, v) in enumerate(items)]
            elif type(value) in (set, frozenset):
                return  # unordered: compared through its callables would need a stable order
            else:
                items = [(str(i), v) for i, v in enumerate(value)]
            for k, v in items:
                self.value(f"{path}[{k}]", v, deep=False)
            return
        if isinstance(value, types.ModuleType):
            self.found[path] = f"module {value.__name__}"
            return
        if type(value) in _ROUTINES:
            self.found[path] = self.describe(value)
            return
        owned = _owned(type(value))
        if deep or owned:
            self.found[path] = self.describe(value)
        if owned and id(value) not in self.seen and hasattr(value, "__dict__"):
            self.seen.add(id(value))
            for attr, item in sorted(vars(value).items()):
                self.value(f"{path}.{attr}", item, deep=False)

    def cls(self, path: str, cls: type) -> None:
        self.found[path + ".__bases__"] = ",".join(_name(b) for b in cls.__bases__)
        self.found[path + ".__class__"] = _name(type(cls))
        for attr, value in sorted(cls.__dict__.items()):
            if attr in _CLASS_SKIP:
                continue
            self.value(f"{path}.{attr}", value, deep=True)

    def describe(self, value) -> str:
        kind = type(value)
        if kind is types.FunctionType:
            parts = [f"function {value.__module__}.{value.__qualname__}", _code_key(value.__code__)]
            parts.append(repr([_brief(d) for d in value.__defaults__ or ()]))
            parts.append(repr(sorted((k, _brief(v)) for k, v in (value.__kwdefaults__ or {}).items())))
            for cell in value.__closure__ or ():
                try:
                    inner = cell.cell_contents
                except ValueError:  # an empty cell
                    continue
                if kind is type(inner) or isinstance(inner, (staticmethod, classmethod, property)):
                    parts.append(self.describe(inner))
            wrapped = value.__dict__.get("__wrapped__")
            if wrapped is not None:
                parts.append("wraps " + self.describe(wrapped))
            return " ".join(parts)
        if kind in (staticmethod, classmethod):
            return f"{kind.__name__}({self.describe(value.__func__)})"
        if kind is property:
            return (
                "property("
                + ",".join(self.describe(f) if f else "-" for f in (value.fget, value.fset, value.fdel))
                + ")"
            )
        if kind is types.MethodType:
            return f"method({self.describe(value.__func__)} of {_brief(value.__self__)})"
        if isinstance(value, type):
            return f"class {_name(value)}"
        name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
        module = getattr(value, "__module__", None)
        if kind.__name__ == "partial" and hasattr(value, "func"):
            return f"partial({self.describe(value.func)})"
        return f"{_name(kind)} {module}.{name}" if type(name) is str else f"object {_name(kind)}"


def _owned(cls: type) -> bool:
    module = cls.__dict__.get("__module__")
    return type(module) is str and module.split(".")[0] in _PACKAGES


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _brief(value) -> str:
    if type(value) in _SIMPLE:
        return repr(value)
    if type(value) is types.FunctionType:
        return f"function {value.__module__}.{value.__qualname__} {_code_key(value.__code__)}"
    if isinstance(value, type):
        return f"class {_name(value)}"
    return f"object {_name(type(value))}"


def _key(key, index: int) -> str:
    if type(key) in _SIMPLE:
        return repr(key)
    if isinstance(key, type):
        return _name(key)
    return f"#{index}"


def _code_key(code: types.CodeType) -> str:
    known = _code_keys.get(id(code))
    if known is not None and known[0] is code:
        return known[1]
    digest = hashlib.sha1(repr(_code_parts(code)).encode()).hexdigest()[:16]
    _code_keys[id(code)] = (code, digest)
    return digest


def _code_parts(code: types.CodeType) -> tuple:
    return (
        code.co_name,
        code.co_code,
        code.co_names,
        code.co_varnames,
        code.co_freevars,
        code.co_cellvars,
        code.co_argcount,
        code.co_posonlyargcount,
        code.co_kwonlyargcount,
        code.co_flags,
        tuple(_const(c) for c in code.co_consts),
    )


def _const(value):
    if type(value) is types.CodeType:
        return _code_parts(value)
    if type(value) is tuple:
        return tuple(_const(v) for v in value)
    if type(value) is frozenset:  # its order follows string hashing, which differs per process
        return ("frozenset", tuple(sorted(repr(_const(v)) for v in value)))
    return repr(value)


_mutable_cache: dict[str, frozenset[str]] = {}


def _mutable_globals(module) -> frozenset[str]:
    """Names the module's own functions rebind with ``global`` (state, such as a seed)."""
    file = module.__dict__.get("__file__")
    if type(file) is not str or not file.endswith(".py"):
        return frozenset()
    if file not in _mutable_cache:
        import ast

        try:
            with open(file, encoding="utf-8") as source:
                tree = ast.parse(source.read())
        except (OSError, SyntaxError):
            tree = ast.Module(body=[], type_ignores=[])
        _mutable_cache[file] = frozenset(
            n for node in ast.walk(tree) if isinstance(node, ast.Global) for n in node.names
        )
    return _mutable_cache[file]


class _ReadOnlyModule(types.ModuleType):
    """This module's class: assigning to or deleting its names fails where the patch is written."""

    def __setattr__(self, name: str, value) -> None:
        if not (name.startswith("__") and name.endswith("__")):
            raise AttributeError(f"{self.__name__} is read-only: the test helpers cannot be changed")
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{self.__name__} is read-only: the test helpers cannot be changed")


_THIS_MODULE = sys.modules[__name__]
_ORIGINALS = {name: globals()[name] for name in __all__}
_THIS_MODULE.__class__ = _ReadOnlyModule
