"""The check helpers used by the notebooks' tests, and guard() against monkeypatching."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import minigrad
from coursetools.checks import check, check_close, check_equal, check_raises, guard


def test_check_passes_and_fails_with_the_message():
    check(True, "never shown")
    with pytest.raises(AssertionError, match="^the gradient is missing$"):
        check(False, "the gradient is missing")


def test_check_refuses_non_bool_conditions():
    # A truthy object (or a tensor) is not an answer: a forged __eq__ could return one.
    with pytest.raises(TypeError, match="check_close"):
        check(minigrad.tensor([1.0]), "x")
    with pytest.raises(TypeError):
        check(1, "x")


def test_check_close_accepts_tensors_numbers_and_lists():
    x = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    check_close(x, [[1, 2], [3, 4]], "same")
    check_close(x * 2, minigrad.tensor([[2.0, 4.0], [6.0, 8.0]]), "tensor vs tensor")
    check_close(3.0000001, 3, "number")
    check_close((1.0, 2.0), [1.0, 2.0 + 1e-7], "tuple vs list")
    check_close(minigrad.tensor(float("nan")), float("nan"), "nan matches nan")
    check_close(minigrad.tensor([float("inf")]), [float("inf")], "equal infinities")


def test_check_close_reports_values_and_shapes():
    with pytest.raises(AssertionError) as info:
        check_close(minigrad.tensor([1.0, 2.5]), [1.0, 2.0], "x.grad is wrong")
    text = str(info.value)
    assert text.startswith("x.grad is wrong") and "expected: [1.0, 2.0]" in text and "got:      [1.0, 2.5]" in text
    with pytest.raises(AssertionError, match=r"expected shape \(2,\), got shape \(1, 2\)"):
        check_close([[1.0, 2.0]], [1.0, 2.0], "shape")
    with pytest.raises(AssertionError, match="got:      None"):
        check_close(None, [1.0], "x.grad was never set")
    with pytest.raises(AssertionError):
        check_close(float("nan"), 1.0, "nan is not close to a number")
    with pytest.raises(AssertionError):
        check_close(1.0 + 2e-5, 1.0, "outside rtol", rtol=1e-5, atol=0.0)
    check_close(1.0 + 2e-5, 1.0, "inside a looser rtol", rtol=1e-4, atol=0.0)


def test_check_close_does_not_believe_forged_objects():
    class AlwaysEqual:
        def __eq__(self, other):
            return True

        def tolist(self):
            return [1.0, 2.0]

    with pytest.raises(AssertionError, match="expected a tensor, a number or a list, got AlwaysEqual"):
        check_close(AlwaysEqual(), [1.0, 2.0], "forged")
    with pytest.raises(AssertionError):
        check_equal(AlwaysEqual(), 3, "forged")

    class Lying(minigrad.Tensor):
        def tolist(self):  # a subclass cannot change what the helpers read
            return [1.0, 2.0]

    liar = minigrad.tensor([5.0, 5.0]).as_subclass(Lying) if hasattr(minigrad.Tensor, "as_subclass") else None
    if liar is None:
        liar = minigrad.tensor([5.0, 5.0])
        liar.__class__ = Lying
    with pytest.raises(AssertionError, match=r"got:      \[5.0, 5.0\]"):
        check_close(liar, [1.0, 2.0], "lying subclass")


def test_check_equal_compares_plain_data():
    check_equal(minigrad.ones(2, 3).shape, (2, 3), "shape")
    check_equal(minigrad.tensor([True, False]), [True, False], "bools")
    check_equal("MulBackward0", "MulBackward0", "names")
    with pytest.raises(AssertionError, match="expected: 'AddBackward0'"):
        check_equal("MulBackward0", "AddBackward0", "grad_fn name")
    with pytest.raises(AssertionError):
        check_equal([1, 2], [1, 2, 3], "length")
    with pytest.raises(AssertionError):
        check_equal("1", 1, "a string is not a number")


def test_check_raises():
    def bad():
        raise RuntimeError("element 0 of tensors does not require grad")

    assert check_raises(RuntimeError, bad, "should raise", match="does not require grad") is None
    with pytest.raises(AssertionError, match="nothing was raised"):
        check_raises(RuntimeError, lambda: None, "should raise")
    with pytest.raises(AssertionError, match="expected RuntimeError, got ValueError: nope"):
        check_raises(RuntimeError, lambda: (_ for _ in ()).throw(ValueError("nope")), "wrong type")
    with pytest.raises(AssertionError, match="says: 'element 0"):
        check_raises(RuntimeError, bad, "wrong words", match="leaf Variable")


def test_guard_passes_after_ordinary_use():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: g * 2)
    y = (x * x).sum()
    y.backward()
    with minigrad.no_grad():
        (x + 1).sum()
    minigrad.manual_seed(0)
    minigrad.randn(3)
    guard()


# Each scenario patches something in a fresh interpreter, expects guard() to name it, then
# undoes the patch and expects guard() to pass again (so the guard reacts to the patch itself).
SCENARIOS = {
    "Tensor.__eq__": (
        "old = minigrad.Tensor.__eq__; minigrad.Tensor.__eq__ = lambda *a: True",
        "minigrad.Tensor.__eq__ = old",
    ),
    "check": (
        "old = coursetools.checks.check; vars(coursetools.checks)['check'] = lambda *a, **k: None",
        "vars(coursetools.checks)['check'] = old",
    ),
    "imported name": (
        "old = check_close; check_close = lambda *a, **k: None",
        "check_close = old",
    ),
    "autograd.grad": (
        "old = minigrad.autograd.grad; minigrad.autograd.grad = lambda *a, **k: (minigrad.ones(1),)",
        "minigrad.autograd.grad = old",
    ),
    "code object": (
        "f = minigrad.autograd.engine.run_backward; old = f.__code__; f.__code__ = (lambda *a, **k: None).__code__",
        "f.__code__ = old",
    ),
    "defaults": (
        "old = check_close.__defaults__; check_close.__defaults__ = (1e9, 1e9)",
        "check_close.__defaults__ = old",
    ),
    "builtin": (
        "import builtins; old = builtins.isinstance; builtins.isinstance = lambda *a: True",
        "builtins.isinstance = old",
    ),
    "numpy": (
        "import numpy; old = numpy.matmul; numpy.matmul = lambda *a, **k: 0",
        "numpy.matmul = old",
    ),
    "derivative rule": (
        "rules = minigrad.functions.mul_op.rules; old = dict(rules); rules['self'] = lambda grad, other: grad",
        "rules.update(old)",
    ),
    "added method": (
        "minigrad.Tensor.__ge__, old = (lambda *a: True), minigrad.Tensor.__dict__.get('__ge__')",
        "minigrad.Tensor.__ge__ = old",
    ),
    "swapped module": (
        "import types; old = sys.modules['minigrad.autograd.engine']; "
        "sys.modules['minigrad.autograd.engine'] = types.ModuleType('minigrad.autograd.engine')",
        "sys.modules['minigrad.autograd.engine'] = old",
    ),
    "property": (
        "old = minigrad.Tensor.__dict__['grad']; minigrad.Tensor.grad = property(lambda self: minigrad.ones(2))",
        "minigrad.Tensor.grad = old",
    ),
}


def test_guard_catches_monkeypatching():
    program = textwrap.dedent(
        """
        import json, sys
        import minigrad, minigrad.autograd.engine, minigrad.functions
        import coursetools.checks
        from coursetools.checks import check_close, guard
        guard()
        results = {}
        for name, (patch, undo) in json.loads(sys.argv[1]).items():
            exec(patch, globals())
            try:
                guard()
                results[name] = None
            except AssertionError as error:
                results[name] = str(error)
            exec(undo, globals())
            guard()
        print(json.dumps(results))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", program, json.dumps(SCENARIOS)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.splitlines()[-1])
    missed = [name for name, message in results.items() if message is None]
    assert not missed, f"guard() did not notice: {missed}"
    for message in results.values():
        assert message.startswith("minigrad or the test helpers were modified in this notebook (")
        assert message.endswith("Restart the kernel, remove the patching code, and run all cells again.")
    assert "minigrad.Tensor.__eq__ was replaced" in results["Tensor.__eq__"]
    assert "coursetools.checks.check was replaced" in results["check"]
    assert "builtins.isinstance was replaced" in results["builtin"]
    assert "check_close was replaced" in results["imported name"]
    assert "__ge__ was" in results["added method"]


