"""The Tensor surface against PyTorch: in-place forms of existing ops (the node each records, the
version counter, leaf/view/saved-tensor errors, dtype rules), the ``torch.X_`` function forms,
PyTorch's aliases, and metadata (strides, offsets, sizes, finfo/iinfo, constants, range, ...).
"""

from __future__ import annotations

import math
import warnings

import pytest

torch = pytest.importorskip("torch")

from oracle import Oracle, derivatives, node_names, same_error, values  # noqa: E402

import minigrad  # noqa: E402

pytestmark = pytest.mark.usefixtures("on_device")

same = Oracle(lambda t: (str(t.dtype), tuple(t.shape), values(t), t.requires_grad)).same

# Unary in-place methods and their arguments; the input lies where every one is defined.
UNARY = {
    "abs_": (),
    "absolute_": (),
    "ceil_": (),
    "floor_": (),
    "round_": (),
    "trunc_": (),
    "fix_": (),
    "sign_": (),
    "sin_": (),
    "cos_": (),
    "sqrt_": (),
    "rsqrt_": (),
    "square_": (),
    "reciprocal_": (),
    "log_": (),
    "log1p_": (),
    "expm1_": (),
    "erf_": (),
    "negative_": (),
    "logical_not_": (),
    "cumsum_": (1,),
    "cumprod_": (0,),
}


ZERO_GRADIENT = ("ceil_", "floor_", "round_", "trunc_", "fix_", "sign_")


def _a(lib, dtype=None):
    return lib.tensor([[0.3, 1.6, 2.5], [0.7, 0.0, 1.2]], dtype=dtype or lib.float64, requires_grad=True)


@pytest.mark.parametrize("name", UNARY)
def test_unary_inplace_records_the_node_of_torch_with_its_derivatives(name):
    def run(lib):
        a = _a(lib)
        x = a * 1
        out = getattr(x, name)(*UNARY[name])
        assert out is x
        assert x._version == 1
        # (rounding has a zero gradient that PyTorch does not differentiate again)
        graph = derivatives(lib, x, [a], second=name not in ZERO_GRADIENT)
        return graph, x.requires_grad, x.is_leaf

    same(run)


def test_round_with_decimals_and_cumulative_dtypes():
    def run(lib):
        a = _a(lib)
        x, y = a * 1.2345, a * 1
        x.round_(decimals=2)
        y.cumsum_(0, dtype=lib.float64)
        z = lib.tensor([1, 2, 3]).cumprod_(0)
        return x, node_names(x), y, node_names(y), z

    same(run)
    same_error(lambda lib: (_a(lib) * 1).cumsum_(0, dtype=lib.float32), "Bad in-place call", "should match")


@pytest.mark.parametrize("name", ["sqrt_", "sin_", "reciprocal_", "rsqrt_", "log_", "erf_", "expm1_", "log1p_", "cos_"])
def test_float_results_cannot_be_written_into_an_integer_tensor(name):
    same_error(lambda lib: getattr(lib.tensor([1, 2]), name)(), "result type Float can't be cast", "Long")


@pytest.mark.parametrize(
    "name", ["abs_", "ceil_", "floor_", "round_", "trunc_", "sign_", "square_", "negative_", "logical_not_"]
)
def test_integer_tensors_stay_integer(name):
    def run(lib):
        x = lib.tensor([-2, 0, 3])
        return getattr(x, name)(), x._version

    same(run)


def test_bool_tensors_as_torch():
    def run(lib):
        return lib.tensor([True, False]).logical_not_(), lib.tensor([True, False]).sign_()

    same(run)
    same_error(lambda lib: lib.tensor([True]).abs_(), "not implemented for 'Bool'")
    same_error(lambda lib: lib.tensor([True]).ceil_(), "not implemented for 'Bool'")
    same_error(lambda lib: lib.tensor([True]).square_(), "result type Long can't be cast", "Bool")
    same_error(lambda lib: lib.tensor([True]).negative_(), "Negation, the `-` operator, on a bool tensor")


