# ruff: noqa: N999 - the module is named after its notebook, 05_no_grad_inplace
"""Assignment 05: weight updates, grad modes, detach and .data, in-place operations and the
version counter, training by hand and with minigrad.optim.SGD."""

from . import answer, code, how_to_work, md, mistake, question, setup, tests, written

EX1_CODE = """
w = torch.tensor([1.0, 2.0], requires_grad=True)


@torch.no_grad()
def evaluate(t):
    return t * 3


@torch.enable_grad()
def train_part(t):
    return t * 3


a = evaluate(w)
with torch.no_grad():
    b = w * 3
    c = train_part(w)
    with torch.enable_grad():
        d = w * 3
with torch.set_grad_enabled(False):
    e = w * 3
torch.set_grad_enabled(False)
f = w * 3
torch.set_grad_enabled(True)
g = evaluate(w) * w
h = evaluate(w).requires_grad_()
"""

EX1_NAMES = ["a", "b", "c", "d", "e", "f", "g", "h"]

# Case name -> code; each case is run on its own, with torch imported.
EX2_CASES = {
    "p": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
w.mul_(2)
""",
    "q": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    w.mul_(2)
(w * w).sum().backward()
""",
    "r": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
s = w.sigmoid()
s.mul_(2)
s.sum().backward()
""",
    "s": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 2
h += 1
(h * h).sum().backward()
""",
    "t": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 2
loss = (h * h).sum()
h.data.zero_()
loss.backward()
""",
    "u": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 2
loss = (h * h).sum()
h.detach().zero_()
loss.backward()
""",
    "v": """
w = torch.tensor([1.0, 2.0], requires_grad=True)
for step in range(2):
    loss = (w * w).sum()
    loss.backward()
    w = w - 0.1 * w.grad
""",
}

OUTCOMES = ["ok", "leaf", "version", "nonetype"]


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in text.strip("\n").split("\n"))


def _block(text: str) -> str:
    """Code for a markdown block inside an indented template (the first line gets the template's indent)."""
    return _indent(text, "        ").strip()


EX1_RUN = (
    "def _ex1_run():\n" + _indent(EX1_CODE) + "\n    return {" + ", ".join(f'"{n}": {n}' for n in EX1_NAMES) + "}\n"
)
EX2_SHOWN = "\n\n".join(f"# case {name}\n{body.strip()}" for name, body in EX2_CASES.items())
EX2_RUN = "\n\n".join(f"def _ex2_case_{name}():\n{_indent(body)}" for name, body in EX2_CASES.items())

# Data sets for exercise 4: (seed, points, features, noise) -> features ~ N(0, 1), y = x @ w + b + noise.
FIT_DATA = """
def _make_data(seed, n, d, noise, scale=1.0):
    torch.manual_seed(seed)
    w_true = torch.rand(d) * 6 - 3
    b_true = torch.rand(()) * 6 - 3
    x = torch.randn(n, d) * scale
    y = x @ w_true + b_true + noise * torch.randn(n)
    return x, y, w_true, b_true
"""

