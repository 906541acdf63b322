"""PyTorch's CPU random numbers, bit for bit: ``Generator``, seeds and generator states.

PyTorch's CPU generator is a Mersenne Twister (MT19937) seeded with the low 32 bits of the seed;
NumPy has the same engine (``numpy.random.MT19937``), which draws its 32-bit outputs here in
vectorised blocks. Each distribution turns those draws into values the way ATen's CPU kernels
do (``TransformationHelper.h``, ``DistributionTemplates.h``, ``normal_fill``), so that::

    >>> import minigrad as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.rand(3)
    tensor([0.4963, 0.7682, 0.0885])

gives PyTorch's numbers. A GPU draws from a generator of its own (the same algorithm, its values
then copied to the GPU), so drawing on a GPU never moves the CPU's stream.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Iterator

from . import backend, dtypes
from .backend import numpy  # drawn on the host for every device (then copied to a GPU)

__all__ = ["Generator", "default_generator", "fork_rng", "get_rng_state", "initial_seed", "manual_seed", "seed",
           "set_rng_state"]  # fmt: skip

_DEFAULT_SEED = 67280421310721  # PyTorch's default_rng_seed_val
_N = 624  # words in the Mersenne Twister's state
_STATE_BYTES = 5056  # sizeof(CPUGeneratorImplState) in PyTorch
_TWO_PI_F = numpy.float32(2.0 * math.pi)


def _genrand_state(seed: int) -> numpy.ndarray:
    """MT19937's ``init_genrand``: the 624-word state from a 32-bit seed."""
    state = numpy.empty(_N, numpy.uint32)
    x = seed & 0xFFFFFFFF
    state[0] = x
    for j in range(1, _N):
        x = (1812433253 * (x ^ (x >> 30)) + j) & 0xFFFFFFFF
        state[j] = x
    return state


def _check_seed(seed) -> int:
    if not isinstance(seed, int) and not (hasattr(seed, "__index__") and not isinstance(seed, float)):
        raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
    seed = int(seed)
    if not -(2**63) <= seed < 2**64:
        raise ValueError("Overflow when unpacking long long")
    return seed % 2**64  # a negative seed wraps around, as in PyTorch


