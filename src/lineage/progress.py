"""Progress of a long stage on stderr: a bar with count, rate and ETA when stderr is a terminal,
plain ``lineage: ...`` lines otherwise (a log file, CI), nothing with ``-q``.

A stage opens one :func:`meter` and ticks it per item done. Only the CLI's callback
(:func:`lineage.settings.print_progress`, its ``RunSettings.progress``) is drawn as a bar; a
library caller's own callback gets the plain lines and never a bar.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from tqdm import tqdm


@contextmanager
def meter(total: int, what: str, unit: str, log: Callable[[str], None] | None, bar: bool,
          note: str = "") -> Iterator[Callable[[int], None]]:
    """A tick function for ``total`` items of one stage. ``bar``: draw a bar if stderr is a
    terminal; otherwise ``log`` (if any) gets a line at the start (with ``note``) and one at the
    end (with the rate)."""
    if log is None or total <= 0:
        yield lambda n=1: None
        return
    if bar and sys.stderr.isatty():
        with tqdm(total=total, desc=f"lineage: {what}", unit=f" {unit}", file=sys.stderr,
                  mininterval=0.5, dynamic_ncols=True) as shown:
            yield shown.update
        return
    log(f"{what}: {total:,} {unit}{note}")
    started = time.perf_counter()
    done = 0

    def tick(n: int = 1) -> None:
        nonlocal done
        done += n

    yield tick
    seconds = time.perf_counter() - started
    rate = f", {done / seconds:,.0f} {unit}/s" if seconds > 0 else ""
    log(f"{what}: {done:,} {unit} done in {seconds:.1f} s{rate}")
