"""The results tables are made from the result files: a figure is read from a stamped .json, a
result not made yet gets the command that makes it, and nothing of the README outside the
markers changes."""

import json

import pytest

from experiments.readme_table import ROWS
from experiments.results_page import BEGIN, END, headline, rewrite_readme, table
from experiments.stamp import Stamp, write_json

PERFT = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800]


def perft_json(folder, leaves_at_11=212258800):
    rows = [{"depth": d, "leaves": n if d < 11 else leaves_at_11, "published": n,
             "seconds": 1.25, "leaves_per_second": n / 1.25} for d, n in enumerate(PERFT) if d]
    write_json(folder / "bench_perft.json", {"rows": rows}, Stamp.begin(["experiments/x.py"]))


def row_of(lines, what):
    return next(line for line in lines if line.startswith(f"| {what} |"))


def test_a_figure_comes_from_its_json_and_a_missing_one_names_its_command(tmp_path):
    perft_json(tmp_path)
    lines = table(tmp_path)
    assert row_of(lines, "Reversi perft from the start, one thread") == (
        "| Reversi perft from the start, one thread | perft(11) = 212,258,800 leaves (the "
        "published count) in 1.25 s = 170 M leaves/s | >= 100 M/s | "
        "[bench_perft](results/bench_perft.md) |")
    assert "| to be measured: `python -m experiments.reproduce --only bench_solve` |" in \
        row_of(lines, "exact solve of FFO #20-#39, one thread")
    assert len([line for line in lines if line.startswith("| ")]) == len(ROWS) + 1


def test_a_wrong_count_is_said_in_the_table(tmp_path):
    perft_json(tmp_path, leaves_at_11=212258801)
    assert "(**not** the published count)" in row_of(table(tmp_path), "Reversi perft from "
                                                      "the start, one thread")


def test_a_json_written_before_results_were_stamped_is_not_read(tmp_path):
    (tmp_path / "bench_perft.json").write_text(json.dumps({"rows": []}))
    assert "to be measured" in row_of(table(tmp_path), "Reversi perft from the start, "
                                                       "one thread")


def test_only_the_lines_between_the_markers_change(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"# title\n\ntext\n\n{BEGIN}\nold table\n{END}\n\nafter\n")
    perft_json(tmp_path)
    rewrite_readme(readme, tmp_path)
    text = readme.read_text()
    assert text.startswith(f"# title\n\ntext\n\n{BEGIN}\n| measured | result | file |")
    assert text.endswith(f"|\n{END}\n\nafter\n") and "old table" not in text
    rewrite_readme(readme, tmp_path)
    assert readme.read_text() == text  # rewriting is idempotent


@pytest.mark.parametrize("text", ["no markers\n", f"{END}\n{BEGIN}\n", f"{BEGIN}\n{BEGIN}\n{END}"])
def test_a_readme_without_one_pair_of_markers_is_refused_in_one_line(tmp_path, text):
    readme = tmp_path / "README.md"
    readme.write_text(text)
    with pytest.raises(SystemExit) as stop:
        rewrite_readme(readme, tmp_path)
    assert "needs one <!-- results:begin --> line before one <!-- results:end --> line" in \
        str(stop.value) and "\n" not in str(stop.value)
    assert readme.read_text() == text


def test_the_headline_is_at_most_eight_rows_each_linking_its_file(tmp_path):
    perft_json(tmp_path)
    rows = headline(tmp_path)[2:]
    assert 1 <= len(rows) <= 8 and len(rows) == len([r for r in ROWS if r.headline])
    assert rows[0].endswith("| [bench_perft](experiments/results/bench_perft.md) |")
    assert "212,258,800" in rows[0]