class Generator:
    """A random number generator, as ``torch.Generator``: seed it, save and restore its state,
    and pass it as ``generator=`` to any random function.

    >>> import minigrad as torch
    >>> g = torch.Generator().manual_seed(42)
    >>> torch.rand(2, generator=g)
    tensor([0.8823, 0.9150])
    >>> g.initial_seed()
    42
    """

    def __init__(self, device: str | backend.device | None = None) -> None:
        self.device = backend.as_device(device if device is not None else "cpu")
        self.manual_seed(_DEFAULT_SEED)

    def manual_seed(self, seed: int) -> Generator:
        """Seed the generator (only the low 32 bits reach the Mersenne Twister, as in PyTorch)."""
        self._seed = _check_seed(seed)
        self._mt = numpy.random.MT19937()
        self._mt.state = {"bit_generator": "MT19937", "state": {"key": _genrand_state(self._seed), "pos": _N}}
        self._fresh = True  # PyTorch's `next` reads 0 until the first draw
        self._normal = None  # the second value of the last Box-Muller pair (normal_distribution<double>)
        self._normal_float = None  # PyTorch's state keeps a float one too (unused by its CPU kernels)
        return self

    def seed(self) -> int:
        """Seed from the operating system's entropy; returns the seed."""
        self.manual_seed(int.from_bytes(os.urandom(8), "little") >> 1)
        return self._seed

    def initial_seed(self) -> int:
        """The seed this generator was last seeded with."""
        return self._seed

    def get_state(self):
        """The state as PyTorch's 5056-byte ``uint8`` tensor (its ``CPUGeneratorImplState``)."""
        from .tensor import Tensor

        raw = numpy.zeros(_STATE_BYTES, numpy.uint8)
        state = self._mt.state["state"]
        pos = int(state["pos"])
        raw[0:8].view(numpy.uint64)[0] = self._seed
        raw[8:16].view(numpy.int32)[:] = (_N + 1 - pos, 1)  # left, seeded
        raw[16:24].view(numpy.uint64)[0] = 0 if self._fresh else pos  # next
        raw[24:5016].view(numpy.uint64)[:] = state["key"]
        if self._normal is not None:
            raw[5024:5032].view(numpy.float64)[0] = self._normal  # normal_y
            raw[5040:5044].view(numpy.int32)[0] = 1  # normal_is_valid
        if self._normal_float is not None:
            raw[5048:5052].view(numpy.float32)[0] = self._normal_float
            raw[5052] = 1
        return Tensor._make(raw)

    def set_state(self, new_state) -> Generator:
        """Restore a state from :meth:`get_state` (or from PyTorch's ``get_rng_state``)."""
        from .tensor import Tensor

        if not isinstance(new_state, Tensor) or new_state.dtype is not dtypes.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        raw = numpy.ascontiguousarray(backend.to_numpy(new_state._data))
        if raw.size != _STATE_BYTES:
            raise RuntimeError(
                f"Expected a CPUGeneratorImplState of size {_STATE_BYTES} but found the input RNG state size to be "
                f"{raw.size}"
            )
        left, _ = raw[8:16].view(numpy.int32)
        if not 1 <= left <= _N:
            raise RuntimeError(f"The 'left' value in the MT19937 state must be in [1, {_N}], but got {left}")
        key = raw[24:5016].view(numpy.uint64).astype(numpy.uint32)
        self._seed = int(raw[0:8].view(numpy.uint64)[0])
        self._mt.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": int(_N + 1 - left)}}
        self._fresh = int(raw[16:24].view(numpy.uint64)[0]) == 0
        valid = raw[5040:5044].view(numpy.int32)[0]
        self._normal = float(raw[5024:5032].view(numpy.float64)[0]) if valid else None
        self._normal_float = float(raw[5048:5052].view(numpy.float32)[0]) if raw[5052] else None
        return self

    def __repr__(self) -> str:
        return f"<minigrad.Generator object at {id(self):#x}>"

    # --- draws: PyTorch's random() and random64(), then its transformations -------------------

    def _u32(self, n: int) -> numpy.ndarray:
        """``n`` 32-bit draws (``generator->random()``), as uint64."""
        if n:
            self._fresh = False
        return self._mt.random_raw(n) if n else numpy.zeros(0, numpy.uint64)

    def _u64(self, n: int) -> numpy.ndarray:
        """``n`` 64-bit draws (``random64()``: two 32-bit draws, the first the high half)."""
        pairs = self._u32(2 * n).reshape(n, 2)
        return (pairs[:, 0] << numpy.uint64(32)) | pairs[:, 1]

    def _unit(self, n: int, digits: int) -> numpy.ndarray:
        """``uniform_real_distribution(0, 1)``: ``digits`` random bits over ``2**digits``
        (float64 values; 64-bit draws only for double's 53 bits)."""
        raw = self._u64(n) if digits == 53 else self._u32(n)
        return (raw & numpy.uint64((1 << digits) - 1)).astype(numpy.float64) * 2.0**-digits

    def _normal_serial(self, n: int, mean: float, std: float) -> numpy.ndarray:
        """``normal_distribution<double>`` one value at a time: Box-Muller on two doubles, the sine
        kept for the next call (so ``randn(3)`` then ``randn(3)`` continues one pair)."""
        out = numpy.empty(n, numpy.float64)
        start = 0
        if n and self._normal is not None:
            out[0], self._normal, start = self._normal, None, 1
        pairs = (n - start + 1) // 2
        u = self._unit(2 * pairs, 53)
        values = []
        for u1, u2 in zip(u[0::2].tolist(), u[1::2].tolist(), strict=True):  # glibc's log1p, bit for bit
            radius, theta = math.sqrt(-2.0 * math.log1p(-u2)), 2.0 * math.pi * u1
            values += (radius * math.cos(theta), radius * math.sin(theta))
        if len(values) > n - start:
            self._normal = values.pop()
        out[start:] = values
        return out * std + mean

    def _normal_fill(self, n: int, dtype: numpy.dtype, mean: float, std: float) -> numpy.ndarray:
        """``normal_fill``: ``n`` uniforms, Box-Muller on blocks of 16 (cosines in the first 8,
        sines in the last 8); when 16 does not divide ``n``, the last 16 values are drawn again."""
        if dtype == numpy.float32:
            data, transform = self._unit(n, 24).astype(numpy.float32), _fill16_avx2
        else:
            data, transform = self._unit(n, 53), _fill16_double
        whole = n // 16 * 16
        data[:whole] = transform(data[:whole], mean, std)
        if whole != n:
            tail = self._unit(16, 24).astype(numpy.float32) if dtype == numpy.float32 else self._unit(16, 53)
            data[n - 16 :] = transform(tail, mean, std)
        return data


