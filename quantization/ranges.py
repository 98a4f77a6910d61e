"""How a tensor's calibration values become the range it is quantized over: min-max,
percentile, or entropy (the threshold whose 128-level quantization of the histogram of
|x| loses the least information, as TensorRT and onnxruntime calibrate).

A `RangeCollector` sees every calibration batch of one tensor once per pass: min-max
needs one pass; percentile and entropy a first for the extent, then a histogram pass.
"""

from __future__ import annotations

import numpy as np

METHODS = ("minmax", "percentile", "entropy")
BINS = 2048
LEVELS = 128  # of the quantized histogram the entropy method compares with


class RangeCollector:
    """The calibration range of one tensor by `method`."""

    def __init__(self, method: str, percentile: float = 99.999) -> None:
        if method not in METHODS:
            raise ValueError(f"calibration method '{method}': one of {', '.join(METHODS)}")
        self.method = method
        self.percentile = percentile
        self.lo, self.hi = np.inf, -np.inf
        self.hist: np.ndarray | None = None

    @property
    def passes(self) -> int:
        return 1 if self.method == "minmax" else 2

    def add(self, values: np.ndarray, pass_: int) -> None:
        x = values[np.isfinite(values)].astype(np.float64, copy=False)
        if not x.size:
            return
        if pass_ == 0:
            self.lo, self.hi = min(self.lo, float(x.min())), max(self.hi, float(x.max()))
            return
        if self.method == "percentile":
            h, _ = np.histogram(x, BINS, (self.lo, self.hi) if self.hi > self.lo else None)
        else:
            h, _ = np.histogram(np.abs(x), BINS, (0.0, self._extent()))
        self.hist = h if self.hist is None else self.hist + h

    def _extent(self) -> float:
        return max(abs(self.lo), abs(self.hi), 1e-30)

    def range(self) -> tuple[float, float]:
        """(lo, hi) to quantize over, always holding 0 (a zero point must exist)."""
        if not np.isfinite(self.lo):  # no finite value seen: any range will do
            return 0.0, 0.0
        if self.method == "minmax" or self.hist is None or self.hi == self.lo:
            lo, hi = self.lo, self.hi
        elif self.method == "percentile":
            lo, hi = _percentile(self.hist, self.lo, self.hi, self.percentile)
        else:
            t = _entropy_threshold(self.hist, self._extent())
            lo, hi = (max(self.lo, -t), min(self.hi, t))
        return min(lo, 0.0), max(hi, 0.0)


def _percentile(hist: np.ndarray, lo: float, hi: float, p: float) -> tuple[float, float]:
    """The range holding p percent of the values, (100 - p) / 2 cut from each tail."""
    edges = np.linspace(lo, hi, len(hist) + 1)
    cdf = np.cumsum(hist) / hist.sum()
    tail = (100.0 - p) / 200.0
    first = int(np.searchsorted(cdf, tail, side="right"))
    last = int(np.searchsorted(cdf, 1.0 - tail, side="left"))
    return float(edges[first]), float(edges[min(last + 1, len(hist))])


def _kl(p: np.ndarray, q: np.ndarray) -> float:
    p = p / p.sum()
    q = q / q.sum()
    nz = p > 0
    return float(np.sum(p[nz] * np.log(p[nz] / np.maximum(q[nz], 1e-12))))


def _entropy_threshold(hist: np.ndarray, extent: float) -> float:
    """The |x| threshold minimizing KL(reference || quantized) over the histogram of |x|:
    values past a candidate threshold are clipped into its last bin, and the bins below
    it merged into LEVELS levels and expanded back over their nonzero bins."""
    width = extent / len(hist)
    best, best_kl = len(hist), np.inf
    for i in range(LEVELS, len(hist) + 1, 16):
        ref = hist[:i].astype(np.float64)
        ref[-1] += hist[i:].sum()
        if ref.sum() == 0:
            continue
        q = np.zeros(i)
        for chunk in np.array_split(np.arange(i), LEVELS):
            nonzero = hist[chunk] > 0
            if nonzero.any():
                q[chunk[nonzero]] = hist[chunk].sum() / nonzero.sum()
        kl = _kl(ref, q)
        if kl < best_kl:
            best, best_kl = i, kl
    return best * width
