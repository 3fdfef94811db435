"""history.png: copied code lines and marked files over the commits."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

_MAX_TICKS = 12  # x-axis labels on the plot



def tick_label(frame: pd.DataFrame, i: int) -> str:
    """Row ``i``'s x-axis label: its first tag (a ``--tags`` series is read by release) or its
    short commit id, over its date."""
    value = frame["tags"].iat[i] if "tags" in frame.columns else ""
    tags = value.split() if isinstance(value, str) else []  # (read back from history.csv: NaN)
    return f"{tags[0] if tags else frame['commit'].iat[i][:7]}\n{frame['date'].iat[i][:10]}"


def _tick_positions(n: int, limit: int = _MAX_TICKS) -> list[int]:
    """At most ``limit`` commit indexes one step apart, always the first and the last (the regular
    one before the last dropped when nearer to it than a step). Rounded even spreading put
    neighbours side by side (21 commits: 4 and 5, 15 and 16), and their labels, wider than one
    commit's room, ran into each other."""
    if n <= limit:
        return list(range(n))
    step = -(-(n - 1) // (limit - 1))
    ticks = list(range(0, n, step))
    if n - 1 - ticks[-1] < step:
        ticks = ticks[:-1]
    return [*ticks, n - 1] if ticks else [n - 1]


def plot_history(frame: pd.DataFrame, path: Path, title: str = "") -> Path:
    """Two panels over commit index: copied code lines (verbatim, near, all code); marked files."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    x = list(range(len(frame)))
    verbatim = frame["code_verbatim"].astype(int).tolist()
    near = frame["code_near"].astype(int).tolist()
    copied = [v + n for v, n in zip(verbatim, near, strict=True)]
    marker = "o" if len(frame) <= 40 else None

    fig = Figure(figsize=(10, 6.5), layout="constrained")
    FigureCanvasAgg(fig)  # render with Agg whatever pyplot's backend is
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=[2, 1])
    top.fill_between(x, 0, verbatim, alpha=0.35, color="tab:red", linewidth=0)
    top.fill_between(x, verbatim, copied, alpha=0.35, color="tab:orange", linewidth=0)
    top.plot(x, verbatim, color="tab:red", marker=marker, label="verbatim code lines")
    top.plot(x, copied, color="tab:orange", marker=marker, label="verbatim + near code lines")
    code = frame["code_lines"].astype(int).tolist()
    top.plot(x, code, color="0.4", linestyle="--", marker=marker, label="all code lines")
    top.set_ylabel("code lines")
    top.set_ylim(0, max([*code, 1]) * 1.3)  # room for the legend above the lines
    top.legend(loc="upper left", fontsize="small", ncols=3)
    top.grid(alpha=0.3)
    if title:
        top.set_title(title)

    marked = frame["marked_files"].astype(int).tolist()
    bottom.plot(x, marked, color="tab:blue", marker=marker,
                drawstyle="steps-post" if marker is None else "default", label="marked files")
    bottom.set_ylabel("marked files")
    bottom.set_ylim(0, max([*marked, 1]) * 1.15)
    bottom.yaxis.set_major_locator(MaxNLocator(integer=True))
    bottom.grid(alpha=0.3)
    ticks = _tick_positions(len(frame))
    bottom.set_xticks(ticks)
    bottom.set_xticklabels([tick_label(frame, i) for i in ticks], fontsize="x-small")
    bottom.set_xlabel("commit (oldest first)")
    if len(frame) == 1:
        bottom.set_xlim(-0.5, 0.5)
    fig.savefig(path, dpi=110, metadata={"Software": None})
    return path