def _fill16_double(data: numpy.ndarray, mean: float, std: float) -> numpy.ndarray:
    blocks = data.reshape(-1, 16)
    u1, theta = 1.0 - blocks[:, :8], 2.0 * math.pi * blocks[:, 8:]
    # glibc's log, bit for bit (NumPy's SIMD log can differ in the last bit); its cos and sin agree
    log = numpy.array([math.log(v) for v in u1.ravel().tolist()]).reshape(u1.shape)
    radius = numpy.sqrt(-2.0 * log)
    return numpy.concatenate([_fma64(radius * numpy.cos(theta), std, mean), _fma64(radius * numpy.sin(theta), std, mean)],
                             1).ravel()  # fmt: skip


def _split(a: numpy.ndarray) -> tuple[numpy.ndarray, numpy.ndarray]:
    scaled = 134217729.0 * a  # Veltkamp: a = high + low, each half of the 53 bits
    high = scaled - (scaled - a)
    return high, a - high


def _fma64(a: numpy.ndarray, b: float, c: float) -> numpy.ndarray:
    """``a * b + c`` rounded once, as the fused multiply-add PyTorch's compiler emits here
    (Dekker's exact product and Knuth's exact sum; NumPy has no fma)."""
    if b == 1.0 and c == 0.0:
        return a
    product = a * b
    (ah, al), (bh, bl) = _split(a), _split(numpy.float64(b))
    error = ((ah * bh - product) + ah * bl + al * bh) + al * bl
    total = product + c
    back = total - product
    return total + (((product - (total - back)) + (c - back)) + error)


# PyTorch fills float32 normals with AVX2 code: avx_mathfun.h's Cephes log and sincos in float32,
# compiled with fused multiply-adds. The functions below redo each step in NumPy float32 (a fused
# a * b + c through float64, where a * b is exact), which gives PyTorch's bits.

_F = numpy.float32


def _fma(a, b, c) -> numpy.ndarray:
    out = numpy.multiply(a, b, dtype=numpy.float64)
    out += c
    return out.astype(_F)


def _log_avx2(x: numpy.ndarray) -> numpy.ndarray:
    bits = numpy.maximum(x, _F(1.1754943508222875e-38)).view(numpy.int32)  # no denormals
    e = ((bits >> 23) - 0x7F).astype(_F) + _F(1)
    x = ((bits & ~0x7F800000) | 0x3F000000).view(_F)  # the mantissa, in [0.5, 1)
    small = x < _F(0.707106781186547524)
    x = (x - _F(1)) + numpy.where(small, x, _F(0))
    e = e - numpy.where(small, _F(1), _F(0))
    z = x * x
    y = numpy.full_like(x, _F(7.0376836292e-2))
    for p in (-1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1,
              2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1):  # fmt: skip
        y = _fma(y, x, _F(p))
    y = _fma(y * x, z, e * _F(-2.12194440e-4))
    y = _fma(z, _F(-0.5), y)
    return _fma(e, _F(0.693359375), x + y)


