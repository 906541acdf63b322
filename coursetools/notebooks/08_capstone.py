# ruff: noqa: N999 - the module is named after its notebook, 08_capstone
"""Assignment 08 (capstone): train a small MLP with minigrad.nn and minigrad.optim on the digits
that ship with scikit-learn; plot the loss, draw the graph of one training step, run the same
code on a GPU where there is one."""

import textwrap

from . import answer, code, how_to_work, md, mistake, question, tests, written

# float(loss) is a right answer for train_step, but on a loss that requires grad it warns once, as
# PyTorch does ("Converting a tensor with requires_grad=True to a scalar ..."); nbgrader scores a
# test cell with any output on stderr 0, so the cells that call train_step silence that warning.
QUIET_SCALAR_OF_GRAD = """
import warnings

# float() of a loss that requires grad warns (use loss.item()): harmless, and no reason to lose points.
warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True to a scalar")
"""

# A model that ends in nn.LogSoftmax() (or nn.Softmax()) without dim is right: for a batch of rows
# the implicit dim is 1. Like PyTorch, minigrad warns about the implicit choice the first time the
# model runs, which would cost the first test cell that calls it; the cells that call the student's
# model silence that warning too.
IMPLICIT_DIM_FILTER = """
# A softmax layer without dim warns (write dim=1): harmless for a batch of rows, and no reason to lose points.
warnings.filterwarnings("ignore", message="Implicit dimension choice")
"""
QUIET_IMPLICIT_DIM = "import warnings\n" + IMPLICIT_DIM_FILTER

# Exercise 2: the model whose graph the student reasons about.
EX2_CODE = """
torch.manual_seed(1)
net = nn.Sequential(nn.Linear(64, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 10))
xb, yb = x_train[:8], y_train[:8]
loss = F.cross_entropy(net(xb), yb)
loss.backward()
"""


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in text.strip("\n").split("\n"))


def _block(text: str) -> str:
    """Code for a markdown block inside an indented template (the first line gets the template's indent)."""
    return _indent(text, "        ").strip()


EX2_RUN = "def _ex2_run():\n" + _indent(EX2_CODE) + "\n    return net, xb, loss\n"

TRAIN_SOLUTION = """
def train(x, y, seed=0):
    \"\"\"Train a new model on (x, y); returns (model, the loss of every step).\"\"\"
    ### BEGIN SOLUTION
    torch.manual_seed(seed)
    model = make_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    losses = []
    for epoch in range(8):
        order = torch.randperm(len(y))  # a new shuffle every epoch
        for start in range(0, len(y), 64):
            batch = order[start : start + 64]
            losses.append(train_step(model, optimizer, x[batch], y[batch]))
    return model, losses
    ### END SOLUTION
"""

TRAIN_RUN = """
model, losses = train(x_train, y_train, seed=0)
plot_losses(losses)
print(f"{len(losses)} steps; test accuracy {accuracy(model, x_test, y_test):.3f}")
"""


def _train(body: str) -> str:
    """An answer for exercise 5: the train function, then the lines that run it."""
    return textwrap.dedent(body).strip("\n") + "\n\n\n" + TRAIN_RUN.strip("\n")


