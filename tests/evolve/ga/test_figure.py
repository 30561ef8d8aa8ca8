"""``fitness.png`` reads at a glance: every axis says what it measures, nothing is clipped at the
figure's edge (a right axis once read 70...20 for 700...200), legends name what each line is
and sit off the curves."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from evolve.ga.run_files.figure import figure

ROOT = Path(__file__).resolve().parents[3]
RUN = ROOT / "experiments" / "runs" / "reversed_reversi_progress"


@pytest.fixture(scope="module", params=["committed", "unbounded"])
def drawn(request):
    df = pd.read_csv(RUN / "generations.csv")
    df["hall_of_fame_score"] = np.where(df.generation >= 2, 0.8, np.nan)
    if request.param == "unbounded":  # a champion that won every panel game
        df.loc[3, ["champion_elo", "champion_elo_high"]] = np.inf
    fig = figure(df)
    canvas = FigureCanvasAgg(fig)  # what savefig draws with
    canvas.draw()
    return request.param, fig, canvas.get_renderer()


def every_axes(fig):
    return fig.axes  # the four panels and the right axis of the population panel


def test_every_axis_says_what_it_measures(drawn):
    _, fig, _ = drawn
    assert len(every_axes(fig)) == 5
    for ax in every_axes(fig):
        assert ax.get_ylabel(), ax.get_title()
    for ax in fig.axes[:4]:
        assert ax.get_xlabel() == "generation (0-based)" and ax.get_title()


def test_nothing_is_clipped_at_the_edge_of_the_figure(drawn):
    """Every axes with its drawn tick labels, axis labels, title and legend fits the figure."""
    _, fig, renderer = drawn
    width, height = fig.bbox.width, fig.bbox.height
    for ax in every_axes(fig):
        box = ax.get_tightbbox(renderer)
        assert 0 <= box.x0 and box.x1 <= width and 0 <= box.y0 and box.y1 <= height, \
            (ax.get_title() or ax.get_ylabel(), box, (width, height))
    right = fig.axes[4]  # the population panel's right axis: its labels are drawn
    assert right.get_ylabel() == "fitness spread (round-robin points)"
    assert max(t.get_window_extent(renderer).x1 for t in right.get_yticklabels()
               if t.get_text()) < right.yaxis.label.get_window_extent(renderer).x0


def test_legends_name_their_lines_and_stay_off_the_curves(drawn):
    _, fig, renderer = drawn
    labels = []
    for ax in fig.axes[:4]:
        legend = ax.get_legend()
        assert legend is not None, ax.get_title()
        box, plot = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
        assert box.y1 <= plot.y0, ax.get_title()  # below the plotting area
        labels += [t.get_text() for t in legend.get_texts()]
    assert "vs wpc_negated, 2 plies deeper" in labels
    assert "vs earlier champions (hall of fame; not in the Elo)" in labels
    assert {"phase 0 genes", "mobility genes", "all genes"} <= set(labels)
    assert "fitness spread: best minus worst (right)" in labels
    assert not [label for label in labels if label in ("p0", "p1", "mean") or "_" == label[:1]]


def test_an_unbounded_interval_is_marked_at_the_edge(drawn):
    case, fig, _ = drawn
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    marked = "interval with no upper or lower end: drawn to the edge" in labels
    assert marked == (case == "unbounded")


@pytest.mark.parametrize("rows", [1, 3])
def test_a_run_without_a_yardstick_draws_too(rows):
    """``yardstick.enabled=false`` leaves the strength and opponents panels empty (once a
    TypeError from their fixed ticks stopped such a run at its first generation)."""
    df = pd.read_csv(RUN / "generations.csv").head(rows)
    df = df.drop(columns=[c for c in df.columns if c.startswith(("yardstick", "champion_elo"))])
    fig = figure(df)
    FigureCanvasAgg(fig).draw()
    ticks = fig.axes[0].get_xticks()
    assert all(float(t).is_integer() for t in ticks)