def _sincos_avx2(x: numpy.ndarray) -> tuple[numpy.ndarray, numpy.ndarray]:
    sin_negative = numpy.signbit(x)
    x = numpy.abs(x)
    j = ((x * _F(1.27323954473516)).astype(numpy.int32) + 1) & ~1  # the octant, made even
    y = j.astype(_F)
    for dp in (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8):  # x - j * pi/4
        x = _fma(y, _F(dp), x)
    sin_negative ^= (j & 4) != 0
    cos_negative = (~(j - 2) & 4) != 0
    use_sin_poly = (j & 2) == 0
    z = x * x
    cos_poly = _fma(_fma(numpy.full_like(z, _F(2.443315711809948e-5)), z, _F(-1.388731625493765e-3)), z,
                    _F(4.166664568298827e-2))  # fmt: skip
    cos_poly = _fma(cos_poly * z, z, -(z * _F(0.5))) + _F(1)
    sin_poly = _fma(_fma(numpy.full_like(z, _F(-1.9515295891e-4)), z, _F(8.3321608736e-3)), z,
                    _F(-1.6666654611e-1))  # fmt: skip
    sin_poly = _fma(sin_poly * z, x, x)
    sin = numpy.where(use_sin_poly, sin_poly, cos_poly)
    cos = numpy.where(use_sin_poly, cos_poly, sin_poly)
    return numpy.where(sin_negative, -sin, sin), numpy.where(cos_negative, -cos, cos)


def _fill16_avx2(data: numpy.ndarray, mean: float, std: float) -> numpy.ndarray:
    if data.size > 16 * 4096:  # in chunks that stay in the cache: about twice as fast
        return numpy.concatenate(
            [_fill16_avx2(data[i : i + 16 * 4096], mean, std) for i in range(0, data.size, 16 * 4096)]
        )
    blocks = data.reshape(-1, 16)
    radius = numpy.sqrt(_F(-2) * _log_avx2(_F(1) - blocks[:, :8]))
    sin, cos = _sincos_avx2(_TWO_PI_F * blocks[:, 8:])
    mean, std = _F(mean), _F(std)
    return numpy.concatenate([_fma(radius * cos, std, mean), _fma(radius * sin, std, mean)], 1).ravel()


# --- distributions: each returns ``n`` values as a NumPy array (the order PyTorch fills in) ---

_DIGITS = {numpy.dtype(numpy.float16): 11, numpy.dtype(numpy.float32): 24, numpy.dtype(numpy.float64): 53}


def uniform(gen: Generator, n: int, dtype, low: float = 0.0, high: float = 1.0) -> numpy.ndarray:
    """``uniform_real(bits, from, to)``: ``x * (to - from) + from`` in double, ``from`` and ``to``
    rounded to the dtype first; a value that rounds up to ``to`` becomes ``from``."""
    dtype = numpy.dtype(dtype)
    if dtype == numpy.float16:  # PyTorch computes half in float, then rounds
        low32, high32 = numpy.float32(low), numpy.float32(high)
        values = _fma(gen._unit(n, 24).astype(numpy.float32), high32 - low32, low32).astype(dtype)
        return numpy.where(values == dtype.type(high), dtype.type(low), values)
    low, high = dtype.type(low), dtype.type(high)
    x = gen._unit(n, _DIGITS.get(dtype, 24))
    if dtype == numpy.float64:  # one fused multiply-add, as PyTorch's compiled kernel
        values = _fma64(x, float(high - low), float(low))
    else:
        values = (x * numpy.float64(high - low) + numpy.float64(low)).astype(dtype)
    return numpy.where(values == high, low, values)


def normal(gen: Generator, n: int, dtype, mean: float = 0.0, std: float = 1.0, contiguous: bool = True):
    """``normal_``: 16 or more values of a contiguous float tensor by ``normal_fill``, else one by
    one from ``normal_distribution<double>``."""
    dtype = numpy.dtype(dtype)
    if n >= 16 and contiguous and dtype in (numpy.float32, numpy.float64):
        return gen._normal_fill(n, dtype, mean, std)
    return gen._normal_serial(n, mean, std).astype(dtype)