CELLS = [
    md(
        "intro",
        """
        # Assignment 08 — Capstone: training a network on real data

        Everything so far comes together: a model made of `nn` layers whose weights are leaves,
        a loss whose graph reaches all of them, `backward()` filling their `.grad`, and an
        optimizer that updates them in place under `no_grad`. You will train a small network to
        read handwritten digits.

        You will

        - load a real data set and split it into a part to train on and a part to test on;
        - define a model with `minigrad.nn`, and predict what the graph of one step holds;
        - write a training step and an accuracy function;
        - train, plot the loss, and reach at least 90 % accuracy on images the model never saw;
        - draw the graph of one training step, and run the same code on a GPU where there is one.
        """,
        how_to_work(45),
    ),
    code(
        "setup",
        """
        import time

        import matplotlib.pyplot as plt
        from sklearn.datasets import load_digits

        import minigrad as torch
        import minigrad.nn.functional as F
        from minigrad import nn, viz

        torch.manual_seed(0)  # the same "random" numbers on every run
        print("minigrad", torch.__version__)
        """,
    ),
    # ------------------------------------------------------------------ data
    md(
        "data_intro",
        """
        ## 1. The data

        scikit-learn ships a small data set of handwritten digits inside the package (nothing is
        downloaded): 1,797 images of 8×8 pixels, grey levels from 0 to 16, each labelled with the
        digit it shows.
        """,
    ),
    code(
        "data_load",
        """
        digits = load_digits()
        print(digits.data.shape, digits.target.shape)  # 1797 images as rows of 64 pixels
        print(digits.target[:10])
        """,
    ),
    code(
        "data_show",
        """
        fig, axes = plt.subplots(1, 10, figsize=(10, 1.4))
        for ax, image, label in zip(axes, digits.images, digits.target):
            ax.imshow(image, cmap="gray_r")
            ax.set_title(str(label))
            ax.axis("off")
        plt.show()
        """,
    ),
    md(
        "data_split",
        """
        The images become a float32 tensor of 64 pixel values in [0, 1] per row, the labels an
        int64 tensor. Then a seeded shuffle splits them: 360 images are put aside as the **test
        set** and never used for training. A model can memorise the images it trains on; only
        images it has not seen show whether it learned to read digits.
        """,
    ),
    code(
        "data_tensors",
        """
        X = torch.tensor(digits.data, dtype=torch.float32) / 16.0
        Y = torch.tensor(digits.target)

        torch.manual_seed(0)
        order = torch.randperm(len(Y))
        x_test, y_test = X[order[:360]], Y[order[:360]]
        x_train, y_train = X[order[360:]], Y[order[360:]]
        print("train:", tuple(x_train.shape), y_train.dtype, " test:", tuple(x_test.shape))
        print("test images per digit:", [int((y_test == d).sum()) for d in range(10)])
        """,
    ),
    # ------------------------------------------------------------------ model
    md(
        "model_intro",
        """
        ## 2. A model

        `nn.Linear(n_in, n_out)` computes `x @ W.T + b`; its weight `W` (shape `(n_out, n_in)`) and
        bias `b` are `nn.Parameter`s: leaves that require grad, created with random values.
        `nn.Sequential` applies its layers one after the other. Between two linear layers there
        must be a nonlinearity such as `nn.ReLU()` or `nn.Tanh()`: two linear maps in a row are
        just one linear map. The output has one number per class, the **logits**; the largest
        one is the prediction.
        """,
    ),
    code(
        "model_demo",
        """
        demo = nn.Sequential(nn.Linear(64, 16), nn.ReLU(), nn.Linear(16, 10))
        print(demo)
        for name, p in demo.named_parameters():
            print(f"{name:9} {str(tuple(p.shape)):9} leaf={p.is_leaf} requires_grad={p.requires_grad}")
        logits = demo(x_train[:5])
        print("logits:", tuple(logits.shape), " predictions:", logits.argmax(dim=1).tolist())
        """,
    ),
    md(
        "ex1_text",
        """
        ### Exercise 1 (3 points) — the model

        Write `make_model()`: it returns a **new** model each time it is called, mapping a batch
        of shape `(n, 64)` to logits of shape `(n, 10)`, with at least one hidden layer and a
        nonlinearity. Keep it small (at most 100,000 parameters) so that training takes seconds:
        one hidden layer of 32 to 128 units is plenty. Its random starting weights must come from
        minigrad's random numbers (the `nn` layers draw them there), so that after
        `torch.manual_seed(s)` it always builds the same model: exercise 5 relies on it.
        """,
    ),
    answer(
        "ex1_answer",
        """
        def make_model():
            \"\"\"A new, untrained network: (n, 64) pixels -> (n, 10) logits.\"\"\"
            ### BEGIN SOLUTION
            return nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))
            ### END SOLUTION
        """,
        alternatives=[
            # A Module subclass, tanh, two hidden layers.
            """
            class DigitNet(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.hidden = nn.Linear(64, 48)
                    self.middle = nn.Linear(48, 24)
                    self.out = nn.Linear(24, 10)

                def forward(self, x):
                    return self.out(torch.tanh(self.middle(torch.tanh(self.hidden(x)))))


            def make_model():
                return DigitNet()
            """,
            # Log-probabilities out (cross_entropy of them is the same loss), with nn.LogSoftmax()
            # left without dim: right for a batch of rows, but it warns, as in PyTorch, each time a
            # new line of code calls the model; the test cells that call it silence the warning.
            """
            def make_model():
                return nn.Sequential(nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 10), nn.LogSoftmax())
            """,
        ],
        mistakes=[
            # No hidden layer: a linear model (which, on these digits, still learns well).
            mistake(
                """
                def make_model():
                    return nn.Linear(64, 10)
                """,
                ["ex1_hidden"],
            ),
            # The same model at every call ("to be quick"): train(seed=1) run twice trains it on
            # from where the first run left it. Only ex1 loses points: ex5 is graded with a
            # correct make_model lent when train fails with this one.
            mistake(
                """
                import functools


                @functools.cache
                def make_model():
                    return nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))
                """,
                ["ex1_hidden"],
            ),
            # Starting weights from numpy's random numbers, which torch.manual_seed does not fix:
            # the same seed gives another run. Only ex1 loses points (ex5 is graded alone).
            mistake(
                """
                import numpy as np


                def make_model():
                    model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))
                    with torch.no_grad():
                        for p in model.parameters():
                            p.copy_(torch.tensor(np.random.normal(0.0, 0.1, tuple(p.shape)), dtype=torch.float32))
                    return model
                """,
                ["ex1_hidden"],
            ),
        ],
    ),
    tests(
        "ex1_visible",
        QUIET_IMPLICIT_DIM,
        """
        _m = make_model()
        check(isinstance(_m, nn.Module), f"make_model() should return an nn.Module, got {type(_m).__name__}")
        _out = _m(x_train[:5])
        check(tuple(_out.shape) == (5, 10), f"a batch of 5 images should give logits of shape (5, 10), got {tuple(_out.shape)}")
        _params = list(_m.parameters())
        check(len(_params) > 0 and all(p.requires_grad and p.is_leaf for p in _params), "the model's parameters should be leaves that require grad")
        print("make_model passes the visible tests.")
        """,
        points=1,
        needs=["ex1_answer"],
    ),
    tests(
        "ex1_hidden",
        QUIET_IMPLICIT_DIM,
        """
        # Graded (hidden tests): a new model per call, size, a nonlinearity, the seed.
        _m1, _m2 = make_model(), make_model()
        ### BEGIN HIDDEN TESTS
        _p1, _p2 = list(_m1.parameters()), list(_m2.parameters())
        check(_m1 is not _m2 and not any(a is b for a in _p1 for b in _p2), "each call must build new parameters")
        check(sum(p.numel() for p in _p1) <= 100_000, "the model has more than 100,000 parameters")
        check(tuple(_m1(x_test[:1]).shape) == (1, 10), "a single image gives logits of shape (1, 10)")
        with torch.no_grad():
            _u, _v = x_train[:20], x_train[20:40]
            _gap = _m1(_u + _v) - _m1(_u) - _m1(_v) + _m1(torch.zeros_like(_u))
        check(bool((_gap.abs() > 1e-4).any()), "the model is affine: it needs a nonlinearity between layers")
        torch.manual_seed(8)
        _s1 = make_model()
        torch.manual_seed(8)
        _s2 = make_model()
        check(
            all(torch.equal(_a, _b) for _a, _b in zip(_s1.parameters(), _s2.parameters())),
            "after the same torch.manual_seed, make_model() must build the same starting weights: "
            "draw them with minigrad's random numbers (the nn layers do)",
        )
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex1_answer"],
    ),
    # ------------------------------------------------------------------ one step
    md(
        "step_intro",
        """
        ## 3. One training step, and its graph

        For classification the loss is the **cross-entropy**: softmax turns the logits into
        probabilities, and the loss is the mean, over the batch, of −log(probability of the right
        class). `F.cross_entropy(logits, labels)` computes it in one operation. Its graph reaches
        every parameter, through one `AccumulateGrad` node per parameter:
        """,
    ),
    code(
        "step_graph",
        """
        xb, yb = x_train[:32], y_train[:32]
        loss = F.cross_entropy(demo(xb), yb)
        print(loss)
        viz.draw_backward(loss)
        """,
    ),
    md(
        "step_graph_cut",
        """
        (The pink "version 1" on each parameter is its random start: `nn.Linear` fills its
        parameters in place when it is made.) A big network has a big graph; `max_depth` draws
        only the nodes closest to the loss and sums up the rest in one box:
        """,
    ),
    code("step_graph_cut_draw", "viz.draw_backward(loss, max_depth=4)"),
    md(
        "step_update",
        """
        The step itself: `backward()` fills `.grad` of every parameter; `optimizer.step()`
        updates each parameter in place, under `no_grad`, so it stays a leaf; `zero_grad()` sets
        the gradients back to `None`, because the next `backward()` would otherwise add to them.
        """,
    ),
    code(
        "step_update_demo",
        """
        optimizer = torch.optim.SGD(demo.parameters(), lr=0.5)
        loss.backward()
        print("grad of the last bias:", demo[2].bias.grad)
        before = demo[2].bias.detach().clone()
        optimizer.step()
        print("change of the bias:   ", demo[2].bias.detach() - before)  # -0.5 * grad
        optimizer.zero_grad()
        print("after zero_grad:      ", demo[2].bias.grad, " still a leaf:", demo[2].bias.is_leaf)
        print("loss on the same batch:", loss.item(), "->", F.cross_entropy(demo(xb), yb).item())
        """,
    ),
    md(
        "ex2_text",
        f"""
        ### Exercise 2 (3 points) — predict the graph

        Without running it, answer three questions about this code:

        ```python
        {_block(EX2_CODE)}
        ```

        - `n_accumulate`: how many `AccumulateGrad` nodes does the graph of `loss` have?
        - `first_weight_grad_shape`: the shape of `net[0].weight.grad`, as a tuple;
        - `input_grad`: what `xb.grad` is afterwards (write `None`, or a shape as a tuple).
        """,
    ),
    answer(
        "ex2_answer",
        """
        # n_accumulate = number; first_weight_grad_shape = (..., ...); input_grad = None or a tuple
        ### BEGIN SOLUTION
        n_accumulate = 6
        first_weight_grad_shape = (20, 64)
        input_grad = None
        ### END SOLUTION
        """,
        alternatives=["n_accumulate = 6\nfirst_weight_grad_shape = torch.Size([20, 64])\ninput_grad = None"],
        mistakes=[
            # Counts the layers, and a transposed weight.
            mistake("n_accumulate = 3\nfirst_weight_grad_shape = (64, 20)\ninput_grad = None", ["ex2_hidden"]),
        ],
    ),
    tests(
        "ex2_visible",
        """
        for _name in ["n_accumulate", "first_weight_grad_shape", "input_grad"]:
            check(_name in globals(), f"{_name} is not defined: set it in the cell above")
        check(type(n_accumulate) is int, f"n_accumulate should be a whole number, got {n_accumulate!r}")
        check(
            isinstance(first_weight_grad_shape, tuple) and all(type(d) is int for d in first_weight_grad_shape),
            f"first_weight_grad_shape should be a tuple of ints, got {first_weight_grad_shape!r}",
        )
        check(input_grad is None or isinstance(input_grad, tuple), f"input_grad should be None or a tuple, got {input_grad!r}")
        print("Your answers have the right form. The graded tests check whether they are right.")
        """,
        points=1,
        needs=["ex2_answer"],
    ),
    tests(
        "ex2_hidden",
        """
        # Graded on the values (hidden tests).
        _answers = (n_accumulate, first_weight_grad_shape, input_grad)
        ### BEGIN HIDDEN TESTS
        """,
        EX2_RUN,
        """
        _net, _xb, _loss = _ex2_run()
        _count, _seen, _stack = 0, set(), [_loss.grad_fn]
        while _stack:
            _node = _stack.pop()
            if _node is None or id(_node) in _seen:
                continue
            _seen.add(id(_node))
            _count += hasattr(_node, "variable")  # the node of a leaf
            _stack.extend(n for n, _ in _node.next_functions)
        check_equal(_answers[0], _count, "n_accumulate is wrong")
        check_equal(_answers[1], tuple(_net[0].weight.grad.shape), "first_weight_grad_shape is wrong")
        check(_answers[2] is None and _xb.grad is None, "input_grad is wrong")
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex2_answer"],
    ),
    md(
        "ex3_text",
        """
        ### Exercise 3 (4 points) — `train_step`

        Write `train_step(model, optimizer, x, y)`: one step of gradient descent on the batch
        `(x, y)`, in this order:

        1. clear the gradients left by earlier steps (`optimizer.zero_grad()`);
        2. compute the loss, `F.cross_entropy(model(x), y)`;
        3. `backward()`;
        4. `optimizer.step()`;
        5. return the loss as a Python number (`loss.item()`), the value **before** the update.

        Use the optimizer you are given; do not make a new one.
        """,
    ),
    answer(
        "ex3_answer",
        """
        def train_step(model, optimizer, x, y):
            \"\"\"One update of model's parameters on the batch (x, y); returns the loss before it.\"\"\"
            ### BEGIN SOLUTION
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            return loss.item()
            ### END SOLUTION
        """,
        alternatives=[
            # The model clears the gradients; the loss as a module; float() instead of item().
            """
            loss_fn = nn.CrossEntropyLoss()


            def train_step(model, optimizer, x, y):
                model.zero_grad()
                loss = loss_fn(model(x), y)
                loss.backward()
                optimizer.step()
                return float(loss)
            """,
        ],
        # Each mistake costs ex3 only, although train uses it: ex5 is graded with a correct
        # train_step (and make_model) lent when train fails with the student's.
        mistakes=[
            # Its own optimizer, made anew at every call; plain SGD trains too slowly for 90 %.
            mistake(
                """
                def train_step(model, optimizer, x, y):
                    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
                    optimizer.zero_grad()
                    loss = F.cross_entropy(model(x), y)
                    loss.backward()
                    optimizer.step()
                    return loss.item()
                """,
                ["ex3_hidden"],
            ),
            # A new optimizer of the same kind at every call: right for plain SGD, but Adam
            # forgets its running averages at every step.
            mistake(
                """
                def train_step(model, optimizer, x, y):
                    fresh = type(optimizer)(model.parameters(), **optimizer.defaults)
                    fresh.zero_grad()
                    loss = F.cross_entropy(model(x), y)
                    loss.backward()
                    fresh.step()
                    return loss.item()
                """,
                ["ex3_hidden"],
            ),
            # Never clears .grad: each step uses the sum of all gradients so far.
            mistake(
                """
                def train_step(model, optimizer, x, y):
                    loss = F.cross_entropy(model(x), y)
                    loss.backward()
                    optimizer.step()
                    return loss.item()
                """,
                ["ex3_hidden"],
            ),
        ],
    ),
    tests(
        "ex3_visible",
        QUIET_SCALAR_OF_GRAD,
        """
        torch.manual_seed(3)
        _model = nn.Sequential(nn.Linear(64, 8), nn.ReLU(), nn.Linear(8, 10))
        _opt = torch.optim.SGD(_model.parameters(), lr=0.1)
        _x, _y = x_train[:64], y_train[:64]
        with torch.no_grad():
            _before = F.cross_entropy(_model(_x), _y).item()
        _weight = _model[0].weight.detach().clone()
        _loss = train_step(_model, _opt, _x, _y)
        check(type(_loss) is float, f"train_step should return a Python float (loss.item()), got {type(_loss).__name__}")
        check_close(_loss, _before, "train_step should return the loss before the update: cross_entropy(model(x), y)", atol=1e-5)
        check(bool((_model[0].weight != _weight).any()), "the parameters did not change: call optimizer.step()")
        check(_model[0].weight.is_leaf, "the weights must stay leaves: let the optimizer update them")
        for _ in range(4):
            _last = train_step(_model, _opt, _x, _y)
        check(_last < _before, f"after 5 steps on the same batch the loss should be lower than {_before:.4f}, got {_last:.4f}")
        print("train_step passes the visible tests.")
        """,
        points=1,
        needs=["ex3_answer"],
    ),
    tests(
        "ex3_hidden",
        QUIET_SCALAR_OF_GRAD,
        """
        # Graded (hidden tests): stale gradients, the exact update, the optimizer given (kept across steps).
        torch.manual_seed(4)
        _a = nn.Sequential(nn.Linear(64, 6), nn.Tanh(), nn.Linear(6, 10))
        _b = nn.Sequential(nn.Linear(64, 6), nn.Tanh(), nn.Linear(6, 10))
        _b.load_state_dict(_a.state_dict())
        _smoke = train_step(_a, torch.optim.SGD(_a.parameters(), lr=0.0), x_train[:4], y_train[:4])
        ### BEGIN HIDDEN TESTS
        for _p in _a.parameters():
            _p.grad = torch.full_like(_p, 3.0)  # left over from an earlier step
        _opt = torch.optim.SGD(_a.parameters(), lr=0.2)
        _got = train_step(_a, _opt, x_train[16:48], y_train[16:48])
        _ref = F.cross_entropy(_b(x_train[16:48]), y_train[16:48])
        _ref.backward()
        with torch.no_grad():
            for _p in _b.parameters():
                _p -= 0.2 * _p.grad
        check_close(_got, _ref.item(), "returned loss with stale gradients", atol=1e-5)
        for (_name, _p), _q in zip(_a.named_parameters(), _b.parameters()):
            check_close(_p, _q, f"parameter {_name} after one step from stale gradients", atol=1e-5)
        _adam = torch.optim.Adam(_a.parameters(), lr=0.05)
        _first = train_step(_a, _adam, x_train[:128], y_train[:128])
        for _ in range(10):
            _later = train_step(_a, _adam, x_train[:128], y_train[:128])
        check(_later < _first, "ten Adam steps on one batch must lower its loss")
        # The same eleven steps with one Adam: it keeps running averages from step to step.
        _ref_adam = torch.optim.Adam(_b.parameters(), lr=0.05)
        for _ in range(11):
            _ref_adam.zero_grad()
            F.cross_entropy(_b(x_train[:128]), y_train[:128]).backward()
            _ref_adam.step()
        for (_name, _p), _q in zip(_a.named_parameters(), _b.parameters()):
            check_close(
                _p,
                _q,
                f"parameter {_name} after eleven steps with one Adam: use the optimizer you are given at "
                "every step (a new one forgets what Adam keeps between steps)",
                atol=1e-5,
            )
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex3_answer"],
    ),
    md(
        "ex4_text",
        """
        ### Exercise 4 (3 points) — `accuracy`

        Write `accuracy(model, x, y)`: the fraction of the rows of `x` for which the largest
        logit is at the right label `y`, as a Python float between 0 and 1. Nothing here needs a
        gradient: compute it under `torch.no_grad()`, so no graph is recorded. Use all the rows
        of `x`.
        """,
    ),
    answer(
        "ex4_answer",
        """
        def accuracy(model, x, y):
            \"\"\"The fraction of the rows of x that model classifies as y (a float in [0, 1]).\"\"\"
            ### BEGIN SOLUTION
            with torch.no_grad():
                predictions = model(x).argmax(dim=1)
            return (predictions == y).float().mean().item()
            ### END SOLUTION
        """,
        alternatives=[
            """
            @torch.no_grad()
            def accuracy(model, x, y):
                correct = int((model(x).max(dim=1).indices == y).sum())
                return correct / len(y)
            """,
            """
            @torch.no_grad()
            def accuracy(model, x, y):
                hits = [int(p == t) for p, t in zip(model(x).argmax(1).tolist(), y.tolist())]
                return float(sum(hits) / len(hits))
            """,
        ],
        mistakes=[
            # Only the first 64 rows, "to be quick".
            mistake(
                """
                def accuracy(model, x, y):
                    with torch.no_grad():
                        predictions = model(x[:64]).argmax(dim=1)
                    return (predictions == y[:64]).float().mean().item()
                """,
                ["ex4_hidden"],
            ),
            # Only the first 256 rows: more than the 100-row batch, still not all of x.
            mistake(
                """
                import numpy as np


                def accuracy(model, x, y):
                    with torch.no_grad():
                        return float(np.mean(model(x[:256]).argmax(dim=-1).numpy() == y[:256].numpy()))
                """,
                ["ex4_hidden"],
            ),
            # The largest logit's value, not its index: only ex4 may lose points (exercise 5
            # measures the accuracy with the grader's own code).
            mistake(
                """
                def accuracy(model, x, y):
                    with torch.no_grad():
                        return (model(x).max(dim=1)[0] == y).float().mean().item()
                """,
                ["ex4_visible", "ex4_hidden"],
            ),
        ],
    ),
    tests(
        "ex4_visible",
        """
        _lin = nn.Linear(2, 3)
        with torch.no_grad():
            _lin.weight.copy_(torch.tensor([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]))
            _lin.bias.zero_()
        _x = torch.tensor([[2.0, 1.0], [0.0, 3.0], [-1.0, -2.0], [1.0, 0.5]])
        _y = torch.tensor([0, 1, 2, 1])  # the model predicts 0, 1, 2, 0: three of four right
        _acc = accuracy(_lin, _x, _y)
        check(type(_acc) is float, f"accuracy should return a Python float, got {type(_acc).__name__}")
        check_close(_acc, 0.75, "three of the four rows are classified right")
        print("accuracy passes the visible tests.")
        """,
        points=1,
        needs=["ex4_answer"],
    ),
    tests(
        "ex4_hidden",
        """
        # Graded (hidden tests): other batch sizes, all right, none right.
        _smoke = accuracy(nn.Linear(64, 10), x_test[:2], y_test[:2])
        ### BEGIN HIDDEN TESTS
        _pick = nn.Linear(3, 3)
        with torch.no_grad():
            _pick.weight.copy_(torch.eye(3))
            _pick.bias.zero_()
        _rows = torch.eye(3)[torch.tensor([0, 1, 2, 0] * 25)]
        _labels = torch.tensor([0, 1, 2, 0] * 16 + [1, 2, 0, 1] * 9)
        check_close(accuracy(_pick, _rows, _labels), 0.64, "a batch of 100 rows, 64 right", atol=1e-6)
        check_close(accuracy(_pick, _rows[:1], _labels[:1]), 1.0, "a single row")
        check_close(accuracy(_pick, _rows[64:], _labels[64:]), 0.0, "a batch with no row right")
        # Larger than any "first N rows, to be quick" cut: only the last 300 rows are wrong.
        _many = torch.eye(3)[torch.arange(1500) % 3]
        _many_labels = torch.cat([torch.arange(1200) % 3, (torch.arange(1200, 1500) + 1) % 3])
        check_close(accuracy(_pick, _many, _many_labels), 0.8, "1,500 rows, the last 300 wrong", atol=1e-6)
        _p = next(_pick.parameters())
        check(_p.grad is None, "accuracy must not compute gradients")
        ### END HIDDEN TESTS
        """,
        points=2,
        needs=["ex4_answer"],
    ),
    # ------------------------------------------------------------------ training
    md(
        "train_intro",
        """
        ## 4. Training

        Training repeats `train_step` over **mini-batches**: an *epoch* is one pass over the
        training set in batches of, say, 64 images, reshuffled each epoch (`torch.randperm`) so
        the batches differ every time. Adam with a learning rate of about 0.01 trains this kind
        of model in a few epochs. `plot_losses` draws the loss of every step:
        """,
    ),
    code(
        "plot_helper",
        """
        def plot_losses(losses, title="training loss"):
            fig, ax = plt.subplots(figsize=(7, 3))
            ax.plot(losses, linewidth=1)
            ax.set_xlabel("step")
            ax.set_ylabel("cross-entropy")
            ax.set_title(title)
            plt.show()
        """,
    ),
    md(
        "ex5_text",
        """
        ### Exercise 5 (4 points) — train to 90 %

        Write `train(x, y, seed=0)`: seed minigrad's random numbers with `seed` (so the same seed
        gives the same run), make a model with `make_model()` and an optimizer, train it on
        `(x, y)` with your `train_step`, and return `(model, losses)`, where `losses` is the list
        of the losses of all steps. The cell then trains on the training set and plots the loss.

        The goal: **at least 90 % accuracy on the test set**. The hidden tests train again with
        another seed on part of the training data, and check the accuracy and that the same seed
        gives the same losses. Keep it quick: a few seconds.
        """,
    ),
    answer(
        "ex5_answer",
        _train(TRAIN_SOLUTION),
        alternatives=[
            _train(
                """
                def train(x, y, seed=0):
                    torch.manual_seed(seed)
                    model = make_model()
                    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
                    losses = []
                    for epoch in range(10):
                        shuffled = torch.randperm(x.shape[0])
                        for i in range(0, x.shape[0], 64):
                            batch = shuffled[i : i + 64]
                            losses.append(train_step(model, optimizer, x[batch], y[batch]))
                    return model, losses
                """
            ),
            _train(
                """
                from minigrad.utils.data import DataLoader, TensorDataset


                def train(x, y, seed=0):
                    torch.manual_seed(seed)
                    model = make_model()
                    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
                    loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)
                    losses = []
                    for epoch in range(8):
                        for xb, yb in loader:
                            losses.append(train_step(model, optimizer, xb, yb))
                    return model, losses
                """
            ),
        ],
        mistakes=[
            # Not seeded: each call trains differently.
            mistake(
                _train(
                    """
                    def train(x, y, seed=0):
                        model = make_model()
                        optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
                        losses = []
                        for epoch in range(8):
                            order = torch.randperm(len(y))
                            for start in range(0, len(y), 64):
                                batch = order[start : start + 64]
                                losses.append(train_step(model, optimizer, x[batch], y[batch]))
                        return model, losses
                    """
                ),
                ["ex5_hidden"],
            ),
            # One pass with a learning rate far too small: wrong however right make_model and
            # train_step are (correct ones are lent when train fails, and it fails with them too).
            mistake(
                _train(
                    """
                    def train(x, y, seed=0):
                        torch.manual_seed(seed)
                        model = make_model()
                        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
                        losses = []
                        order = torch.randperm(len(y))
                        for start in range(0, len(y), 64):
                            batch = order[start : start + 64]
                            losses.append(train_step(model, optimizer, x[batch], y[batch]))
                        return model, losses
                    """
                ),
                ["ex5_visible", "ex5_hidden"],
            ),
        ],
    ),
    tests(
        "ex5_visible",
        QUIET_SCALAR_OF_GRAD,
        IMPLICIT_DIM_FILTER,
        """
        from coursetools.engine_checks import graded_alone


        def _visible():
            _model, _losses = train(x_train, y_train, seed=0)
            check(type(_losses) is list and len(_losses) > 0, "train should return (model, losses) with one loss per step")
            with torch.no_grad():  # measured here, not with your accuracy(): a slip there costs exercise 4 only
                _acc = (_model(x_test).argmax(dim=1) == y_test).float().mean().item()
            check(
                _acc >= 0.90,
                f"test accuracy {_acc:.3f} is below 0.90: train longer, change the learning rate, or widen the model",
            )


        # When your train fails with your make_model and train_step, it is tried with correct ones
        # (exercises 1 and 3 grade yours).
        graded_alone(globals(), ("make_model", "train_step"), _visible)
        print("train reaches 90 % test accuracy: it passes the visible tests.")
        """,
        points=1,
        needs=["ex5_answer"],  # graded alone: a correct make_model and train_step are lent when the student's fail
    ),
    tests(
        "ex5_hidden",
        QUIET_SCALAR_OF_GRAD,
        IMPLICIT_DIM_FILTER,
        """
        from coursetools.engine_checks import graded_alone

        # Graded (hidden tests): trained again with another seed on part of the data, twice.
        # As above, a correct make_model and train_step are lent when train fails with yours.
        graded_alone(globals(), ("make_model", "train_step"), lambda: train(x_train[:64], y_train[:64], seed=1))
        ### BEGIN HIDDEN TESTS


        def _hidden():
            _model, _losses = train(x_train[:1200], y_train[:1200], seed=1)
            with torch.no_grad():
                _acc = (_model(x_test).argmax(dim=1) == y_test).float().mean().item()
            check(_acc >= 0.90, f"trained again (seed 1, 1200 images): test accuracy only {_acc:.3f}")
            _model2, _losses2 = train(x_train[:1200], y_train[:1200], seed=1)
            check_close(_losses2, _losses, "two runs with seed 1 must give the same losses", atol=1e-6)
            check(sum(_losses[-5:]) < sum(_losses[:5]), "the loss of the last steps must be below that of the first")


        graded_alone(globals(), ("make_model", "train_step"), _hidden)
        ### END HIDDEN TESTS
        """,
        points=3,
        needs=["ex5_answer"],  # graded alone: a correct make_model and train_step are lent when the student's fail
    ),
    # ------------------------------------------------------------------ GPU
    md(
        "gpu_intro",
        """
        ## 5. The same code on a GPU

        minigrad runs on an NVIDIA GPU through CuPy: `model.to("cuda")` moves the parameters
        (each stays the same leaf, only its data moves), and tensors made on or moved to
        `"cuda"` compute there. Nothing else changes: the same `train_step` and `accuracy` work
        unchanged. On a machine without a GPU the cell says so and skips the run. (A network
        this small is no faster on a GPU: each step is too little work to keep it busy.)
        """,
    ),
    code(
        "gpu_run",
        """
        if torch.cuda.is_available():
            try:
                torch.manual_seed(0)
                gpu_model = make_model().to("cuda")
                gpu_optimizer = torch.optim.Adam(gpu_model.parameters(), lr=0.01)
                gx, gy = x_train.to("cuda"), y_train.to("cuda")
                start = time.perf_counter()
                for epoch in range(8):
                    shuffle = torch.randperm(len(gy), device="cuda")
                    for i in range(0, len(gy), 64):
                        batch = shuffle[i : i + 64]
                        train_step(gpu_model, gpu_optimizer, gx[batch], gy[batch])
                torch.cuda.synchronize()
                seconds = time.perf_counter() - start
                gpu_accuracy = accuracy(gpu_model, x_test.to("cuda"), y_test.to("cuda"))
                print(f"on {torch.cuda.get_device_name()}: {seconds:.1f} s, test accuracy {gpu_accuracy:.3f}")
                print("a weight is on", next(gpu_model.parameters()).device)
            except NotImplementedError:
                print("Finish make_model, train_step and accuracy above first.")
        else:
            print(f"No GPU here, so the GPU run is skipped: {torch.cuda.unavailable_reason()}")
        """,
    ),
    # ------------------------------------------------------------------ written
    question(
        "ex6_question",
        """
        ### Exercise 6 (3 points, graded by hand) — what a loss keeps alive

        `train_step` returns `loss.item()`, a plain Python number. Suppose it returned `loss`
        itself, and `train` appended these tensors to `losses` over 1,000 steps.

        1. What would each tensor in the list keep alive, and why would memory grow with every
           step? (Think of what `loss.grad_fn` leads to.)
        2. Why is the accuracy that counts measured on the 360 test images rather than on the
           training images?

        A few sentences each.
        """,
    ),
    written(
        "ex6_answer",
        """
        1. A loss tensor keeps its `grad_fn`, and through `next_functions` the whole graph of its
           step: every node of the forward pass, and whatever those nodes saved for backward
           that was not freed (activations of the batch, and tensors kept by nodes that
           `backward()` did not visit). So the list holds one graph per step, and memory grows
           with every step until the list is dropped. `loss.item()` (or `loss.detach()`) keeps
           only the number, and the graph is freed when the step ends.
        2. The model is fitted to the training images, so its accuracy there says how well it
           memorised them; it can be near 100 % while new images are misread (overfitting). The
           test images took no part in training, so their accuracy estimates how the model does
           on digits it has never seen, which is what we want it for.
        """,
        points=3,
    ),
    md(
        "summary",
        """
        ## Summary

        - A model's parameters are leaves that require grad; the loss's graph reaches each one
          through an `AccumulateGrad` node, and `backward()` fills their `.grad`.
        - A training step: clear the gradients, compute the loss, `backward()`, `step()`; keep
          the loss as a number with `.item()`, so each step's graph is freed.
        - Accuracy is measured under `no_grad()` on data the model never trained on.
        - The same code runs on a GPU: only where the tensors live changes.

        This is the end of the course: you have seen what `backward()` does, drawn it, hooked
        into it, turned it off, differentiated it twice, rebuilt it, and now trained a network
        with it. Before you hand in: *Kernel → Restart Kernel and Run All Cells*.
        """,
    ),
]
