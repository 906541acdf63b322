"""no_grad, enable_grad, set_grad_enabled, is_grad_enabled, detach and numpy(), against PyTorch."""

import threading

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

# Every test runs on each device: on_device makes the factories create tensors there.
pytestmark = pytest.mark.usefixtures("on_device")

LIBS = pytest.mark.parametrize("lib", [minigrad, torch], ids=["minigrad", "torch"])


def plain(value):
    if isinstance(value, minigrad.Tensor | torch.Tensor):
        if isinstance(value, minigrad.Tensor):  # stays on the device the test runs on
            assert value.device == minigrad.get_default_device(), value.device
        return (str(value.dtype), value.detach().cpu().numpy().tolist(), value.requires_grad, value.is_leaf)
    if isinstance(value, tuple | list):
        return type(value)(plain(v) for v in value)
    return value


def same(fn):
    ours, theirs = plain(fn(minigrad)), plain(fn(torch))
    assert ours == theirs
    return ours


@pytest.fixture(autouse=True)
def _grad_mode_is_restored():
    yield
    assert minigrad.is_grad_enabled() and torch.is_grad_enabled()


def test_grad_enabled_by_default():
    assert same(lambda lib: lib.is_grad_enabled()) is True


def test_no_grad_results_are_leaves_without_grad_fn():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.no_grad():
            y = x * 2
            z = (x.exp() + y).sum()
            inside = lib.is_grad_enabled()
        return y, z, y.grad_fn, z.grad_fn, inside, (x * 2).requires_grad

    result = same(run)
    assert result[2] is None and result[4] is False and result[5] is True


def test_no_grad_result_cannot_backward():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.no_grad():
            y = (x * 2).sum()
        y.backward()

    errors = []
    for lib in (minigrad, torch):
        with pytest.raises(RuntimeError, match="does not require grad") as info:
            run(lib)
        errors.append(info)
    assert len(errors) == 2


def test_no_grad_as_decorator_with_and_without_parentheses():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)

        @lib.no_grad()
        def with_parens(t):
            return lib.is_grad_enabled(), t * 2

        @lib.no_grad
        def without_parens(t):
            return lib.is_grad_enabled(), t * 2

        return with_parens(x), without_parens(x), with_parens.__name__, without_parens.__name__

    result = same(run)
    assert result[0][0] is False and result[1][0] is False
    assert result[2:] == ("with_parens", "without_parens")


@pytest.mark.parametrize("parens", [True, False])
def test_enable_grad_inside_no_grad(parens):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        deco = lib.enable_grad() if parens else lib.enable_grad

        @deco
        def compute():
            return lib.is_grad_enabled(), x * 2

        with lib.no_grad():
            decorated = compute()
            with lib.enable_grad():
                y = x * 3
        return decorated, y, type(y.grad_fn).__name__

    result = same(run)
    assert result[0][0] is True and result[2] == "MulBackward0"


def test_set_grad_enabled_as_function_context_and_decorator():
    def run(lib):
        x = lib.tensor([1.0], requires_grad=True)
        lib.set_grad_enabled(False)
        off = lib.is_grad_enabled()
        y = x * 2
        lib.set_grad_enabled(True)
        with lib.set_grad_enabled(False):
            ctx = lib.is_grad_enabled()

        @lib.set_grad_enabled(False)
        def decorated():
            return lib.is_grad_enabled()

        after_definition = lib.is_grad_enabled()
        return off, y.requires_grad, ctx, decorated(), after_definition, lib.is_grad_enabled()

    assert same(run) == (False, False, False, False, True, True)


def test_nesting_restores_each_level():
    def run(lib):
        seen = []
        with lib.set_grad_enabled(False):
            seen.append(lib.is_grad_enabled())
            with lib.set_grad_enabled(True):
                seen.append(lib.is_grad_enabled())
                with lib.no_grad():
                    seen.append(lib.is_grad_enabled())
                    with lib.enable_grad():
                        seen.append(lib.is_grad_enabled())
                    seen.append(lib.is_grad_enabled())
                seen.append(lib.is_grad_enabled())
            seen.append(lib.is_grad_enabled())
        seen.append(lib.is_grad_enabled())
        return seen

    assert same(run) == [False, True, False, True, False, True, False, True]


