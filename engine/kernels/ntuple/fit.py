"""Fitting an n-tuple network's weights to labelled positions (numba): regularised least squares,
one weight set per phase, for any layout whose positions come as cell vectors.

Each position's instances are turned into weight indices once (``position_indices``: int32
``[n, instances]``, ``phase * n_weights + lut offset + index``, so every phase's weights sit in
one flat vector), then every phase solves

    minimise  sum over its training positions (value(x) - target)^2  +  l2 * |w|^2

by conjugate gradients on the normal equations, matrix-free: a pass over the indices computes
``(A^T A + l2 I) p`` for every phase at once, and each phase keeps its own CG scalars, so the
phases are exactly independent CG runs sharing one pass over the data per iteration (memory:
the indices, 4 bytes per instance per position, and a few weight-sized vectors). A Jacobi
preconditioner (each weight's count of training instances plus ``l2``) evens out entries seen
often and rarely, which would otherwise converge at very different speeds.

Symmetric images of a tuple read the same LUT (``Layout.instances``), so a shared weight
collects every image's positions. A weight no training position reads stays 0; with
``min_count`` a weight read fewer times is held at 0 too (Buro's rule for rarely seen
entries), and the ``l2`` penalty shrinks the remaining rare ones towards 0 (an entry seen ``c``
times moves about ``c / (c + l2)`` of the way to its unregularised value).

Deterministic: every sum runs in a fixed order on one thread, so the same data, options and
seed give the same bits (``holdout_mask`` draws its split from ``numpy.random.SeedSequence``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from engine.kernels.ntuple.evaluation import IndexTables

MAX_INDEX = 2**31 - 1  # indices travel as int32


@njit(cache=True)
def _fill_indices(cells, phase, order, t, n_weights, out):
    for k in range(order.shape[0]):
        r = order[k]
        base = np.int64(phase[r]) * n_weights
        for i in range(t.offset.shape[0]):
            index = 0
            for j in range(t.length[i]):
                index += np.int64(cells[r, t.cells[i, j]]) * t.powers[i, j]
            out[k, i] = base + t.offset[i] + index


def position_indices(cells: np.ndarray, phase: np.ndarray, t: IndexTables,
                     n_weights: int, n_phases: int, order: np.ndarray | None = None
                     ) -> np.ndarray:
    """``int32 [n, instances]``: each position's weight index per instance in the flat
    ``[n_phases * n_weights]`` vector (``cells`` uint8 ``[n, cells]``, ``phase`` ints < n_phases),
    row ``k`` for position ``order[k]`` (default: in order). Positions sorted by phase make the
    fit read one phase's weights at a time (a cache-sized block instead of every phase's).
    The cells' states are trusted (the caller checks them against the layout)."""
    if n_phases * n_weights > MAX_INDEX:
        raise ValueError(f"phases x weights = {n_phases * n_weights:,}: at most {MAX_INDEX:,} "
                         "fit the int32 indices")
    if len(phase) and not 0 <= int(np.min(phase)) <= int(np.max(phase)) < n_phases:
        raise ValueError(f"phase: expected integers in 0..{n_phases - 1}")
    order = np.arange(len(cells)) if order is None else order
    out = np.empty((len(order), len(t.offset)), dtype=np.int32)
    _fill_indices(np.ascontiguousarray(cells, dtype=np.uint8),
                  np.ascontiguousarray(phase, dtype=np.int64),
                  np.ascontiguousarray(order, dtype=np.int64), t, np.int64(n_weights), out)
    return out


@njit(cache=True)
def predict(indices, weights):
    """``float64 [n]``: each position's value, the sum of the weights its indices read."""
    out = np.empty(indices.shape[0])
    for r in range(indices.shape[0]):
        s = 0.0
        for i in range(indices.shape[1]):
            s += weights[indices[r, i]]
        out[r] = s
    return out


@njit(cache=True)
def _counts(indices, rows, size):
    counts = np.zeros(size)
    for r in rows:
        for i in range(indices.shape[1]):
            counts[indices[r, i]] += 1.0
    return counts


@njit(cache=True)
def _transpose_times(indices, rows, values, size):
    """``A^T v`` over ``rows`` (``values`` one per row, in the order of ``rows``)."""
    out = np.zeros(size)
    for k in range(rows.shape[0]):
        r = rows[k]
        for i in range(indices.shape[1]):
            out[indices[r, i]] += values[k]
    return out


@njit(cache=True)
def _normal_times(indices, rows, p, l2, free, out):
    """``out = (A^T A + l2 I) p`` over the training ``rows``, 0 where a weight is held."""
    for k in range(out.shape[0]):
        out[k] = l2 * p[k]
    for r in rows:
        s = 0.0
        for i in range(indices.shape[1]):
            s += p[indices[r, i]]
        for i in range(indices.shape[1]):
            out[indices[r, i]] += s
    for k in range(out.shape[0]):
        if not free[k]:
            out[k] = 0.0