def test_helpers_module_is_read_only():
    import coursetools.checks as checks

    with pytest.raises(AttributeError, match="read-only"):
        checks.check = lambda *a, **k: None
    with pytest.raises(AttributeError, match="read-only"):
        del checks.guard
    assert checks.check is check


def test_seeded_reference_is_used_only_while_the_files_are_unchanged():
    import json

    import coursetools.checks as checks

    reference = json.loads(checks.reference())
    try:
        # a seeded reference is trusted as is: one that disagrees with the kernel makes guard() fail
        forged = dict(reference, fingerprint=dict(reference["fingerprint"], **{"minigrad:Tensor.__eq__": "forged"}))
        checks.seed(json.dumps(forged))
        with pytest.raises(AssertionError, match="minigrad.Tensor.__eq__ was replaced"):
            guard()
        # ... unless its files changed since it was made: then guard() imports afresh and passes
        some_file = next(iter(forged["stamps"]))
        forged["stamps"][some_file] = [0, 0]
        checks.seed(json.dumps(forged))
        guard()
    finally:
        checks._fresh.clear()


def test_is_number_accepts_numpy_numbers_but_not_bools_tensors_or_lists():
    import numpy as np

    from coursetools.checks import is_number

    assert all(is_number(v) for v in (1, 1.5, np.float32(1.5), np.float64(2.0), np.int64(3)))
    assert not any(is_number(v) for v in (True, np.bool_(True), "1", None, [1.0], minigrad.tensor(1.0), np.ones(1)))