@pytest.mark.parametrize("name", ["sin_", "abs_", "ge_", "addmm_", "divide_"])
def test_a_leaf_that_requires_grad_cannot_change_in_place(name):
    args = {"ge_": (1.0,), "addmm_": ("eye", "eye"), "divide_": (2.0,)}.get(name, ())

    def run(lib):
        a = lib.ones(2, 2, requires_grad=True)
        getattr(a, name)(*[lib.eye(2) if x == "eye" else x for x in args])

    same_error(run, "a leaf Variable that requires grad is being used in an in-place operation.")


def test_in_place_under_no_grad_changes_a_leaf_without_recording():
    def run(lib):
        a = _a(lib)
        with lib.no_grad():
            a.sin_().ge_(0.5)
        return a, a.is_leaf, a._version

    same(run)


def test_changing_a_saved_tensor_in_place_breaks_backward():
    def saved_input(lib):
        a = _a(lib)
        b = a * 1
        c = b * b  # saves b
        b.cos_()
        c.sum().backward()

    def saved_result(lib):
        a = _a(lib)
        x = a * 1
        x.sqrt_()  # saves its result: x itself
        x.reciprocal_()
        x.sum().backward()

    for run in (saved_input, saved_result):
        same_error(
            run, "one of the variables needed for gradient computation has been modified by an inplace operation"
        )


def test_a_saved_result_is_the_tensor_itself():
    def run(lib):
        a = _a(lib)
        x = a * 1
        x.sqrt_()
        y = a * 1
        y.sin_()
        return x.grad_fn._saved_result, x.grad_fn._saved_result._version, y.grad_fn._saved_self

    same(run)


def test_in_place_on_a_view_records_copy_slices_on_its_base():
    def run(lib):
        a = _a(lib)
        y = a * 1
        y[0].sin_()
        y[:, 1].ge_(0.5)
        return derivatives(lib, y, [a])

    same(run)


# ----------------------------------------------------------------------------------------------
# Binary in-place: comparisons, divisions, aliases of mul_/sub_/div_
# ----------------------------------------------------------------------------------------------

COMPARISONS = [
    "eq_",
    "ne_",
    "lt_",
    "le_",
    "gt_",
    "ge_",
    "greater_",
    "greater_equal_",
    "less_",
    "less_equal_",
    "not_equal_",
]


@pytest.mark.parametrize("name", COMPARISONS)
@pytest.mark.parametrize("other", ["number", "tensor", "0-d tensor", "leaf tensor", "broadcast int tensor"])
def test_comparisons_in_place_write_ones_and_zeros_with_a_zero_gradient(name, other):
    def run(lib):
        a = _a(lib)
        b = lib.tensor([[0.3, 1.0, 2.5]], dtype=lib.float32, requires_grad=True)
        others = {
            "number": 1.2,
            "tensor": b.detach(),
            "0-d tensor": lib.tensor(1.2),
            "leaf tensor": b,
            "broadcast int tensor": lib.tensor([0, 2, 2]),
        }
        x = a * 1
        getattr(x, name)(others[other])
        inputs = [a, b] if other == "leaf tensor" else [a]
        return x._version, derivatives(lib, x, inputs, second=False)

    same(run)


@pytest.mark.parametrize("name", ["eq_", "lt_", "ge_"])
def test_comparisons_in_place_keep_the_dtype_of_integer_and_bool_tensors(name):
    def run(lib):
        ints, bools = lib.tensor([1, 2, 3]), lib.tensor([True, False, True])
        getattr(ints, name)(2.5)
        getattr(bools, name)(lib.tensor([1, 0, 0]))
        return ints, bools

    same(run)


def test_comparisons_in_place_cannot_change_the_shape():
    same_error(lambda lib: lib.zeros(3).ge_(lib.zeros(2, 3)), "doesn't match the broadcast shape")


