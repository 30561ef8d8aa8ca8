"""``python -m evolve.report`` and the figures behind it, on a real smoke run.

The markdown is checked against the run's own files read independently (pandas for
generations.csv, ``load_weights`` for champion.json), and the heatmaps against a matrix whose
every square holds its own index, so a flipped or transposed board cannot pass.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402

from engine.core import get_game  # noqa: E402
from engine.reversi.figures import heatmaps as weight_plots  # noqa: E402
from engine.reversi.figures.report import weights_markdown  # noqa: E402
from engine.reversi.files import load_weights  # noqa: E402
from engine.reversi.genome.weights import FEATURE_NAMES, Weights, default_phase_bounds
from engine.reversi.rules.state import square  # noqa: E402
from evolve.analysis import plots  # noqa: E402
from evolve.analysis.captions import elo_range  # noqa: E402
from evolve.analysis.markdown import generation_table  # noqa: E402
from evolve.analysis.names import diversity_label, opponent_label  # noqa: E402
from evolve.analysis.report import genome_figures, laid_out  # noqa: E402
from evolve.analysis.report import main as report_main  # noqa: E402
from evolve.analysis.rundata import (  # noqa: E402
    RunDirError,
    distinct_labels,
    find_runs,
    load_run,
    load_runs,
    select_run_dirs,
)
from tests.smoke_run import ROOT, run_env, smoke_sweep_for  # noqa: E402


@pytest.fixture(scope="session")
def smoke_sweep(tmp_path_factory) -> list[Path]:
    return smoke_sweep_for(tmp_path_factory)
RUN_FIGURES = ("strength", "fitness", "yardstick", "diversity", "positional", "features",
               "weight_history")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def report(*args):
    return subprocess.run([sys.executable, "-m", "evolve.report", *map(str, args)], cwd=ROOT,
                          env=run_env(), capture_output=True, text=True, timeout=300)


def markdown_table(text: str, heading: str) -> pd.DataFrame:
    """The first markdown table after ``heading``, as strings."""
    lines = text[text.index(heading):].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return pd.DataFrame(rows[2:], columns=rows[0])


@pytest.fixture(scope="module")
def reported_run(smoke_sweep, tmp_path_factory):
    """A copy of the first smoke job with ``python -m evolve.report`` run on it."""
    run_dir = tmp_path_factory.mktemp("report") / "run"
    shutil.copytree(smoke_sweep[0], run_dir)
    done = report(run_dir)
    assert done.returncode == 0, done.stderr
    return run_dir


@pytest.mark.parametrize("stem", RUN_FIGURES)
def test_report_writes_each_figure_as_a_real_png(reported_run, stem):
    path = reported_run / f"report_{stem}.png"
    assert path.read_bytes()[:8] == PNG_MAGIC
    image = plt.imread(path)
    assert image.shape[0] > 200 and image.shape[1] > 300
    assert image[..., :3].std() > 0.05  # not a blank canvas


def test_report_generation_table_matches_generations_csv(reported_run):
    text = (reported_run / "report.md").read_text()
    table = markdown_table(text, "## Generations")
    csv = pd.read_csv(reported_run / "generations.csv")
    assert list(table["generation"].astype(int)) == list(csv["generation"])  # 0-based, as csv
    for header, column in (("best fitness", "best_fitness"), ("worst fitness", "min_fitness"),
                           ("fitness std", "std_fitness"), ("yardstick score", "yardstick_score"),
                           ("diversity", "diversity")):
        np.testing.assert_allclose(table[header].astype(float), csv[column], rtol=1e-3,
                                   atol=1e-9)
    for shown, row in zip(table["champion Elo [95% CI]"], csv.itertuples(), strict=True):
        assert shown == elo_range(row.champion_elo, row.champion_elo_low, row.champion_elo_high)


def test_report_leaves_out_a_column_that_never_changes_and_says_so(reported_run):
    csv = pd.read_csv(reported_run / "generations.csv")
    assert (csv["mean_fitness"] == 0).all()  # the smoke run's fitness is a zero-sum round robin
    text = (reported_run / "report.md").read_text()
    assert "mean fitness" not in markdown_table(text, "## Generations").columns
    assert ("`mean_fitness` is 0 in every generation (round-robin fitness is zero-sum) and left "
            "out.") in text


def test_a_column_that_changes_stays_in_the_table():
    g = pd.DataFrame({"generation": [0, 1, 2], "best_fitness": [3.0, 4.0, 5.0],
                      "mean_fitness": [1.0, 1.5, 2.0], "min_fitness": [0.0, 0.0, 0.0],
                      "std_fitness": [1.0, 1.0, 1.0], "yardstick_score": [np.nan] * 3,
                      "diversity": [0.2, 0.1, 0.1]})
    text = generation_table(g)
    header = text.splitlines()[0]
    assert "mean fitness" in header and "best fitness" in header and "diversity" in header
    for gone in ("worst fitness", "fitness std", "yardstick score"):
        assert gone not in header
    assert "`min_fitness` is 0 in every generation and left out." in text
    assert "`yardstick_score` is empty in every generation and left out." in text


def test_every_figure_has_a_caption_under_it(reported_run):
    text = (reported_run / "report.md").read_text()
    figures = re.findall(r"!\[(\w+)\]\((report_\w+\.png)\)\n\n\*Figure (\d+)\. ([^*]+)\*", text)
    assert [stem for stem, *_ in figures] == list(RUN_FIGURES)
    assert [int(k) for *_, k, _ in figures] == list(range(1, len(RUN_FIGURES) + 1))
    for stem, name, _, caption in figures:
        assert name == f"report_{stem}.png" and (reported_run / name).is_file()
        assert len(caption) > 40


def test_report_champion_table_matches_champion_file(reported_run):
    text = (reported_run / "report.md").read_text()
    champion = load_weights(reported_run / "champion.json")
    provenance = dict(markdown_table(text, "## Champion").values)
    csv = pd.read_csv(reported_run / "generations.csv").set_index("generation")
    generation = int(provenance["generation"])
    assert generation == champion.metadata["provenance"]["generation"]
    assert float(provenance["fitness"]) == pytest.approx(csv.loc[generation, "best_fitness"],
                                                         rel=1e-3)
    features = markdown_table(text, "### Feature weights per phase")
    np.testing.assert_allclose(features[list(FEATURE_NAMES)].astype(float), champion.features,
                               rtol=1e-3, atol=1e-9)
    board = markdown_table(text, "### Positional weights, phase 0").set_index("")
    for name in ("a1", "h1", "a8", "b7", "c3", "h8"):
        value = float(board.loc[name[1], name[0]])
        assert value == pytest.approx(champion.positional[0, square(name)], rel=1e-3, abs=1e-9)


def test_report_compares_the_runs_of_a_sweep(smoke_sweep, tmp_path):
    sweep = tmp_path / "sweep"
    shutil.copytree(smoke_sweep[0].parent, sweep)
    done = report(sweep)
    assert done.returncode == 0, done.stderr
    assert (sweep / "comparison.png").read_bytes()[:8] == PNG_MAGIC
    table = markdown_table((sweep / "comparison.md").read_text(), "# Run comparison")
    assert list(table["run"]) == ["seed=1", "seed=2"]  # only what the sweep changed
    for job in ("0", "1"):
        assert (sweep / job / "report.md").is_file()


@pytest.mark.parametrize("problem", ["missing", "empty_dir", "no_columns", "bad_champion"])
def test_report_bad_run_dir_is_a_one_line_error(smoke_sweep, tmp_path, capsys, problem):
    run_dir = tmp_path / "run"
    if problem != "missing":
        run_dir.mkdir()
    if problem in ("no_columns", "bad_champion"):
        shutil.copytree(smoke_sweep[0], run_dir, dirs_exist_ok=True)
    if problem == "no_columns":
        csv = pd.read_csv(run_dir / "generations.csv").drop(columns=["diversity"])
        csv.to_csv(run_dir / "generations.csv", index=False)
    if problem == "bad_champion":
        (run_dir / "champion.json").write_text('{"schema_version": 1, "phases": [')
    assert report_main([str(run_dir)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("evolve.report: error: ")
    assert str(run_dir) in lines[0]
    if problem == "no_columns":
        assert "diversity" in lines[0]


def test_report_command_exits_non_zero_without_traceback(tmp_path):
    done = report(tmp_path / "nowhere")
    assert done.returncode == 2
    expected = f"evolve.report: error: {tmp_path / 'nowhere'}: no such run directory"
    assert done.stderr.strip() == expected


def test_champion_history_from_individuals_matches_champion_files(smoke_sweep, tmp_path):
    run_dir = tmp_path / "run"
    shutil.copytree(smoke_sweep[0], run_dir)
    from_files = load_run(run_dir).champion_history()
    shutil.rmtree(run_dir / "champions")
    from_individuals = load_run(run_dir).champion_history()
    csv = pd.read_csv(run_dir / "generations.csv")
    assert [g for g, _ in from_files] == [g for g, _ in from_individuals] == list(csv["generation"])
    for (_, a), (_, b) in zip(from_files, from_individuals, strict=True):
        np.testing.assert_array_equal(a.genome, b.genome)


def test_heatmap_draws_the_board_with_rank_8_on_top():
    n = 2
    positional = np.tile(np.arange(64.0), (n, 1)) + 100 * np.arange(n)[:, None]
    weights = Weights(default_phase_bounds(n), positional, np.zeros((n, len(FEATURE_NAMES))))
    fig = weight_plots.plot_positional(weights)
    for phase in range(n):
        ax = fig.axes[phase]
        data = np.asarray(ax.get_images()[0].get_array())
        y_ticks, y_labels = ax.get_yticks(), [t.get_text() for t in ax.get_yticklabels()]
        top = int(np.argmin(y_ticks) if ax.yaxis_inverted() else np.argmax(y_ticks))
        assert y_labels[top] == "8"
        expected_top_row = [positional[phase, square(f"{f}8")] for f in "abcdefgh"]
        assert list(data[int(y_ticks[top])]) == expected_top_row
        x_ticks, x_labels = ax.get_xticks(), [t.get_text() for t in ax.get_xticklabels()]
        assert not ax.xaxis_inverted() and x_labels == list("abcdefgh")
        for y, rank in zip(y_ticks, y_labels, strict=True):  # every labelled cell holds its square
            for x, file in zip(x_ticks, x_labels, strict=True):
                assert data[int(y), int(x)] == positional[phase, square(f"{file}{rank}")]
    plt.close(fig)


def test_sweep_labels_show_only_what_differs():
    assert distinct_labels([["+experiment=smoke", "seed=1"], ["+experiment=smoke", "seed=2"]]) \
        == ["seed=1", "seed=2"]
    assert distinct_labels([["+experiment=smoke"]]) == ["+experiment=smoke"]


def test_find_runs_expands_a_sweep_folder(smoke_sweep):
    assert find_runs(smoke_sweep[0].parent) == smoke_sweep
    assert find_runs(smoke_sweep[1]) == [smoke_sweep[1]]
    runs = load_runs([smoke_sweep[0].parent])
    assert [r.label for r in runs] == ["seed=1", "seed=2"]


def test_run_dirs_env_var_wins_over_the_parameter(monkeypatch, smoke_sweep, tmp_path):
    monkeypatch.setenv("BOARD_EVOLVE_RUNS", os.pathsep.join(map(str, smoke_sweep)))
    assert select_run_dirs(["elsewhere"], tmp_path) == smoke_sweep
    monkeypatch.delenv("BOARD_EVOLVE_RUNS")
    assert select_run_dirs(["a/b"], tmp_path) == [tmp_path / "a" / "b"]
    with pytest.raises(RunDirError, match="no run directories"):
        select_run_dirs([], tmp_path)


def test_newest_run_is_the_default(smoke_sweep, tmp_path):
    for k, source in enumerate(smoke_sweep):
        target = tmp_path / "outputs" / "2026-01-01" / f"run{k}"
        shutil.copytree(source, target)
        stamp = 1_000_000 + 1000 * (1 - k)  # run0 newer than run1
        os.utime(target / "generations.csv", (stamp, stamp))
    assert select_run_dirs([], tmp_path) == [tmp_path / "outputs" / "2026-01-01" / "run0"]


def test_champion_markdown_writes_every_square_in_board_order():
    n = 6  # more phases than the markdown prints: first, middle and last
    positional = np.tile(np.arange(64.0), (n, 1)) + 100 * np.arange(n)[:, None]
    features = np.arange(n * len(FEATURE_NAMES), dtype=float).reshape(n, -1) / 8
    weights = Weights(default_phase_bounds(n), positional, features, name="probe")
    text = weights_markdown(weights)
    printed = [int(line.split("phase ")[1].split(" ")[0]) for line in text.splitlines()
               if line.startswith("### Positional weights, phase")]
    assert printed == [0, n // 2, n - 1]
    for phase in printed:
        board = markdown_table(text, f"### Positional weights, phase {phase} ").set_index("")
        assert list(board.index) == [str(r) for r in range(8, 0, -1)]  # rank 8 on top
        for name in (f"{f}{r}" for f in "abcdefgh" for r in range(1, 9)):
            assert float(board.loc[name[1], name[0]]) == positional[phase, square(name)]
    table = markdown_table(text, "### Feature weights per phase")
    np.testing.assert_allclose(table[list(FEATURE_NAMES)].astype(float), features, rtol=1e-3)


def test_curves_plot_the_columns_of_generations_csv(smoke_sweep):
    runs = load_runs(smoke_sweep)
    g = pd.read_csv(smoke_sweep[0] / "generations.csv")
    lines = {line.get_label(): line for line in plots.plot_fitness(runs[0]).axes[0].get_lines()}
    for label, column in (("best individual", "best_fitness"), ("worst individual",
                                                                 "min_fitness")):
        np.testing.assert_array_equal(lines[label].get_ydata(), g[column])
    strength = plots.plot_strength(runs[0]).axes[0]
    champion = next(line for line in strength.get_lines()
                    if line.get_label() == "champion's Elo")
    finite = np.isfinite(g["champion_elo"])
    np.testing.assert_array_equal(champion.get_ydata()[finite], g["champion_elo"][finite])
    diversity = {line.get_label(): line for line in plots.plot_diversity(runs[0]).axes[0]
                 .get_lines()}
    groups = [c for c in g.columns if c.startswith("diversity_")]
    assert {"diversity_p0", "diversity_mobility"} <= set(groups)
    for column in groups:
        np.testing.assert_array_equal(diversity[diversity_label(column)].get_ydata(), g[column])
    assert "phase 0 genes" in diversity and "mobility genes" in diversity
    lines = {line.get_label(): line for line in plots.plot_yardstick(runs[0]).axes[0].get_lines()}
    opponents = [c.removeprefix("yardstick_") for c in g.columns
                 if c.startswith("yardstick_") and c != "yardstick_score"]
    assert opponents and {opponent_label(o) for o in opponents} | {"mean over the panel"} <= \
        set(lines)
    for o in opponents:
        np.testing.assert_array_equal(lines[opponent_label(o)].get_ydata(), g[f"yardstick_{o}"])
    fig = plots.plot_comparison(runs)
    for ax, metric in zip(fig.axes, plots.COMPARISON_METRICS, strict=True):
        drawn = {line.get_label(): line.get_ydata() for line in ax.get_lines()}
        assert set(drawn) == {"seed=1", "seed=2"}
        for run in runs:
            expected = run.generations[metric].replace([np.inf, -np.inf], np.nan)
            np.testing.assert_array_equal(drawn[run.label], expected)
    plt.close("all")


def write_generations(run_dir: Path, rows: list[str]) -> None:
    run_dir.mkdir()
    header = ",".join(["generation", "best_fitness", "mean_fitness", "min_fitness",
                       "std_fitness", "yardstick_score", "diversity"])
    (run_dir / "generations.csv").write_text("\n".join([header, *rows]) + "\n")


@pytest.mark.parametrize("bad_row, fields", [("1,5.0,1.0", 3), ("1,5,1,0,2,0.5,0.1,9", 8)])
def test_a_short_or_long_generations_row_is_a_one_line_error(tmp_path, capsys, bad_row, fields):
    run_dir = tmp_path / "run"
    write_generations(run_dir, ["0,4.0,1.0,-2.0,1.5,0.5,0.2", bad_row, "2,6,1,0,2,0.5,0.1"])
    with pytest.raises(RunDirError, match=f"line 3 has {fields} fields, the header has 7"):
        load_run(run_dir)
    assert report_main([str(run_dir)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "generations.csv: line 3" in lines[0]


def test_complete_generations_rows_still_load(tmp_path):
    run_dir = tmp_path / "run"
    write_generations(run_dir, ["1,6,1,0,2,,0.1", "0,4.0,1.0,-2.0,1.5,0.5,0.2"])
    run = load_run(run_dir)  # an empty yardstick cell is a value, not a missing field
    assert list(run.generations["generation"]) == [0, 1]


def assert_readable(fig) -> None:
    """Every axes labelled and inside the figure (nothing clipped); legends outside every axes
    (never over a curve, a tick label or an axis label, the right axis' included)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    page = fig.bbox
    for ax in fig.axes:
        assert ax.get_ylabel(), ax.get_title()
        box = ax.get_tightbbox(renderer)
        assert page.x0 - 1 <= box.x0 and box.x1 <= page.x1 + 1, "clipped left or right"
        assert page.y0 - 1 <= box.y0 and box.y1 <= page.y1 + 1, "clipped top or bottom"
    assert fig.axes[0].get_xlabel()
    assert fig.legends and not [ax for ax in fig.axes if ax.get_legend()], \
        "one legend below the axes, none inside them"
    for legend in fig.legends:
        where = legend.get_window_extent(renderer)
        assert page.x0 - 1 <= where.x0 and where.x1 <= page.x1 + 1
        for ax in fig.axes:
            assert not where.overlaps(ax.get_tightbbox(renderer)), ax.get_ylabel()


def test_curve_figures_are_labelled_unclipped_with_legends_off_the_axes(smoke_sweep):
    runs = load_runs(smoke_sweep)
    for fig in [*plots.run_figures(runs[0]).values(), plots.plot_comparison(runs)]:
        assert_readable(fig)
    plt.close("all")


@pytest.mark.parametrize("run", ["pentago_twist", "hexifence", "othello"])
def test_a_games_genome_figure_keeps_its_labels_and_titles_apart(run):
    """The committed champion's genome figures as the report saves them: every tick label
    inside the figure (Pentago Twist's gene names were cut at the bottom) and the figure's
    title clear of every panel title (it covered one)."""
    path = ROOT / "experiments" / "runs" / run / "champion.json"
    champion = get_game(run).load_champion(path)
    for fig in genome_figures(get_game(run), champion, []).values():
        canvas = FigureCanvasAgg(laid_out(fig))  # what savefig draws with
        canvas.draw()
        renderer, page = canvas.get_renderer(), fig.bbox
        for ax in fig.axes:
            for label in [*ax.get_xticklabels(), *ax.get_yticklabels()]:
                if label.get_text() and label.get_visible():
                    box = label.get_window_extent(renderer)
                    assert page.x0 - 1 <= box.x0 and box.x1 <= page.x1 + 1, label.get_text()
                    assert page.y0 - 1 <= box.y0 and box.y1 <= page.y1 + 1, label.get_text()
            if fig._suptitle is not None and ax.get_title():
                assert not fig._suptitle.get_window_extent(renderer).overlaps(
                    ax.title.get_window_extent(renderer)), ax.get_title()
        plt.close(fig)


def test_a_run_without_champion_elo_says_why_its_strength_figure_is_empty(smoke_sweep,
                                                                           tmp_path):
    run_dir = tmp_path / "old_run"
    shutil.copytree(smoke_sweep[0], run_dir)
    csv = pd.read_csv(run_dir / "generations.csv")
    csv.drop(columns=["champion_elo", "champion_elo_low", "champion_elo_high"]).to_csv(
        run_dir / "generations.csv", index=False)
    ax = plots.plot_strength(load_run(run_dir)).axes[0]
    assert "no champion Elo" in " ".join(t.get_text() for t in ax.texts)
    assert list(ax.get_xticks()) == [] and list(ax.get_yticks()) == []  # no meaningless 0..1
    plt.close("all")


@pytest.mark.parametrize("elo, low, high, shown", [
    (436.2, 377.0, 502.4, "+436 [+377, +502]"),
    (np.inf, 406.0, np.inf, ">= +406 (won every panel game: no upper bound)"),
    (-np.inf, -np.inf, -406.0, "<= -406 (lost every panel game: no lower bound)"),
    (150.0, -35.0, np.inf, "+150 [-35, no upper bound: too few games]"),
    (-191.0, -np.inf, 35.0, "-191 [no lower bound: too few games, +35]"),
    (-1e-14, -297.0, 297.0, "+0 [-297, +297]"),
    (np.nan, np.nan, np.nan, "n/a"),
])
def test_elo_ranges_say_in_words_why_an_end_is_missing_and_never_print_inf(elo, low, high, shown):
    assert elo_range(elo, low, high) == shown