@LIBS
@pytest.mark.parametrize("kind", ["no_grad", "set_grad_enabled", "decorator"])
def test_mode_restored_when_body_raises(lib, kind):
    class BoomError(Exception):
        pass

    def body():
        raise BoomError

    with pytest.raises(BoomError):
        if kind == "no_grad":
            with lib.no_grad():
                body()
        elif kind == "set_grad_enabled":
            with lib.set_grad_enabled(False):
                body()
        else:
            lib.no_grad()(body)()
    assert lib.is_grad_enabled()
    with lib.no_grad():
        with pytest.raises(BoomError):
            with lib.enable_grad():
                body()
        assert not lib.is_grad_enabled()


def test_decorated_recursive_function():
    def run(lib):
        @lib.no_grad()
        def depth(n):
            return lib.is_grad_enabled() if n == 0 else depth(n - 1)

        return depth(5), lib.is_grad_enabled()

    assert same(run) == (False, True)


def test_decorated_generator_runs_each_step_in_the_mode():
    def run(lib):
        @lib.no_grad()
        def steps():
            received = yield lib.is_grad_enabled()
            yield (received, lib.is_grad_enabled())
            return "done"

        gen = steps()
        first = next(gen)
        outside = lib.is_grad_enabled()
        second = gen.send("hello")
        try:
            next(gen)
            result = None
        except StopIteration as stop:
            result = stop.value

        @lib.enable_grad()
        def enabled():
            yield lib.is_grad_enabled()

        with lib.no_grad():
            inner = list(enabled())
        return first, outside, second, result, inner

    assert same(run) == (False, True, ("hello", False), "done", [True])


def test_decorated_generator_close_and_throw():
    def run(lib):
        log = []

        @lib.no_grad()
        def steps():
            try:
                yield 1
                yield 2
            except ValueError:
                log.append(("caught", lib.is_grad_enabled()))
                yield 3
            finally:
                log.append(("finally", lib.is_grad_enabled()))

        gen = steps()
        next(gen)
        thrown = gen.throw(ValueError)
        gen.close()
        return thrown, log, lib.is_grad_enabled()

    assert same(run) == (3, [("caught", False), ("finally", False)], True)


def test_decorated_method():
    def run(lib):
        class Model:
            @lib.no_grad()
            def predict(self, t):
                return t * 2

        return Model().predict(lib.tensor([1.0], requires_grad=True))

    same(run)


@LIBS
def test_grad_mode_is_per_thread(lib):
    seen = []
    with lib.no_grad():
        thread = threading.Thread(target=lambda: seen.append(lib.is_grad_enabled()))
        thread.start()
        thread.join()
    assert seen == [True]


# --------------------------------------------------------------------------- detach and numpy()


def test_detach_is_leaf_without_grad_sharing_storage():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        d = y.detach()
        d[0] = 100.0
        return d, y, d.grad_fn, d.requires_grad

    result = same(run)
    assert result[1][1] == [100.0, 4.0]


def test_detach_stops_gradient():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        loss = (x * x.detach()).sum()
        loss.backward()
        return x.grad

    assert same(run)[1] == [1.0, 2.0]


@pytest.mark.parametrize("device", ["cpu"])  # numpy() shares CPU memory (GPU: see test_devices.py)
def test_numpy_on_tensor_requiring_grad_raises_and_suggests_detach():
    for lib in (minigrad, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        for t in (x, x * 2):
            with pytest.raises(RuntimeError, match=r"Can't call numpy\(\) on Tensor that requires grad") as info:
                t.numpy()
            assert "detach()" in str(info.value)
        array = x.detach().numpy()
        array[0] = 7.0  # shares memory
        assert x.tolist() == [7.0, 2.0]


@pytest.mark.parametrize("device", ["cpu"])  # from_numpy makes CPU tensors on every default device
def test_numpy_and_from_numpy_share_memory():
    def run(lib):
        array = np.array([1.0, 2.0], dtype=np.float32)
        t = lib.from_numpy(array)
        array[1] = 5.0
        t.numpy()[0] = 9.0
        return t, array.tolist()

    same(run)