@pytest.mark.parametrize(
    "name, args, kwargs",
    [
        ("floor_divide_", (2.0,), {}),
        ("true_divide_", (3.0,), {}),
        ("divide_", ("b",), {}),
        ("divide_", ("b",), {"rounding_mode": "floor"}),
        ("multiply_", ("b",), {}),
        ("subtract_", ("b",), {"alpha": 2}),
        ("subtract_", (1.5,), {}),
    ],
)
def test_division_and_the_aliases_of_mul_sub_div_in_place(name, args, kwargs):
    def run(lib):
        a = _a(lib)
        b = lib.tensor([1.5, 2.0, -0.5], dtype=lib.float64, requires_grad=True)
        x = a * 1
        getattr(x, name)(*[b if v == "b" else v for v in args], **kwargs)
        if name == "floor_divide_":  # not differentiable in PyTorch (NotImplemented)
            return x, node_names(x)
        return derivatives(lib, x, [a, b] if "b" in args else [a], second="rounding_mode" not in kwargs)

    same(run)


@pytest.mark.parametrize("name", ["true_divide_", "divide_", "multiply_", "subtract_", "floor_divide_"])
def test_integer_division_and_products_in_place(name):
    def run(lib):
        x = lib.tensor([7, -3])
        return getattr(x, name)(2)

    if name in ("true_divide_", "divide_"):
        same_error(run, "result type Float can't be cast to the desired output type Long")
    else:
        same(run)
    same_error(lambda lib: getattr(lib.tensor([7, 3]), name)(2.5), "result type Float can't be cast")


def test_floor_divide_in_place_cannot_be_differentiated():
    def run(lib):
        a = _a(lib)
        x = a * 1
        x.floor_divide_(2)
        x.sum().backward()

    same_error(run, "derivative for", "floor_divide", "is not implemented")


# ----------------------------------------------------------------------------------------------
# addmm_ and the other matrix products in place
# ----------------------------------------------------------------------------------------------

MATMUL = {
    "addmm_": ((3, 4), (3, 2), (2, 4)),
    "addmv_": ((3,), (3, 2), (2,)),
    "addr_": ((3, 4), (3,), (4,)),
    "baddbmm_": ((2, 3, 4), (2, 3, 5), (2, 5, 4)),
    "addbmm_": ((3, 4), (2, 3, 5), (2, 5, 4)),
}


@pytest.mark.parametrize("beta, alpha", [(1, 1), (0.5, 2.0)])
@pytest.mark.parametrize("name", MATMUL)
def test_matrix_products_in_place(name, beta, alpha):
    def run(lib):
        shapes = MATMUL[name]
        n = [math.prod(s) for s in shapes]
        leaves = [
            (lib.arange(float(k), dtype=lib.float64) / 7 - 0.3 * i).reshape(s).requires_grad_()
            for i, (k, s) in enumerate(zip(n, shapes))
        ]
        x = leaves[0] * 1
        getattr(x, name)(leaves[1], leaves[2], beta=beta, alpha=alpha)
        return x._version, derivatives(lib, x, leaves)

    same(run)


def test_matrix_products_in_place_cannot_broadcast_back():
    same_error(lambda lib: lib.ones(3, 1).addmm_(lib.ones(3, 3), lib.ones(3, 3)), "Bad in-place call", "[3, 1]")


# ----------------------------------------------------------------------------------------------
# torch.X_ function forms
# ----------------------------------------------------------------------------------------------

FUNCTION_FORMS = {
    "abs_": (),
    "ceil_": (),
    "floor_": (),
    "round_": (),
    "trunc_": (),
    "fix_": (),
    "sin_": (),
    "cos_": (),
    "sinh_": (),
    "cosh_": (),
    "asin_": (),
    "acos_": (),
    "atan_": (),
    "arcsin_": (),
    "arccos_": (),
    "arctan_": (),
    "asinh_": (),
    "arcsinh_": (),
    "atanh_": (),
    "arctanh_": (),
    "acosh_": (),
    "arccosh_": (),
    "sqrt_": (),
    "rsqrt_": (),
    "square_": (),
    "reciprocal_": (),
    "exp_": (),
    "exp2_": (),
    "expm1_": (),
    "log_": (),
    "log2_": (),
    "log10_": (),
    "log1p_": (),
    "erf_": (),
    "frac_": (),
    "neg_": (),
    "negative_": (),
    "relu_": (),
    "sigmoid_": (),
    "tanh_": (),
    "sinc_": (),
    "deg2rad_": (),
    "rad2deg_": (),
    "logit_": (0.1,),
    "nan_to_num_": (0.0, 1.0),
    "xlogy_": (2.0,),
    "clamp_": (0.4, 0.8),
    "clip_": (0.4,),
    "clamp_min_": (0.5,),
    "clamp_max_": (0.5,),
    "fill_": (2.5,),
    "zero_": (),
}