CELLS = [
    md(
        "intro",
        """
        # Assignment 05 — Updating weights: `no_grad`, `detach` and in-place operations

        Training is a loop: compute a loss, call `backward()`, change the weights a little, start
        again. The last part, *changing the weights*, is where autograd bites: the obvious line of
        code breaks the next pass, and changing a tensor in place can make `backward()` refuse to
        run. This notebook shows what autograd records and what it refuses, and why.

        You will learn to

        - update parameters so that they stay leaves, with `torch.no_grad()`;
        - switch recording off and on with `no_grad`, `enable_grad` and `set_grad_enabled`, as
          `with` blocks and as decorators;
        - tell `detach()` and `.data` apart, and see a `detach()` change what training finds;
        - read the version counter, and recognise both in-place errors;
        - train a neuron and a linear regression by hand, then with `minigrad.optim.SGD`.
        """,
        how_to_work(60),
    ),
    setup(),
    # ------------------------------------------------------------------ the broken update
    md(
        "broken_intro",
        """
        ## 1. The update that breaks the next step

        A tiny problem to train on: find a positive number `w` whose square is 2, by gradient
        descent on `loss = (w * w - 2) ** 2`. The first attempt writes the update the way the
        formula reads, `w = w - lr * w.grad`:
        """,
    ),
    code(
        "broken_demo",
        """
        w = torch.tensor(1.0, requires_grad=True)
        lr = 0.05
        try:
            for step in range(3):
                loss = (w * w - 2) ** 2
                loss.backward()
                print(f"step {step}: w={w.item():.4f}  is_leaf={w.is_leaf}  grad_fn={w.grad_fn}")
                w = w - lr * w.grad
        except TypeError as err:
            print("TypeError:", err)
        """,
    ),
    md(
        "broken_explain",
        """
        The first pass works. But `w - lr * w.grad` is an ordinary operation on a tensor that
        requires grad, so autograd records it: the name `w` now holds a new tensor, made by
        `SubBackward0`, and it is not a leaf. On the next pass the gradient flows *through* it to
        the old leaf, `w.grad` stays `None` (with a warning), and `lr * None` fails. The drawing of
        the new `w` shows the recorded update hanging from the original leaf:
        """,
    ),
    code("broken_draw", "viz.draw(w)"),
    md(
        "right_intro",
        """
        The right update changes the numbers inside the leaf **in place** (`-=`) and **without
        recording** (`torch.no_grad()`), then clears the gradient so that the next `backward()`
        starts from nothing (it would otherwise add to it):
        """,
    ),
    code(
        "right_demo",
        """
        w = torch.tensor(1.0, requires_grad=True)
        for step in range(40):
            loss = (w * w - 2) ** 2
            loss.backward()
            with torch.no_grad():
                w -= lr * w.grad
            w.grad = None
            if step % 10 == 0:
                print(f"step {step:2d}: loss={loss.item():.6f}  w={w.item():.4f}  is_leaf={w.is_leaf}")
        print(f"w = {w.item():.4f}, and the square root of 2 is 1.4142")
        """,
    ),
    md(
        "right_why",
        """
        Both halves are needed. Without `no_grad()`, the in-place `w -= ...` is refused (section 4
        explains why); without the in-place operator, `w = w - ...` inside `no_grad()` makes a new
        tensor that does not require grad at all, and the next `backward()` gives it nothing.
        """,
    ),
    code(
        "right_half",
        """
        v = torch.tensor(1.0, requires_grad=True)
        try:
            v -= 0.1
        except RuntimeError as err:
            print("RuntimeError:", err)
        with torch.no_grad():
            v = v - 0.1
        print("out of place under no_grad:", v, " requires_grad:", v.requires_grad)
        """,
    ),
    # ------------------------------------------------------------------ grad modes
    md(
        "modes_intro",
        """
        ## 2. Grad modes: `no_grad`, `enable_grad`, `set_grad_enabled`

        Whether operations are recorded is decided by one switch, the **grad mode**, which every
        operation reads before it records anything. `torch.is_grad_enabled()` tells its state.

        - `with torch.no_grad():` turns recording off inside the block: results do not require
          grad, have no `grad_fn`, and are leaves. Use it for updates, evaluation and anything you
          will never differentiate; it also saves the memory of the graph.
        - `with torch.enable_grad():` turns it back on, even inside a `no_grad` block.
        - `with torch.set_grad_enabled(mode):` picks by a boolean, handy as
          `set_grad_enabled(is_training)`. Called as a plain function, `torch.set_grad_enabled(False)`
          switches the mode until you switch it back.

        All three also work as **decorators**: the whole function body runs in that mode. The
        mode only affects what is *recorded*; it never changes the tensors you already have.
        """,
    ),
    code(
        "modes_demo",
        """
        p = torch.tensor([1.0, -1.0], requires_grad=True)


        @torch.no_grad()
        def predict(inputs):
            print("  inside predict, grad enabled:", torch.is_grad_enabled())
            return inputs * p


        print("grad enabled:", torch.is_grad_enabled())
        out = predict(torch.tensor([3.0, 4.0]))
        print("predict's result requires grad:", out.requires_grad, " grad_fn:", out.grad_fn)

        with torch.no_grad():
            inner = p * 2
            with torch.enable_grad():
                on_again = p * 2
        print("no_grad:", inner.requires_grad, " enable_grad inside it:", on_again.requires_grad)

        for is_training in [True, False]:
            with torch.set_grad_enabled(is_training):
                result = p * 2
            print(f"set_grad_enabled({is_training}): requires_grad={result.requires_grad}")
        """,
    ),
    md(
        "modes_cut_text",
        """
        What `no_grad` computes is a constant as far as autograd knows: the graph has no path
        through it. Below, `scale` is computed from `p` inside `no_grad`, so the drawing shows it
        as a grey leaf, and the gradient of `p` only counts the other path: `grad = scale * x`,
        not `scale * x + 2 * x * p`.
        """,
    ),
    code(
        "modes_cut",
        """
        x = torch.tensor([3.0, 4.0])
        with torch.no_grad():
            scale = p * 2
        mixed = (p * x * scale).sum()
        mixed.backward()
        print("p.grad:", p.grad, " (scale * x =", (scale * x).tolist(), ")")
        viz.draw(mixed)
        """,
    ),
    md(
        "ex1_text",
        f"""
        ### Exercise 1 (3 points) — recorded or not?

        Without running it, predict `requires_grad` of each of the tensors `a` to `h`:

        ```python
        {_block(EX1_CODE)}
        ```

        Set `recorded` to a dict with the keys `"a"` to `"h"`, each mapped to `True` or `False`.
        """,
    ),
    answer(
        "ex1_answer",
        """
        # recorded = {"a": True or False, ..., "h": ...}
        ### BEGIN SOLUTION
        recorded = {"a": False, "b": False, "c": True, "d": True, "e": False, "f": False, "g": True, "h": True}
        ### END SOLUTION
        """,
        mistakes=[
            mistake(
                'recorded = {"a": False, "b": False, "c": False, "d": True, "e": False, "f": False, "g": False, "h": True}',
                ["ex1_hidden"],
            )
        ],
    ),
    tests(
        "ex1_visible",
        """
        check("recorded" in globals(), "recorded is not defined: set it in the cell above")
        check(type(recorded) is dict, f"recorded should be a dict, got {type(recorded).__name__}")
        check(
            sorted(recorded) == ["a", "b", "c", "d", "e", "f", "g", "h"],
            f"recorded should have exactly the keys 'a' to 'h', got {sorted(recorded)}",
        )
        for _key, _value in recorded.items():
            check(type(_value) is bool, f"recorded[{_key!r}] should be True or False, got {_value!r}")
        print("recorded has the right form. The graded tests check whether it is right.")
        """,
        points=1,
        needs=["ex1_answer"],
    ),
    tests(
        "ex1_hidden",
        """
        # Graded on the values of your predictions (hidden tests).
        _recorded = dict(recorded)
        ### BEGIN HIDDEN TESTS
        """,
        EX1_RUN,
        """
        _tensors = _ex1_run()
        torch.set_grad_enabled(True)
        for _key, _t in _tensors.items():
            check(_recorded[_key] is _t.requires_grad, f"recorded[{_key!r}] is wrong")
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex1_answer"],
    ),
    # ------------------------------------------------------------------ detach and .data
    md(
        "detach_intro",
        """
        ## 3. `detach()` and `.data`: the same numbers, cut off from the graph

        `t.detach()` and `t.data` both return a new tensor object that **shares its storage**
        with `t` (no copy: change one in place and the other changes), does not require grad, and
        has no `grad_fn`. Autograd sees them as constants. The difference lies in what autograd
        notices afterwards:

        - `t.detach()` shares `t`'s **version counter** (section 4): an in-place change through the
          detached tensor counts as a change of `t`, and `backward()` raises an error if `t`'s old
          values were needed;
        - `t.data` gets a counter of its own: changes through it are invisible to autograd. That is
          why `.data` is the old, risky way; prefer `detach()` (or `no_grad()` for updates).
        """,
    ),
    code(
        "detach_share",
        """
        t = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        d = t.detach()
        print("detach:", d, " requires_grad:", d.requires_grad, " is_leaf:", d.is_leaf)
        d[0] = 10.0  # writes into t's storage
        print("t after changing d:", t, " version of t:", t._version, " of d:", d._version)

        raw = t.data
        print("a fresh counter for .data:", raw._version)
        raw[1] = 20.0
        print("t after changing .data:", t, " version of t:", t._version, " of raw:", raw._version)
        """,
    ),
    md(
        "detach_risk_text",
        """
        The difference matters when the values were saved for backward. `exp` saves its result
        (its own derivative), so changing that result in place should make `backward()` fail.
        Through `detach()` it does; through `.data` the change goes unnoticed, and the gradient is
        silently wrong:
        """,
    ),
    code(
        "detach_risk",
        """
        a = torch.tensor([0.0, 1.0], requires_grad=True)
        e = a.exp()
        e.detach().zero_()
        try:
            e.sum().backward()
        except RuntimeError as err:
            print("detach: RuntimeError:", str(err)[:90], "...")

        a = torch.tensor([0.0, 1.0], requires_grad=True)
        e = a.exp()
        e.data.zero_()
        e.sum().backward()
        print("data: no error, a.grad =", a.grad, " but d/da sum(exp(a)) is [1.0000, 2.7183]")
        """,
    ),
    md(
        "detach_target_intro",
        """
        ### A `detach()` that changes the answer

        `detach()` is also a modelling tool: it says *treat this as a constant*. That is a real
        decision, and it can change where gradient descent ends up, not just how fast.

        An example from reinforcement learning. Two situations, A and B, alternate forever
        (A, B, A, B, ...), and each step earns a reward of 1. The *value* of a situation is the
        reward still to come, with each later step counting half as much as the one before. We
        estimate values with one weight `w` and a feature per situation, `value = w * feature`, and
        train it toward a **target** built from the model itself: the next reward plus half the
        value of the next situation, `target = 1 + 0.5 * w * next_feature`.

        Should the gradient flow through the target? Temporal-difference learning says no: the
        target is a guess to move toward, not something to move. Both versions below use the same
        loss, the same start and the same step size; only `detach()` differs.
        """,
    ),
    code(
        "detach_target",
        """
        features = torch.tensor([1.0, 2.0])  # situations A and B
        next_features = torch.tensor([2.0, 1.0])  # A is followed by B, B by A


        def td_loss(w, stop_gradient):
            target = 1.0 + 0.5 * w * next_features
            if stop_gradient:
                target = target.detach()
            return ((w * features - target) ** 2).sum()


        def train_value(stop_gradient, steps=100, lr=0.05):
            w = torch.tensor(0.0, requires_grad=True)
            for _ in range(steps):
                td_loss(w, stop_gradient).backward()
                with torch.no_grad():
                    w -= lr * w.grad
                w.grad = None
            return w


        for stop_gradient in [False, True]:
            w_end = train_value(stop_gradient)
            loss_end = td_loss(w_end, stop_gradient).item()
            print(f"detach={stop_gradient!s:5}: w -> {w_end.item():.4f}, loss there {loss_end:.4f}")
        """,
    ),
    md(
        "detach_target_explain",
        """
        Without `detach()`, gradient descent minimises the loss as written, and it ends at
        `w = 2/3` (loss 1). With `detach()`, every step follows only the part of the gradient that
        goes through the prediction `w * features`; that direction is not the gradient of any
        fixed loss, and it settles where the predictions stop moving toward their targets, at
        `w = 1` (where the printed loss is *higher*, 1.25). Neither run is broken: they solve two
        different problems, and the `detach()` decides which. The drawings show the difference:
        in the second, the target is a grey constant and the graph has one path to `w` instead
        of two.
        """,
    ),
    code(
        "detach_target_draw_full",
        """
        w_demo = torch.tensor(0.5, requires_grad=True)
        loss_full = td_loss(w_demo, stop_gradient=False)
        viz.draw(loss_full, names={"w": w_demo, "loss": loss_full})
        """,
    ),
    code(
        "detach_target_draw_cut",
        """
        loss_cut = td_loss(w_demo, stop_gradient=True)
        viz.draw(loss_cut, names={"w": w_demo, "loss": loss_cut})
        """,
    ),
    # ------------------------------------------------------------------ in-place and versions
    md(
        "inplace_intro",
        """
        ## 4. In-place operations and the version counter

        An in-place operation (`add_`, `mul_`, `zero_`, `copy_`, `+=`, `t[i] = ...`) changes a
        tensor's values instead of making a new tensor. Many backward rules need values from the
        forward pass: `mul` needs its inputs, `exp` and `sigmoid` their results, `add` needs
        nothing. Those values are **saved** in the node, and they are not copies: an in-place
        change would silently change what backward computes.

        So every tensor carries a **version counter**, `t._version`, which every in-place change
        increases by one (tensors sharing storage through views or `detach()` share it). When a
        node saves a tensor, it notes its version; when backward needs it, it compares. A
        mismatch is the first in-place error:
        """,
    ),
    code(
        "inplace_version",
        """
        z = torch.tensor([0.5, -0.5], requires_grad=True)
        s = z.sigmoid()  # sigmoid saves its result s
        print("version of s:", s._version)
        s.mul_(3)
        s += 1
        print("after two in-place operations:", s._version)
        """,
    ),
    md(
        "inplace_draw_text",
        """
        With `show_saved=True`, the autograd view draws what each node saved; a saved tensor that
        was changed since is marked in red, with its versions. The two in-place operations were
        recorded too (`MulBackward0`, `AddBackward0`): `s` now names their result.
        """,
    ),
    code("inplace_draw", "viz.draw_backward(s, show_saved=True)"),
    code(
        "inplace_backward",
        """
        try:
            s.sum().backward()
        except RuntimeError as err:
            print("RuntimeError:", err)
        """,
    ),
    md(
        "inplace_fine",
        """
        Not every in-place operation is a problem: only one that changes a value some node saved
        and still needs. `h = w * 2` saves `w` and the number 2, not `h`, so changing `h` in place
        right afterwards is fine, and autograd records it like any other operation:
        """,
    ),
    code(
        "inplace_fine_demo",
        """
        w2 = torch.tensor([1.0, 2.0], requires_grad=True)
        h = w2 * 2
        h += 1  # recorded as AddBackward0; h's version is now 1
        (h * h).sum().backward()  # saves h at version 1: no conflict
        print("h.grad_fn:", h.grad_fn.name(), " w2.grad:", w2.grad)
        """,
    ),
    md(
        "leaf_error_intro",
        """
        The second in-place error concerns **leaves that require grad**. Graphs that use a leaf
        refer to it directly, and backward stores its gradient in it. Recording an in-place change
        would make the leaf the result of an operation, so it would stop being a leaf, and the
        starting point of every graph already built from it would change under their feet. So
        autograd refuses outright, as soon as you try, not at `backward()` time. Under
        `no_grad()` the change is allowed: it is not meant to be differentiated, which is exactly
        what a parameter update is. The version still counts.
        """,
    ),
    code(
        "leaf_error",
        """
        leaf = torch.tensor([1.0, 2.0], requires_grad=True)
        try:
            leaf.add_(1)
        except RuntimeError as err:
            print("RuntimeError:", err)
        with torch.no_grad():
            leaf.add_(1)
        print(leaf, " version:", leaf._version, " still a leaf:", leaf.is_leaf)
        """,
    ),
    md(
        "ex2_text",
        f"""
        ### Exercise 2 (3 points) — which error?

        Each case below runs on its own. Without running them, predict what happens:

        - `"ok"`: it runs without an error;
        - `"leaf"`: `RuntimeError: a leaf Variable that requires grad is being used in an in-place operation`;
        - `"version"`: `RuntimeError: ... modified by an inplace operation`;
        - `"nonetype"`: `TypeError: unsupported operand type(s) ... 'NoneType'`.

        ```python
        {_block(EX2_SHOWN)}
        ```

        Set `outcome` to a dict with the keys `"p"` to `"v"`, each mapped to one of the four strings.
        """,
    ),
    answer(
        "ex2_answer",
        """
        # outcome = {"p": "ok" or "leaf" or "version" or "nonetype", ..., "v": ...}
        ### BEGIN SOLUTION
        outcome = {"p": "leaf", "q": "ok", "r": "version", "s": "ok", "t": "ok", "u": "version", "v": "nonetype"}
        ### END SOLUTION
        """,
        mistakes=[
            mistake(
                'outcome = {"p": "leaf", "q": "ok", "r": "version", "s": "version", "t": "version", "u": "version", "v": "nonetype"}',
                ["ex2_hidden"],
            )
        ],
    ),
    tests(
        "ex2_visible",
        f"""
        check("outcome" in globals(), "outcome is not defined: set it in the cell above")
        check(type(outcome) is dict, f"outcome should be a dict, got {{type(outcome).__name__}}")
        check(
            sorted(outcome) == {sorted(EX2_CASES)!r},
            f"outcome should have exactly the keys 'p' to 'v', got {{sorted(outcome)}}",
        )
        for _key, _value in outcome.items():
            check(
                _value in {OUTCOMES!r},
                f"outcome[{{_key!r}}] should be one of {OUTCOMES!r}, got {{_value!r}}",
            )
        print("outcome has the right form. The graded tests check whether it is right.")
        """,
        points=1,
        needs=["ex2_answer"],
    ),
    tests(
        "ex2_hidden",
        """
        # Graded on the values of your predictions (hidden tests).
        _outcome = dict(outcome)
        ### BEGIN HIDDEN TESTS
        import warnings as _warnings
        """,
        EX2_RUN,
        """
        def _what_happens(case):
            try:
                with _warnings.catch_warnings():  # reading .grad of a non-leaf warns
                    _warnings.simplefilter("ignore")
                    case()
            except TypeError as err:
                return "nonetype" if "NoneType" in str(err) else "other"
            except RuntimeError as err:
                if "leaf" in str(err):
                    return "leaf"
                return "version" if "inplace" in str(err) else "other"
            return "ok"


        for _key in sorted(_outcome):
            _happens = _what_happens(globals()[f"_ex2_case_{_key}"])
            check(_outcome[_key] == _happens, f"outcome[{_key!r}] is wrong")
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex2_answer"],
    ),
    # ------------------------------------------------------------------ training by hand and with SGD
    md(
        "neuron_intro",
        """
        ## 5. Training by hand, then with `minigrad.optim.SGD`

        Everything above fits into the training loop: compute the loss, `backward()`, update in
        place under `no_grad()`, clear the gradients. First one neuron: a logistic unit,
        `p = sigmoid(w * x + b)`, which predicts whether a student passes an exam from the hours
        they studied, trained on the mean cross-entropy loss.
        """,
    ),
    code(
        "neuron_data",
        """
        hours = torch.tensor([0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0])
        passed = torch.tensor([0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0])


        def neuron_loss(w, b):
            p = torch.sigmoid(w * hours + b)
            return -(passed * p.log() + (1 - passed) * (1 - p).log()).mean()
        """,
    ),
    code(
        "neuron_by_hand",
        """
        w = torch.tensor(0.0, requires_grad=True)
        b = torch.tensor(0.0, requires_grad=True)
        for step in range(300):
            loss = neuron_loss(w, b)
            loss.backward()
            with torch.no_grad():
                w -= 0.5 * w.grad
                b -= 0.5 * b.grad
            w.grad = None
            b.grad = None
            if step % 100 == 0:
                print(f"step {step:3d}: loss {loss.item():.4f}")
        print(f"by hand: w={w.item():.4f}, b={b.item():.4f}, 50% at {-b.item() / w.item():.2f} hours")
        """,
    ),
    md(
        "neuron_sgd_text",
        """
        `minigrad.optim.SGD` does exactly these updates. `optimizer.zero_grad()` sets every
        parameter's `.grad` to `None`, and `optimizer.step()` runs `p -= lr * p.grad` for each of
        them, in place and under `no_grad()`. Same start, same numbers:
        """,
    ),
    code(
        "neuron_sgd",
        """
        w_sgd = torch.tensor(0.0, requires_grad=True)
        b_sgd = torch.tensor(0.0, requires_grad=True)
        optimizer = torch.optim.SGD([w_sgd, b_sgd], lr=0.5)
        for step in range(300):
            optimizer.zero_grad()
            loss = neuron_loss(w_sgd, b_sgd)
            loss.backward()
            optimizer.step()
        print(f"with SGD: w={w_sgd.item():.4f}, b={b_sgd.item():.4f}")
        print("identical:", torch.equal(w, w_sgd) and torch.equal(b, b_sgd), " leaves:", w_sgd.is_leaf, b_sgd.is_leaf)
        """,
    ),
    md(
        "regression_intro",
        """
        Now a linear regression with three features, `prediction = x @ w + b`, fitted by the mean
        squared error. The data come from known weights plus a little noise, so we can see whether
        training finds them. Again by hand, then with `SGD`:
        """,
    ),
    code(
        "regression",
        """
        torch.manual_seed(3)
        x = torch.randn(80, 3)
        y = x @ torch.tensor([1.5, -2.0, 0.5]) + 0.7 + 0.1 * torch.randn(80)


        def mse(w, b):
            return ((x @ w + b - y) ** 2).mean()


        w = torch.zeros(3, requires_grad=True)
        b = torch.zeros((), requires_grad=True)
        for step in range(150):
            loss = mse(w, b)
            loss.backward()
            with torch.no_grad():
                for param in (w, b):
                    param -= 0.1 * param.grad
                    param.grad = None

        w_sgd = torch.zeros(3, requires_grad=True)
        b_sgd = torch.zeros((), requires_grad=True)
        optimizer = torch.optim.SGD([w_sgd, b_sgd], lr=0.1)
        for step in range(150):
            optimizer.zero_grad()
            mse(w_sgd, b_sgd).backward()
            optimizer.step()

        print("by hand:  w =", w, " b =", b, " loss =", round(mse(w, b).item(), 5))
        print("with SGD: w =", w_sgd, " b =", b_sgd)
        print("identical:", torch.equal(w, w_sgd) and torch.equal(b, b_sgd))
        """,
    ),
    md(
        "regression_draw_text",
        """
        The graph of one training step's loss, with the values of the trained parameters. The
        update itself is not in it: it ran under `no_grad()`.
        """,
    ),
    code("regression_draw", 'viz.draw(mse(w, b), names={"x": x, "y": y, "w": w, "b": b})'),
    md(
        "momentum_intro",
        """
        `SGD` has options. With `momentum=m`, each parameter keeps a *momentum buffer*: at the
        first step it is a copy of the gradient, afterwards `buf = m * buf + grad`, and the update
        is `p -= lr * buf`. Steps in a steady direction grow, and zig-zags cancel out. The buffer
        lives in `optimizer.state[p]`:
        """,
    ),
    code(
        "momentum_demo",
        """
        q = torch.tensor([1.0, -1.0], requires_grad=True)
        optimizer = torch.optim.SGD([q], lr=0.1, momentum=0.9)
        for step in range(3):
            optimizer.zero_grad()
            (q * q).sum().backward()  # gradient 2q
            optimizer.step()
            buffer = optimizer.state[q]["momentum_buffer"]
            print(f"step {step}: q={[round(v, 4) for v in q.tolist()]}  buffer={[round(v, 4) for v in buffer.tolist()]}")
        """,
    ),
    md(
        "ex3_text",
        """
        ### Exercise 3 (4 points) — your own optimizer

        Write a class `MySGD` that behaves like `torch.optim.SGD(params, lr, momentum=momentum)`:

        - `MySGD(params, lr, momentum=0.0)`: `params` is any iterable of tensors (a list, or a
          generator such as `model.parameters()`, which can be read only once: keep a list);
        - `zero_grad()` sets the `.grad` of every parameter to `None`;
        - `step()` updates every parameter whose `.grad` is not `None`, in place and unrecorded, so
          that it stays the same leaf: without momentum, `p -= lr * grad`; with momentum, keep one
          buffer per parameter (a **copy** of the gradient at that parameter's first step, then
          `buf = momentum * buf + grad`) and do `p -= lr * buf`. A parameter whose `.grad` is `None`
          is skipped and its buffer left as it is.

        `step()` and `zero_grad()` return nothing. Do not use `torch.optim` inside.
        """,
    ),
    answer(
        "ex3_answer",
        """
        class MySGD:
            \"\"\"Stochastic gradient descent with optional momentum, like torch.optim.SGD.\"\"\"

            def __init__(self, params, lr, momentum=0.0):
                ### BEGIN SOLUTION
                self.params = list(params)
                self.lr = lr
                self.momentum = momentum
                self.buffers = {}  # id(param) -> its momentum buffer
                ### END SOLUTION

            def zero_grad(self):
                ### BEGIN SOLUTION
                for p in self.params:
                    p.grad = None
                ### END SOLUTION

            def step(self):
                ### BEGIN SOLUTION
                with torch.no_grad():
                    for p in self.params:
                        if p.grad is None:
                            continue
                        update = p.grad
                        if self.momentum != 0:
                            buf = self.buffers.get(id(p))
                            if buf is None:
                                buf = p.grad.clone()
                            else:
                                buf = self.momentum * buf + p.grad
                            self.buffers[id(p)] = buf
                            update = buf
                        p -= self.lr * update
                ### END SOLUTION
        """,
        alternatives=[
            """
            class MySGD:
                def __init__(self, params, lr, momentum=0.0):
                    self.groups = [p for p in params]
                    self.lr, self.momentum = lr, momentum
                    self.velocity = [None] * len(self.groups)

                def zero_grad(self):
                    for p in self.groups:
                        if p.grad is not None:
                            p.grad = None

                def step(self):
                    for i, p in enumerate(self.groups):
                        if p.grad is None:
                            continue
                        g = p.grad.detach()
                        if self.momentum:
                            if self.velocity[i] is None:
                                self.velocity[i] = g.clone()
                            else:
                                self.velocity[i].mul_(self.momentum).add_(g)
                            g = self.velocity[i]
                        p.data.add_(g, alpha=-self.lr)
            """
        ],
        mistakes=[
            # Keeps the generator instead of a list: the second step updates nothing.
            mistake(
                """
                class MySGD:
                    def __init__(self, params, lr, momentum=0.0):
                        self.params, self.lr, self.momentum, self.buf = params, lr, momentum, {}

                    def zero_grad(self):
                        for p in self.params:
                            p.grad = None

                    def step(self):
                        with torch.no_grad():
                            for p in self.params:
                                if p.grad is None:
                                    continue
                                if self.momentum:
                                    old = self.buf.get(id(p))
                                    self.buf[id(p)] = p.grad.clone() if old is None else self.momentum * old + p.grad
                                    p -= self.lr * self.buf[id(p)]
                                else:
                                    p -= self.lr * p.grad
                """,
                ["ex3_hidden"],
            ),
            # The buffer is the gradient tensor itself: the in-place update also changes p.grad.
            mistake(
                """
                class MySGD:
                    def __init__(self, params, lr, momentum=0.0):
                        self.params, self.lr, self.momentum, self.buf = list(params), lr, momentum, {}

                    def zero_grad(self):
                        for p in self.params:
                            p.grad = None

                    def step(self):
                        with torch.no_grad():
                            for p in self.params:
                                if p.grad is None:
                                    continue
                                if self.momentum:
                                    if id(p) not in self.buf:
                                        self.buf[id(p)] = p.grad
                                    else:
                                        self.buf[id(p)].mul_(self.momentum).add_(p.grad)
                                    p -= self.lr * self.buf[id(p)]
                                else:
                                    p -= self.lr * p.grad
                """,
                ["ex3_hidden"],
            ),
            # Buffers numbered among the parameters that have a gradient at this step: when that set
            # changes (a parameter used at some steps only), a parameter gets another one's buffer.
            mistake(
                """
                class MySGD:
                    def __init__(self, params, lr, momentum=0.0):
                        self.params, self.lr, self.momentum, self.bufs = list(params), lr, momentum, []

                    def zero_grad(self):
                        for p in self.params:
                            p.grad = None

                    def step(self):
                        with torch.no_grad():
                            active = [p for p in self.params if p.grad is not None]
                            for i, p in enumerate(active):
                                if i >= len(self.bufs):
                                    self.bufs.append(p.grad.clone())
                                else:
                                    self.bufs[i] = self.momentum * self.bufs[i] + p.grad
                                p -= self.lr * (self.bufs[i] if self.momentum else p.grad)
                """,
                ["ex3_hidden"],
            ),
            # The update is recorded: the parameters stop being leaves.
            mistake(
                """
                class MySGD:
                    def __init__(self, params, lr, momentum=0.0):
                        self.params, self.lr = list(params), lr

                    def zero_grad(self):
                        for p in self.params:
                            p.grad = None

                    def step(self):
                        for i, p in enumerate(self.params):
                            if p.grad is not None:
                                self.params[i] = p - self.lr * p.grad
                """,
                ["ex3_visible", "ex3_hidden"],
            ),
        ],
    ),
    tests(
        "ex3_visible",
        """
        _w = torch.tensor([1.0, -2.0], requires_grad=True)
        _b = torch.tensor(0.5, requires_grad=True)
        _opt = MySGD([_w, _b], lr=0.1)
        ((_w * _w).sum() + 3 * _b).backward()  # gradients: 2w = [2, -4] and 3
        _opt.step()
        check(
            _w.is_leaf and _b.is_leaf and _w.requires_grad,
            "after step() a parameter is no longer a leaf that requires grad: update in place inside torch.no_grad()",
        )
        check_close(_w, [0.8, -1.6], "after one step, w should be w - 0.1 * w.grad = [1, -2] - 0.1 * [2, -4]")
        check_close(_b, 0.2, "after one step, b should be 0.5 - 0.1 * 3")
        _opt.zero_grad()
        check(_w.grad is None and _b.grad is None, "zero_grad() should set every parameter's .grad to None")

        _m = torch.tensor([1.0], requires_grad=True)
        _mom = MySGD([_m], lr=0.1, momentum=0.5)
        for _ in range(2):
            _mom.zero_grad()
            (_m * 2).sum().backward()  # the gradient is always 2
            _mom.step()
        # buffers: 2, then 0.5 * 2 + 2 = 3; so m = 1 - 0.1 * 2 - 0.1 * 3
        check_close(_m, [0.5], "with momentum=0.5 and a constant gradient 2, two steps should give 1 - 0.2 - 0.3")
        print("MySGD passes the visible tests.")
        """,
        points=1,
        needs=["ex3_answer"],
    ),
    tests(
        "ex3_hidden",
        """
        # More cases (hidden tests): compared with torch.optim.SGD on fresh parameters.
        _smoke = MySGD([torch.tensor(1.0, requires_grad=True)], lr=0.1)
        ### BEGIN HIDDEN TESTS
        def _params(seed):
            torch.manual_seed(seed)
            shapes = [(3, 2), (2,), (2,), (4,)]  # weight, every_other (used at odd steps), bias, unused
            return [torch.randn(*shape, requires_grad=True) for shape in shapes]


        def _loss(params, x, step):
            weight, every_other, bias, unused = params
            loss = ((x @ weight + bias).tanh() ** 2).sum()
            return loss + (every_other**2).sum() if step % 2 else loss


        def _run(make, lr, momentum, steps, zero_every_step=True):
            params = _params(11)
            opt = make((p for p in params), lr, momentum)  # a generator, like model.parameters()
            torch.manual_seed(12)
            data = [torch.randn(5, 3) for _ in range(steps)]
            for step, x in enumerate(data):
                if zero_every_step:
                    opt.zero_grad()
                _loss(params, x, step).backward()
                opt.step()
            return params


        def _mine(params, lr, momentum):
            return MySGD(params, lr, momentum=momentum)


        def _reference(params, lr, momentum):
            return torch.optim.SGD(params, lr=lr, momentum=momentum)


        for _lr, _momentum, _zero in [(0.2, 0.0, True), (0.05, 0.9, True), (0.1, 0.5, False)]:
            _got = _run(_mine, _lr, _momentum, 6, _zero)
            _want = _run(_reference, _lr, _momentum, 6, _zero)
            _what = f"lr={_lr}, momentum={_momentum}, zero_grad {'every step' if _zero else 'never'}"
            for _g, _e in zip(_got, _want):
                check(_g.is_leaf and _g.requires_grad, f"{_what}: the parameters should stay leaves that require grad")
                check_close(_g, _e, f"{_what}: after 6 steps the parameters differ from torch.optim.SGD's", atol=1e-5)
            check(_got[3].grad is None, f"{_what}: a parameter that no loss used should keep .grad None")
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex3_answer"],
    ),
    md(
        "ex4_text",
        """
        ### Exercise 4 (4 points) — a training loop for linear regression

        Write `fit_linear(x, y)`, which fits `prediction = x @ w + b` to the data by minimising the
        mean squared error with gradient descent, and returns the pair `(w, b)`:

        - `x` has shape `(n, d)` and `y` shape `(n,)`; return `w` of shape `(d,)` and `b` of
          shape `()` (a single number as a tensor, like `torch.zeros(())`);
        - write the loop yourself: by hand with `no_grad()`, with `torch.optim.SGD`, or with your
          `MySGD`; do not change `x` or `y`;
        - the data sets it is graded on have up to 300 points and 6 features, each feature with
          mean about 0 and standard deviation about 1, and `y = x @ w_true + b_true + noise` with
          weights between -3 and 3. Full marks when the mean squared error on **new** points from
          the same source is close to the noise's (the best any fit can do).

        Start from zeros; a step size of 0.1 and 100 to 300 steps work well here. Keep it under a
        second per call.
        """,
    ),
    answer(
        "ex4_answer",
        """
        def fit_linear(x, y):
            \"\"\"Fit y ~ x @ w + b by gradient descent on the mean squared error; returns (w, b).\"\"\"
            ### BEGIN SOLUTION
            w = torch.zeros(x.shape[1], requires_grad=True)
            b = torch.zeros((), requires_grad=True)
            for _ in range(150):
                loss = ((x @ w + b - y) ** 2).mean()
                loss.backward()
                with torch.no_grad():
                    w -= 0.1 * w.grad
                    b -= 0.1 * b.grad
                w.grad = None
                b.grad = None
            return w.detach(), b.detach()
            ### END SOLUTION
        """,
        alternatives=[
            """
            def fit_linear(x, y):
                n, d = x.shape
                w = torch.zeros(d, requires_grad=True)
                b = torch.tensor(0.0, requires_grad=True)
                optimizer = torch.optim.SGD([w, b], lr=0.05, momentum=0.9)
                for _ in range(200):
                    optimizer.zero_grad()
                    torch.nn.functional.mse_loss(x @ w + b, y).backward()
                    optimizer.step()
                return w, b
            """
        ],
        mistakes=[
            # Never clears the gradients: they pile up, and the weights do not settle.
            mistake(
                """
                def fit_linear(x, y):
                    w = torch.zeros(x.shape[1], requires_grad=True)
                    b = torch.zeros((), requires_grad=True)
                    for _ in range(300):
                        ((x @ w + b - y) ** 2).mean().backward()
                        with torch.no_grad():
                            w -= 0.1 * w.grad
                            b -= 0.1 * b.grad
                    return w, b
                """,
                ["ex4_visible", "ex4_hidden"],
            ),
            # Too few steps with a small step size: the weights are still far from the best fit.
            mistake(
                """
                def fit_linear(x, y):
                    w = torch.zeros(x.shape[1], requires_grad=True)
                    b = torch.zeros((), requires_grad=True)
                    for _ in range(60):
                        ((x @ w + b - y) ** 2).mean().backward()
                        with torch.no_grad():
                            w -= 0.02 * w.grad
                            b -= 0.02 * b.grad
                        w.grad = None
                        b.grad = None
                    return w, b
                """,
                ["ex4_visible", "ex4_hidden"],
            ),
            # Written for the visible example only: two features, whatever the data.
            mistake(
                """
                def fit_linear(x, y):
                    w = torch.zeros(2, requires_grad=True)
                    b = torch.zeros((), requires_grad=True)
                    optimizer = torch.optim.SGD([w, b], lr=0.1)
                    for _ in range(300):
                        optimizer.zero_grad()
                        ((x @ w + b - y) ** 2).mean().backward()
                        optimizer.step()
                    return w, b
                """,
                ["ex4_hidden"],
            ),
            # Stopped early (30 steps of 0.05): close enough where the noise is large, not where
            # it is small.
            mistake(
                """
                def fit_linear(x, y):
                    w = torch.zeros(x.shape[1], requires_grad=True)
                    b = torch.tensor(0.0, requires_grad=True)
                    for _ in range(30):
                        loss = ((x @ w + b - y) ** 2).mean()
                        loss.backward()
                        with torch.no_grad():
                            w -= 0.05 * w.grad
                            b -= 0.05 * b.grad
                        w.grad = None
                        b.grad = None
                    return w, b
                """,
                ["ex4_visible", "ex4_hidden"],
            ),
        ],
    ),
    tests(
        "ex4_visible",
        FIT_DATA,
        """
        _x, _y, _w_true, _b_true = _make_data(seed=1, n=60, d=2, noise=0.1)
        _x_before, _y_before = _x.tolist(), _y.tolist()
        _result = fit_linear(_x, _y)
        check(type(_result) is tuple and len(_result) == 2, "fit_linear should return a pair (w, b)")
        _w, _b = _result
        check(isinstance(_w, torch.Tensor) and isinstance(_b, torch.Tensor), "w and b should be tensors")
        check(tuple(_w.shape) == (2,), f"w should have shape (d,) = (2,), got {tuple(_w.shape)}")
        check(tuple(_b.shape) == (), f"b should have shape () (a single number), got {tuple(_b.shape)}")
        check_close(_x, _x_before, "fit_linear must not change x")
        check_close(_y, _y_before, "fit_linear must not change y")
        with torch.no_grad():
            _loss = ((_x @ _w + _b - _y) ** 2).mean().item()
        check(
            _loss < 0.03,
            f"the mean squared error on the training data is {_loss:.4f}; with noise 0.1 it should be "
            "about 0.01. More steps, a larger step size, or check that gradients are cleared",
        )
        check_close(_w, _w_true, "w should be close to the weights the data came from", atol=0.1)
        check_close(_b, _b_true, "b should be close to the bias the data came from", atol=0.1)
        print(f"fit_linear passes the visible tests (training loss {_loss:.4f}).")
        """,
        points=1,
        needs=["ex4_answer"],
    ),
    tests(
        "ex4_hidden",
        FIT_DATA,
        """
        # Graded on new data sets, measured on points that training never saw (hidden tests).
        _smoke = fit_linear(torch.randn(4, 1), torch.randn(4))
        ### BEGIN HIDDEN TESTS
        import time as _time

        # The last one has little noise: there a fit that stopped early is far from the best.
        for _seed, _n, _d, _noise in [(21, 300, 6, 0.5), (22, 40, 1, 0.2), (23, 150, 4, 0.3), (24, 100, 6, 0.1)]:
            _x, _y, _w_true, _b_true = _make_data(_seed, _n, _d, _noise)
            _x_new = torch.randn(2000, _d)  # new points from the same source
            _y_new = _x_new @ _w_true + _b_true + _noise * torch.randn(2000)
            _start = _time.perf_counter()
            _w, _b = fit_linear(_x, _y)
            _seconds = _time.perf_counter() - _start
            check(tuple(_w.shape) == (_d,) and tuple(_b.shape) == (), f"{_d} features: wrong shapes of w or b")
            with torch.no_grad():
                _error = ((_x_new @ _w + _b - _y_new) ** 2).mean().item()
            _best = _noise**2
            check(
                _error < 1.25 * _best + 0.01,
                f"{_n} points, {_d} features: error {_error:.4f} on new points, the noise alone gives {_best:.4f}",
            )
            check(_seconds < 5, f"{_n} points, {_d} features: fit_linear took {_seconds:.1f} s")
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex4_answer"],
    ),
    # ------------------------------------------------------------------ written answer
    question(
        "ex5_question",
        """
        ### Exercise 5 (3 points, graded by hand) — why updates go under `no_grad()`

        A classmate's training loop updates a parameter with `w -= lr * w.grad`, without
        `torch.no_grad()`, and gets a `RuntimeError`. They try `w = w - lr * w.grad` instead, and
        the second pass fails with a `TypeError`. In a few sentences, explain:

        1. why autograd refuses the first line, and what would go wrong if it recorded it;
        2. why the second line breaks the *next* step (what is `w` after it?);
        3. why `with torch.no_grad(): w -= lr * w.grad` (followed by clearing `w.grad`) works, and
           why even a recorded update that did not fail would be unwanted in a training loop.
        """,
    ),
    written(
        "ex5_answer",
        """
        1. `w` is a leaf that requires grad: graphs built from it refer to it directly, and
           `backward()` stores its gradient there. An in-place change while recording would
           rewrite the input of every graph that uses `w` (values saved for backward would no
           longer match), and a leaf has no `grad_fn` in which the change could be recorded, so
           autograd raises "a leaf Variable that requires grad is being used in an in-place
           operation".
        2. `w - lr * w.grad` is an ordinary recorded operation: it makes a *new* tensor with
           `grad_fn=SubBackward0`, and the name `w` now points to it. It is not a leaf, so the
           next `backward()` passes the gradient through it to the old leaf and leaves `w.grad`
           as `None`; `lr * None` then raises the `TypeError`.
        3. Under `no_grad()` nothing is recorded, and the in-place `-=` changes the numbers of the
           same leaf object, which stays a leaf that requires grad, so the next `backward()` fills
           its `.grad` again (cleared first, since gradients accumulate). Recording the update
           would be wrong even if it ran: we do not want to differentiate through the update, and
           every step would chain onto the graph of the previous ones, so the graph and its memory
           would grow with every step and backward would reach back through all earlier updates.
        """,
        points=3,
    ),
    md(
        "summary",
        """
        ## Summary

        - `w = w - lr * w.grad` records a new, non-leaf `w`: the next `w.grad` is `None`. Update
          in place under `torch.no_grad()`, then clear the gradient.
        - `no_grad`, `enable_grad` and `set_grad_enabled(mode)` switch recording off and on, as
          `with` blocks, decorators or (for `set_grad_enabled`) a plain call.
        - `detach()` and `.data` share storage with the original; `detach()` shares its version
          counter too, so autograd notices in-place changes made through it; `.data` does not.
        - `detach()` decides which paths the gradient takes, and so what training converges to.
        - Every in-place operation increases `_version`. Backward fails when a saved tensor was
          changed ("modified by an inplace operation"); changing a leaf that requires grad in place
          is refused at once ("a leaf Variable that requires grad ..."), except under `no_grad()`.
        - `torch.optim.SGD` performs exactly the by-hand update; `zero_grad()` sets the gradients
          to `None`.

        Next, notebook 06 differentiates gradients themselves. Before you hand in:
        *Kernel → Restart Kernel and Run All Cells*.
        """,
    ),
]
