"""Numeric helpers: averages, clamping, rounding and simple statistics."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

EPSILON = 1e-9


def clamp(value: float, low: float, high: float) -> float:
    """Limit ``value`` to the closed interval [low, high]."""
    if low > high:
        raise ValueError(f"empty interval: {low} > {high}")
    return max(low, min(high, value))


def mean(values: Iterable[float]) -> float:
    """Arithmetic mean of a non-empty iterable."""
    total = 0.0
    count = 0
    for value in values:
        total += value
        count += 1
    if count == 0:
        raise ValueError("mean() of an empty sequence")
    return total / count


def median(values: Sequence[float]) -> float:
    """Middle value of the sorted data, or the mean of the two middle ones."""
    ordered = sorted(values)
    size = len(ordered)
    if size == 0:
        raise ValueError("median() of an empty sequence")
    middle = size // 2
    if size % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def variance(values: Sequence[float], *, sample: bool = True) -> float:
    """Variance of the data; ``sample`` uses Bessel's correction."""
    if len(values) < 2:
        raise ValueError("variance needs at least two data points")
    centre = mean(values)
    squares = sum((value - centre) ** 2 for value in values)
    return squares / (len(values) - 1 if sample else len(values))


def round_to(value: float, step: float = 0.5) -> float:
    # Round to the nearest multiple of step, halves away from zero.
    if step <= 0:
        raise ValueError("step must be positive")
    scaled = abs(value) / step
    rounded = math.floor(scaled + 0.5) * step
    return math.copysign(rounded, value)


def is_close(first: float, second: float, tolerance: float = EPSILON) -> bool:
    """Compare two floats with an absolute and a relative tolerance."""
    return math.isclose(
        first,
        second,
        rel_tol=tolerance,
        abs_tol=tolerance,
    )


def moving_average(values: Sequence[float], window: int = 3) -> list[float]:
    """Average of each run of ``window`` consecutive values."""
    if window <= 0 or window > len(values):
        raise ValueError(f"window must be between 1 and {len(values)}, got {window}")
    running = sum(values[:window])
    averages = [running / window]
    for index in range(window, len(values)):
        running += values[index] - values[index - window]
        averages.append(running / window)
    return averages


class Histogram:
    """Count values into equal-width bins between ``low`` and ``high``."""

    def __init__(self, low: float, high: float, bins: int = 10) -> None:
        if bins <= 0:
            raise ValueError("bins must be positive")
        self.low = low
        self.high = high
        self.counts = [0] * bins

    @property
    def width(self) -> float:
        return (self.high - self.low) / len(self.counts)

    def add(self, value: float) -> None:
        """Count one value; values outside the range go to the edge bins."""
        index = int((clamp(value, self.low, self.high) - self.low) / self.width)
        self.counts[min(index, len(self.counts) - 1)] += 1

    def extend(self, values: Iterable[float]) -> None:
        for value in values:
            self.add(value)