NOT_DIFFERENTIABLE_IN_PLACE = ("asinh", "arcsinh", "acosh", "arccosh", "atanh", "arctanh")


@pytest.mark.parametrize("name", FUNCTION_FORMS)
def test_torch_function_forms_of_in_place_methods(name):
    def run(lib):
        a = lib.tensor([0.2, 0.5, 0.9], dtype=lib.float64, requires_grad=True)
        x = (a + 1) if name in ("acosh_", "arccosh_") else a * 1
        out = getattr(lib, name)(x, *FUNCTION_FORMS[name])
        assert out is x
        if name[:-1] in NOT_DIFFERENTIABLE_IN_PLACE:  # PyTorch: AsinhBackward1 and the like raise
            return x._version, node_names(x), x
        return x._version, node_names(x), x, lib.autograd.grad(x.sum(), a)

    same(run)


@pytest.mark.parametrize("name", ["sin_", "addmv_", "fill_", "detach_"])
def test_torch_function_forms_want_a_tensor(name):
    # (PyTorch words it differently where the function has several signatures)
    words = ("argument 'input'", "must be Tensor, not float") if name in ("sin_", "detach_") else ()
    same_error(lambda lib: getattr(lib, name)(3.0), *words)


def test_the_function_forms_cover_the_methods_torch_has_as_functions():
    for name in dir(torch):
        if name.endswith("_") and not name.startswith("_") and hasattr(minigrad.Tensor, name):
            assert hasattr(minigrad, name), name


def test_torch_addmv_detach_zero_and_fill_functions():
    def run(lib):
        a = _a(lib)
        y = lib.ones(2, dtype=lib.float64) * 1
        lib.addmv_(y, a, lib.ones(3, dtype=lib.float64), beta=2)
        x = a * 2
        d = lib.detach(x)
        lib.detach_(x)
        f = lib.fill(a, 3)
        g = lib.fill(a, lib.tensor(2.0, dtype=lib.float64, requires_grad=True))
        return y, node_names(y), d, x, x.is_leaf, f, node_names(f), derivatives(lib, g, [a], second=False)

    same(run)
    same_error(lambda lib: lib.fill(lib.ones(2), lib.ones(2)), "fill_ only supports 0-dimension value tensor")


def test_fill_of_an_integer_tensor_and_threshold():
    def run(lib):
        a = _a(lib)
        t = lib.threshold(a, 1.0, 5.0)
        x = a * 1
        lib.threshold_(x, 1.0, -1.0)
        return lib.fill(lib.tensor([1, 2]), 2.7), t, node_names(t), x, node_names(x)

    same(run)


# ----------------------------------------------------------------------------------------------
# Aliases
# ----------------------------------------------------------------------------------------------

ALIASES = {
    "absolute": lambda lib, a, b: lib.absolute(a - 1),
    "divide": lambda lib, a, b: lib.divide(a, b),
    "multiply": lambda lib, a, b: a.multiply(b),
    "subtract": lambda lib, a, b: lib.subtract(a, b, alpha=2),
    "negative": lambda lib, a, b: a.negative(),
    "positive": lambda lib, a, b: lib.positive(a) * 1,
    "true_divide": lambda lib, a, b: lib.true_divide(a, b),
    "ravel of a transpose": lambda lib, a, b: a.t().ravel(),
    "ravel": lambda lib, a, b: lib.ravel(a * 1),
    "msort": lambda lib, a, b: lib.msort(a),
    "concatenate": lambda lib, a, b: lib.concatenate([a, b.expand(2, 3)], axis=1),
    "concatenate with dim": lambda lib, a, b: lib.concatenate([a, b.expand(2, 3)], dim=0),
    "adjoint": lambda lib, a, b: a.adjoint(),
    "adjoint of a batch": lambda lib, a, b: lib.adjoint(a.unsqueeze(0)),
}


