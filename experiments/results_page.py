"""The results pages, written from the committed result files: ``experiments/RESULTS.md`` (every
row of ``experiments/readme_table.py``) and the README's headline table (the rows that carry a
``headline``, between ``BEGIN`` and ``END``; the rest of the README is left as it is).

``python -m experiments.reproduce`` rewrites both after its jobs; ``--tables`` rewrites them
from the files as they are, measuring nothing. ``tests/experiments/test_results_page.py`` checks
that the committed pages are what this module writes.
"""

from __future__ import annotations

from pathlib import Path

from experiments.readme_table import ROWS, cell
from experiments.stamp import ROOT

BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"
RESULTS_PAGE = ROOT / "experiments" / "RESULTS.md"

INTRO = ("Every figure below is read from a result file in `experiments/results/` that a "
         "committed script wrote; each file records its command, the commit, the machine with "
         "its load, and the date. This page is generated: `python -m experiments.reproduce` "
         "reruns the scripts and rewrites it (`--list` shows what it runs, `--quick` the "
         "minutes-long exact subset, `--tables` only rewrites this page and the README's "
         "headline from the files as they are). The notes on what was tried, and why: "
         "[notes/](notes/README.md).")


def _link(name: str, prefix: str) -> str:
    return f"[{name.removesuffix('.md')}]({prefix}{name})"


def table(results: Path, prefix: str = "results/") -> list[str]:
    """Every row: what, result, goal and its file (linked with ``prefix``)."""
    lines = ["| what | result | goal | file |", "|---|---|---|---|"]
    previous = None
    for row in ROWS:
        where = "same" if row.file == previous else _link(row.file, prefix)
        lines.append(f"| {row.what} | {cell(row, results)} | {row.goal} | {where} |")
        previous = row.file
    return lines


def headline(results: Path, prefix: str = "experiments/results/") -> list[str]:
    """The README's rows: at most eight, each linking to its result file."""
    rows = [r for r in ROWS if r.headline]
    assert len(rows) <= 8, "the README's headline holds at most 8 rows"
    return ["| measured | result | file |", "|---|---|---|",
            *(f"| {r.headline} | {cell(r, results)} | {_link(r.file, prefix)} |" for r in rows)]


def results_page(results: Path) -> str:
    return "\n".join(["# Results", "", INTRO, "", *table(results), ""])


def rewrite_readme(readme: Path, results: Path) -> None:
    """Replace the lines between the markers with the headline table; exit with one line when
    the README has no markers."""
    text = Path(readme).read_text(encoding="utf-8")
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise SystemExit(f"error: {readme}: needs one {BEGIN} line before one {END} line")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    body = "\n".join(headline(results))
    Path(readme).write_text(f"{head}{BEGIN}\n{body}\n{END}{tail}", encoding="utf-8")


def write_results_page(page: Path, results: Path) -> None:
    Path(page).write_text(results_page(results), encoding="utf-8")
