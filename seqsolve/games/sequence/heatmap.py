"""The board heatmaps of a balance point (Sequence's
:meth:`~seqsolve.games.sequence.game.SequenceGame.plot_games`): where chips end up and
where sequences form, from the summary that its tally made."""

from __future__ import annotations

from .board import CORNERS, SIZE, cell_name


def plot_heatmap(summary: dict, new_figure):
    """Where chips end up and where sequences form, as the share of games per cell: the figure."""
    import numpy as np

    fig = new_figure(10, 4.6)
    axes = fig.subplots(1, 2)
    maps = summary["heatmap"]
    for ax, key, title, cmap in (
        (axes[0], "chips", "a chip on the cell at the end", "Blues"),
        (axes[1], "sequences", "the cell in a completed sequence", "Oranges"),
    ):
        grid = np.asarray(maps[key], dtype=float).reshape(SIZE, SIZE)
        for c in CORNERS:
            grid[divmod(c, SIZE)] = np.nan
        image = ax.imshow(grid, cmap=cmap, vmin=0, vmax=max(float(np.nanmax(grid)), 1e-9))
        ax.set_xticks(range(SIZE), [cell_name(c)[0] for c in range(SIZE)])
        ax.set_yticks(range(SIZE), [str(r + 1) for r in range(SIZE)])
        for c in CORNERS:
            ax.text(c % SIZE, c // SIZE, "*", ha="center", va="center", fontsize=14, color="grey")
        ax.set_title(f"share of games with {title}", fontsize="medium")
        fig.colorbar(image, ax=ax, shrink=0.85)
    fig.suptitle(f"{summary['label']}: {summary['games']} games")
    return fig