BINARY_ALIASES = ("divide", "multiply", "subtract", "true_divide", "concatenate", "concatenate with dim")


@pytest.mark.parametrize("name", ALIASES)
def test_aliases_record_what_torch_records(name):
    def run(lib):
        a = _a(lib)
        b = lib.tensor([1.5, 2.0, -0.5], dtype=lib.float64, requires_grad=True)
        out = ALIASES[name](lib, a, b)
        return derivatives(lib, out, [a, b] if name in BINARY_ALIASES else [a])

    same(run)


def test_rounding_aliases_have_a_zero_gradient():
    def run(lib):
        a = _a(lib)
        b = lib.tensor([1.5, 2.0, -0.5], dtype=lib.float64, requires_grad=True)
        fixed, floored = (a * 3 - 2).fix(), a.divide(b, rounding_mode="floor")
        return derivatives(lib, fixed, [a], second=False), derivatives(lib, floored, [a, b], second=False)

    same(run)


COMPARISON_ALIASES = ["greater", "greater_equal", "less", "less_equal", "not_equal"]


@pytest.mark.parametrize("name", COMPARISON_ALIASES)
def test_comparison_aliases(name):
    def run(lib):
        a = _a(lib)
        return (
            getattr(lib, name)(a, 1.2),
            getattr(a, name)(lib.tensor([0.3, 1, 2])),
            getattr(lib.tensor([1, 2]), name)(2),
        )

    same(run)


ALIAS_NAMES = (
    "absolute divide multiply subtract negative positive greater greater_equal less less_equal not_equal fix "
    "true_divide ravel msort concatenate adjoint is_floating_point is_nonzero is_signed is_neg resolve_neg "
    "is_inference fill threshold detach short finfo iinfo logspace range scalar_tensor result_type can_cast "
    "typename get_num_threads set_num_threads pi e inf nan newaxis"
).split()


@pytest.mark.parametrize("name", ALIAS_NAMES)
def test_the_names_exist_where_torch_has_them(name):
    assert hasattr(minigrad, name)
    assert hasattr(minigrad.Tensor, name) == hasattr(torch.Tensor, name), name


def test_alias_errors():
    same_error(lambda lib: lib.positive(lib.tensor([True])), "The `+` operator, on a bool tensor is not supported.")
    same_error(lambda lib: lib.arange(3.0).adjoint(), "only supported on matrices or batches of matrices", "1-D")
    same_error(lambda lib: lib.absolute(lib.tensor([True])), "not implemented for 'Bool'")


def test_adjoint_of_a_0d_tensor_warns_and_returns_it():
    for lib in (minigrad, torch):
        x = lib.tensor(3.0)
        with pytest.warns(UserWarning, match="adjoint\\(\\) is deprecated on 0-D tensors"):
            assert lib.adjoint(x) is x


def test_predicates():
    def run(lib):
        tensors = [
            lib.tensor(v, dtype=d) for v, d in [([1], lib.uint8), (True, lib.bool), (1.0, lib.float16), ([2], lib.int8)]
        ]
        x = lib.tensor([0.0])
        return (
            [(lib.is_signed(t), t.is_signed(), lib.is_floating_point(t), lib.is_neg(t), t.is_neg()) for t in tensors],
            lib.is_nonzero(x),
            lib.tensor(2).is_nonzero(),
            lib.tensor([[True]]).is_nonzero(),
            lib.is_inference(x),
            lib.resolve_neg(x) is x,
            x.resolve_neg() is x,
        )

    same(run)
    same_error(
        lambda lib: lib.is_nonzero(lib.tensor([1.0, 2.0])),
        "Boolean value of Tensor with more than one value is ambiguous",
    )
    same_error(lambda lib: lib.tensor([]).is_nonzero(), "Boolean value of Tensor with no values is ambiguous")
    with minigrad.inference_mode():
        assert minigrad.is_inference(minigrad.ones(1))