@njit(cache=True)
def _phase_dot(a, b, n_weights):
    out = np.zeros(a.shape[0] // n_weights)
    for ph in range(out.shape[0]):
        s = 0.0
        for k in range(ph * n_weights, (ph + 1) * n_weights):
            s += a[k] * b[k]
        out[ph] = s
    return out


@njit(cache=True)
def _step(w, r, z, p, q, inverse, alpha, n_weights):
    """The CG step of every phase: ``w += alpha p``, ``r -= alpha q``, ``z = inverse r``; returns
    per phase ``r . r`` and ``r . z``."""
    rr, rz = np.zeros(alpha.shape[0]), np.zeros(alpha.shape[0])
    for ph in range(alpha.shape[0]):
        a, s_rr, s_rz = alpha[ph], 0.0, 0.0
        for k in range(ph * n_weights, (ph + 1) * n_weights):
            w[k] += a * p[k]
            r[k] -= a * q[k]
            z[k] = inverse[k] * r[k]
            s_rr += r[k] * r[k]
            s_rz += r[k] * z[k]
        rr[ph], rz[ph] = s_rr, s_rz
    return rr, rz


@njit(cache=True)
def _direction(p, z, beta, n_weights):
    for ph in range(beta.shape[0]):
        b = beta[ph]
        for k in range(ph * n_weights, (ph + 1) * n_weights):
            p[k] = z[k] + b * p[k]


def holdout_mask(n: int, share: float, seed: int) -> np.ndarray:
    """``bool [n]``: which positions are held out (each with probability ``share``), drawn from
    ``SeedSequence(seed)`` alone: the same split for the same ``n``, ``share`` and ``seed``."""
    if not 0.0 <= share < 1.0:
        raise ValueError(f"holdout share {share!r}: allowed 0 <= share < 1")
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([int(seed), 0x4F17])))
    return rng.random(n) < share


@dataclass
class FitResult:
    """``weights``: ``float64 [n_phases, n_weights]``; ``counts``: how many training instances
    read each weight (same shape); ``iterations``: CG iterations each phase ran; ``residual``:
    each phase's final relative residual ``|b - (A^T A + l2) w| / |b|``."""

    weights: np.ndarray
    counts: np.ndarray
    iterations: np.ndarray
    residual: np.ndarray
    seconds: float = 0.0
    log: list = field(default_factory=list)


def fit_phases(indices: np.ndarray, target: np.ndarray, train: np.ndarray, n_phases: int,
               n_weights: int, l2: float = 1.0, iterations: int = 100, tolerance: float = 1e-4,
               min_count: int = 0, progress: Callable[[int, int, np.ndarray, float], None]
               | None = None) -> FitResult:
    """Least squares with ``l2`` per phase (module docstring) by preconditioned CG: at most
    ``iterations`` passes; a phase stops once its relative residual is below ``tolerance``.
    ``train``: int64 row numbers of the training positions (``indices`` rows). ``progress``
    (iteration, of, residual per phase, seconds so far) is called after every pass."""
    if l2 < 0 or not np.isfinite(l2):
        raise ValueError(f"l2 {l2!r}: allowed a finite number >= 0")
    min_count = max(int(min_count), 0)
    if l2 == 0 and min_count < 1:
        min_count = 1  # unseen weights would make the system singular: hold them at 0
    start = time.perf_counter()
    size = n_phases * n_weights
    rows = np.ascontiguousarray(train, dtype=np.int64)
    y = np.ascontiguousarray(target, dtype=np.float64)[rows]
    counts = _counts(indices, rows, size)
    free = counts >= min_count
    diagonal = counts + l2
    inverse = np.divide(1.0, diagonal, out=np.zeros(size), where=free & (diagonal > 0))
    w = np.zeros(size)
    r = _transpose_times(indices, rows, y, size) * free
    z = inverse * r
    p = z.copy()
    q = np.empty(size)
    b_norm = _phase_dot(r, r, n_weights) ** 0.5
    rz = _phase_dot(r, z, n_weights)
    done = b_norm == 0
    its = np.zeros(n_phases, dtype=np.int64)
    relative = np.where(done, 0.0, 1.0)
    log = []
    for it in range(iterations):
        if done.all():
            break
        _normal_times(indices, rows, p, float(l2), free, q)
        pq = _phase_dot(p, q, n_weights)
        alpha = np.where(done | (pq <= 0), 0.0, rz / np.where(pq > 0, pq, 1.0))
        rr, rz_next = _step(w, r, z, p, q, inverse, alpha, n_weights)
        relative = np.where(done, relative, rr ** 0.5 / np.where(b_norm > 0, b_norm, 1.0))
        its += ~done
        done = done | (relative < tolerance) | (pq <= 0)
        beta = np.where(done | (rz <= 0), 0.0, rz_next / np.where(rz > 0, rz, 1.0))
        _direction(p, z, beta, n_weights)
        rz = rz_next
        elapsed = time.perf_counter() - start
        log.append((it + 1, float(relative.max(initial=0.0)), elapsed))
        if progress is not None:
            progress(it + 1, iterations, relative, elapsed)
    return FitResult(w.reshape(n_phases, n_weights), counts.reshape(n_phases, n_weights),
                     its, relative, time.perf_counter() - start, log)


def phase_errors(prediction: np.ndarray, target: np.ndarray, phase: np.ndarray,
                 mask: np.ndarray, n_phases: int) -> dict[str, np.ndarray]:
    """Per phase over the positions of ``mask``: ``positions``, ``rmse``, ``mae`` (NaN for a
    phase without positions), and the same over all phases (last entry of each array)."""
    error = (prediction - target)[mask]
    ph = phase[mask]
    n = np.bincount(ph, minlength=n_phases).astype(np.float64)
    sq = np.bincount(ph, weights=error * error, minlength=n_phases)
    ab = np.bincount(ph, weights=np.abs(error), minlength=n_phases)
    n, sq, ab = (np.append(a, a.sum()) for a in (n, sq, ab))
    with np.errstate(invalid="ignore", divide="ignore"):
        return {"positions": n.astype(np.int64), "rmse": np.sqrt(sq / n), "mae": ab / n}
