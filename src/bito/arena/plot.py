"""The ratings plot: one point per bot with its 95 % interval as an error bar (PNG or SVG, by
the file name's extension)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot_ratings(ratings: dict[str, tuple[float, Any]], path: str, title: str,
                 label: str) -> None:
    """Write the plot of ``ratings`` (name -> (rating, Interval)) to ``path``."""
    suffix = Path(path).suffix.lower()
    if suffix not in (".png", ".svg"):
        raise ValueError(f"--plot: write a .png or .svg file, not {path!r}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("the ratings plot needs matplotlib: pip install 'bito[arena]'") from e
    names = sorted(ratings, key=lambda b: ratings[b][0])
    values = [ratings[b][0] for b in names]
    lows = [max(0.0, v - ratings[b][1].low) for b, v in zip(names, values, strict=True)]
    highs = [max(0.0, ratings[b][1].high - v) for b, v in zip(names, values, strict=True)]
    fig, ax = plt.subplots(figsize=(6, 1.2 + 0.5 * len(names)))
    ax.errorbar(values, range(len(names)), xerr=[lows, highs], fmt="o", capsize=4)
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel(label)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