def integers(gen: Generator, n: int, dtype, low: int, high: int) -> numpy.ndarray:
    """``random_(from, to)``: ``draw % (to - from) + from``, with 64-bit draws for ranges of 2**32
    or more (for 64-bit and floating dtypes)."""
    span = high - low
    wide = span >= 2**32 and numpy.dtype(dtype) in (numpy.int64, numpy.float64, numpy.float32)
    raw = gen._u64(n) if wide else gen._u32(n)
    return ((raw % numpy.uint64(span)).astype(numpy.int64) + low).astype(dtype)


def bits(gen: Generator, n: int, dtype) -> numpy.ndarray:
    """``random_()``: a draw modulo the dtype's largest int + 1 (for floats: 2**digits + 1, the
    integers they hold exactly)."""
    dtype = numpy.dtype(dtype)
    if dtype == numpy.bool_:
        return (gen._u32(n) & numpy.uint64(1)).astype(dtype)
    if dtype.kind == "f":
        modulus, wide = 2 ** _DIGITS[dtype] + 1, dtype == numpy.float64
    else:
        modulus, wide = int(numpy.iinfo(dtype).max) + 1, dtype == numpy.int64
    raw = gen._u64(n) if wide else gen._u32(n)
    return (raw % numpy.uint64(modulus)).astype(dtype)


def bernoulli(gen: Generator, n: int, p: float) -> numpy.ndarray:
    """True with probability ``p``: a double draw each below ``p`` (PyTorch's default kernel; on
    Intel CPUs PyTorch draws from MKL's stream instead)."""
    return gen._unit(n, 53) < p


def bernoulli_tensor(gen: Generator, p: numpy.ndarray) -> numpy.ndarray:
    """True with probability ``p[i]``: a float draw each for float32 ``p``, a double for float64."""
    return gen._unit(p.size, 53 if p.dtype == numpy.float64 else 24).reshape(p.shape) < p


def _each(values: numpy.ndarray, f) -> numpy.ndarray:
    """``f`` on each value, with Python's math (glibc's functions, as PyTorch's kernels call)."""
    return numpy.array([f(v) for v in values.tolist()], numpy.float64)


def exponential(gen: Generator, n: int, lambd: float) -> numpy.ndarray:
    return _each(gen._unit(n, 53), lambda u: -1.0 / lambd * math.log1p(-u))


def geometric(gen: Generator, n: int, p: float) -> numpy.ndarray:
    log_q = math.log1p(-p)
    return _each(gen._unit(n, 53), lambda u: math.ceil(math.log(u) / log_q) if u > 0 else math.inf)


def cauchy(gen: Generator, n: int, median: float, sigma: float) -> numpy.ndarray:
    return _each(gen._unit(n, 53), lambda u: median + sigma * math.tan(math.pi * (u - 0.5)))


def log_normal(gen: Generator, n: int, mean: float, std: float) -> numpy.ndarray:
    return _each(gen._normal_serial(n, mean, std), math.exp)


def permutation(gen: Generator, n: int) -> numpy.ndarray:
    """``randperm_cpu``: swap each position ``i`` with one of ``i..n-1`` (``draw % (n - i)``)."""
    if n >= 2**32 // 20:
        raise RuntimeError(f"randperm of {n} elements is beyond minigrad (PyTorch switches algorithm there)")
    order = list(range(n))
    offsets = (gen._u32(max(n - 1, 0)) % numpy.arange(n, 1, -1, dtype=numpy.uint64)).tolist()
    for i, z in enumerate(offsets):  # sequential: each swap sees the ones before it
        k = i + z
        order[i], order[k] = order[k], order[i]
    return numpy.array(order, numpy.int64)