# ----------------------------------------------------------------------------------------------
# Metadata: strides, offsets, sizes, conversions
# ----------------------------------------------------------------------------------------------

LAYOUTS = {
    "matrix": lambda x: x,
    "transpose": lambda x: x.t(),
    "row": lambda x: x[1],
    "column": lambda x: x[:, 2],
    "step slice": lambda x: x[:, 1::2],
    "expand": lambda x: x[:1].expand(3, 4),
    "unsqueeze": lambda x: x.unsqueeze(1),
    "clone of a transpose": lambda x: x.t().clone(),
    "contiguous of a transpose": lambda x: x.t().contiguous(),
    "0-d": lambda x: x[1, 2],
    "empty": lambda x: x[:, :0],
    "permute of 3-d": lambda x: x.reshape(2, 3, 2).permute(2, 0, 1),
}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_strides_offsets_and_sizes_of_factories_and_views(layout):
    def run(lib):
        base = lib.arange(12.0).reshape(3, 4)
        t = LAYOUTS[layout](base)
        dims = [t.stride(d) for d in range(t.ndim)] + [t.stride(-1)] if t.ndim else []
        # (a copy lies elsewhere: only a view's address says where it starts in its base)
        delta = (t.data_ptr() - base.data_ptr()) // t.itemsize if t.numel() and "of a" not in layout else None
        return t.stride(), dims, t.storage_offset(), delta, t.nbytes, t.itemsize, t.ndimension(), t.is_contiguous()

    same(run)


def test_metadata_of_each_dtype():
    def run(lib):
        found = []
        for dtype in (
            lib.bool,
            lib.uint8,
            lib.int8,
            lib.int16,
            lib.int32,
            lib.int64,
            lib.float16,
            lib.float32,
            lib.float64,
        ):
            t = lib.zeros(2, 3, dtype=dtype)
            found.append((t.itemsize, t.nbytes, t.element_size(), t.stride()))
        return found, lib.tensor([]).data_ptr()

    same(run)


def test_short_byte_char_and_new_empty():
    def run(lib):
        a = _a(lib)
        e = a.new_empty(2, 3)
        f = a.new_empty((4,), dtype=lib.int32)
        g = a.new_empty([2], requires_grad=True)
        return (
            str(lib.short),
            a.short(),
            node_names(a.short()),
            (a * 100).byte(),
            (a * -10).char(),
            e.shape,
            str(e.dtype),
            f.shape,
            str(f.dtype),
            g.requires_grad,
            g.is_leaf,
        )

    same(run)


# ----------------------------------------------------------------------------------------------
# finfo, iinfo, constants, range, logspace, scalar_tensor, result_type, can_cast, typename
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_finfo(dtype):
    def run(lib):
        info = lib.finfo(getattr(lib, dtype))
        return (
            info.bits,
            info.eps,
            info.max,
            info.min,
            info.tiny,
            info.smallest_normal,
            info.resolution,
            info.dtype,
            repr(info),
        )

    same(run)


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "int64"])
def test_iinfo(dtype):
    def run(lib):
        info = lib.iinfo(getattr(lib, dtype))
        return info.bits, info.max, info.min, info.dtype, repr(info)

    same(run)


def test_finfo_of_the_default_dtype_and_the_errors():
    def run(lib):
        before = lib.finfo().eps
        lib.set_default_dtype(lib.float64)
        try:
            return before, lib.finfo().eps, lib.finfo().dtype
        finally:
            lib.set_default_dtype(lib.float32)

    same(run)
    same_error(lambda lib: lib.finfo(lib.int32), "torch.finfo() requires a floating point input type")
    same_error(lambda lib: lib.iinfo(lib.float32), "torch.iinfo() requires an integer input type")
    same_error(lambda lib: lib.iinfo(lib.bool), "torch.bool is not supported by torch.iinfo")