def categorical(gen: Generator, weights: numpy.ndarray, samples: int) -> numpy.ndarray:
    """Multinomial with replacement, each row: a double draw searched in the normalised running
    sum (in the weights' dtype, its last entry set to 1)."""
    cumulative = numpy.cumsum(weights, axis=1, dtype=weights.dtype)
    cumulative = cumulative / cumulative[:, -1:]
    cumulative[:, -1] = 1
    picks = gen._unit(weights.shape[0] * samples, 53).reshape(-1, samples)
    return numpy.stack([numpy.searchsorted(c, u, side="left") for c, u in zip(cumulative, picks, strict=True)])


def poisson(gen: Generator, rates: numpy.ndarray) -> numpy.ndarray:
    """ATen's ``sample_poisson``: multiplied uniforms below rate 10, else Hoermann's transformed
    rejection (a loop per value, as the number of draws varies)."""

    def draw() -> float:
        return float(gen._unit(1, 53)[0])

    def one(lam: float) -> float:
        if lam == 0:
            return 0.0
        if lam < 10:
            count, product, limit = 0, 1.0, math.exp(-lam)
            while True:
                product *= draw()
                if product <= limit:
                    return float(count)
                count += 1
        slam, loglam = math.sqrt(lam), math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha, vr = 1.1239 + 1.1328 / (b - 3.4), 0.9277 - 3.6224 / (b - 2)
        while True:
            u = draw() - 0.5
            v = draw()
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= vr:
                return float(k)
            if k < 0 or (us < 0.013 and v > us):
                continue
            if math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b) <= -lam + k * loglam - math.lgamma(k + 1):
                return float(k)

    return numpy.array([one(lam) for lam in rates.astype(numpy.float64).tolist()])


# --- the default generators, and torch.random's functions ---------------------------------------

default_generator = Generator()
_gpu_generator: Generator | None = None


def generator_for(device: backend.device | None, generator: Generator | None = None) -> Generator:
    """``generator`` if given, else the default one of ``device``'s kind."""
    global _gpu_generator
    if generator is not None:
        if not isinstance(generator, Generator):
            raise TypeError(f"generator must be a torch.Generator, not {type(generator).__name__}")
        return generator
    if device is None or device.type == "cpu":
        return default_generator
    if _gpu_generator is None:
        _gpu_generator = Generator(device).manual_seed(default_generator.initial_seed())
    return _gpu_generator


def manual_seed(seed: int) -> Generator:
    """Seed the generators of every device; returns the CPU's.

    >>> import minigrad as torch
    >>> torch.manual_seed(0).initial_seed()
    0
    """
    seed = int(seed) if isinstance(seed, float) else seed  # torch.manual_seed(1.5) seeds 1
    default_generator.manual_seed(seed)
    if _gpu_generator is not None:
        _gpu_generator.manual_seed(seed)
    return default_generator


def manual_seed_gpu(seed: int) -> None:
    """Seed the GPUs' generator only (``torch.cuda.manual_seed``; the CPU's stream is left alone)."""
    global _gpu_generator
    _gpu_generator = Generator("cuda").manual_seed(seed)


def seed() -> int:
    """Seed every generator from the operating system's entropy; returns the seed."""
    value = default_generator.seed()
    manual_seed(value)
    return value


def initial_seed() -> int:
    """The seed of the CPU's default generator."""
    return default_generator.initial_seed()


def get_rng_state():
    """The CPU generator's state: PyTorch's 5056-byte ``uint8`` tensor.

    >>> import minigrad as torch
    >>> state = torch.get_rng_state()
    >>> a = torch.rand(2)
    >>> torch.set_rng_state(state)
    >>> bool((torch.rand(2) == a).all())
    True
    """
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    """Restore the CPU generator's state from :func:`get_rng_state`."""
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled: bool = True, device_type: str = "cuda") -> Iterator[None]:
    """Run a block with the generators' states saved before and restored after it."""
    if not enabled:
        yield
        return
    saved = [(g, g.get_state()) for g in (default_generator, _gpu_generator) if g is not None]
    try:
        yield
    finally:
        for g, state in saved:
            g.set_state(state)