def test_constants():
    def run(lib):
        return lib.pi, lib.e, lib.inf, str(lib.nan), lib.newaxis, lib.zeros(2)[lib.newaxis].shape

    same(run)


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((1, 4), {}),
        ((0, 1, 0.3), {}),
        ((4, 1, -1), {}),
        ((1, 4), {"dtype": "int64"}),
        ((0.5, 2.5, 0.5), {"requires_grad": True}),
    ],
)
def test_range_is_inclusive_float_and_deprecated(args, kwargs):
    def run(lib):
        kw = {k: getattr(lib, v) if k == "dtype" else v for k, v in kwargs.items()}
        with pytest.warns(UserWarning, match="torch.range is deprecated"):
            return lib.range(*args, **kw)

    same(run)


def test_range_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_error(lambda lib: lib.range(1, 4, 0), "step must be nonzero")
        same_error(lambda lib: lib.range(4, 1), "upper bound and lower bound inconsistent with step sign")


def test_logspace():
    def run(lib):
        return (
            lib.logspace(0, 2, 3),
            lib.logspace(-1, 1, 5, base=2.0, dtype=lib.float64),
            lib.logspace(0, 2, 3, base=2, dtype=lib.int64),
            lib.logspace(0, 1, 0),
            lib.logspace(1, 1, 1, requires_grad=True),
        )

    same(run)
    same_error(lambda lib: lib.logspace(0, 1, -1), "number of steps must be non-negative")


def test_scalar_tensor():
    def run(lib):
        return (
            lib.scalar_tensor(3),
            lib.scalar_tensor(True),
            lib.scalar_tensor(2, dtype=lib.int64),
            lib.scalar_tensor(1.5, requires_grad=True),
            lib.scalar_tensor(2.5, dtype=lib.float64).ndim,
        )

    same(run)


DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def test_can_cast_and_promote_for_every_pair_of_dtypes():
    def run(lib):
        return [
            (
                lib.can_cast(getattr(lib, a), getattr(lib, b)),
                str(lib.result_type(lib.zeros(1, dtype=getattr(lib, a)), lib.zeros(1, dtype=getattr(lib, b)))),
            )
            for a in DTYPES
            for b in DTYPES
        ]

    same(run)


def test_result_type_with_numbers_and_0d_tensors():
    def run(lib):
        ints, halves = lib.tensor([1, 2], dtype=lib.int32), lib.tensor([1.0], dtype=lib.float16)
        pairs = [
            (ints, 2),
            (ints, 2.5),
            (2, 3.0),
            (True, 2),
            (halves, 2.0),
            (halves, lib.tensor(1.0, dtype=lib.float64)),
            (ints, lib.tensor(1, dtype=lib.int64)),
            (lib.tensor(1.0, dtype=lib.float64), ints),
            (lib.tensor(True), False),
        ]
        return [str(lib.result_type(a, b)) for a, b in pairs]

    same(run)


def test_typename():
    def run(lib):
        return [
            lib.typename(v)
            for v in (lib.tensor([1.0]), lib.tensor([1]), lib.tensor([True]), 3, "x", 2.5, None, len, ValueError)
        ]

    same(run)
    assert minigrad.typename(minigrad.nn.Linear(1, 1)).endswith(".Linear")


def test_num_threads():
    before = minigrad.get_num_threads()
    assert isinstance(before, int) and before >= 1
    try:
        minigrad.set_num_threads(1)
        assert minigrad.get_num_threads() == 1
    finally:
        minigrad.set_num_threads(before)
    with pytest.raises(RuntimeError, match="positive"):
        minigrad.set_num_threads(0)


@pytest.mark.parametrize(("name", "why"), [("bfloat16", "use float16 or float32"), ("complex64", "no complex dtypes")])
def test_a_pytorch_dtype_minigrad_lacks_says_so(name, why):
    assert getattr(torch, name) is not None
    with pytest.raises(AttributeError, match=f"no attribute '{name}'.*does not implement torch.{name}.*{why}"):
        getattr(minigrad, name)
    assert not hasattr(minigrad, name)
    with pytest.raises(AttributeError, match=r"^module 'minigrad' has no attribute 'no_such_name'$"):
        minigrad.no_such_name  # noqa: B018
