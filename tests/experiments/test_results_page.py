"""The committed ``experiments/RESULTS.md`` and the README's headline table are exactly what
``experiments/results_page.py`` writes from the committed result files (no measuring): a figure
typed by hand, or a result file changed without rewriting the pages, fails here."""

from experiments.results_page import BEGIN, END, RESULTS_PAGE, headline, results_page
from experiments.stamp import ROOT

RESULTS = ROOT / "experiments" / "results"


def test_the_committed_results_page_is_what_the_generator_writes():
    assert RESULTS_PAGE.read_text(encoding="utf-8") == results_page(RESULTS), (
        "experiments/RESULTS.md is stale: python -m experiments.reproduce --tables")


def test_the_readmes_headline_is_what_the_generator_writes():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    between = text.split(BEGIN, 1)[1].split(END, 1)[0]
    assert between == "\n" + "\n".join(headline(RESULTS)) + "\n", (
        "the README's headline is stale: python -m experiments.reproduce --tables")


def test_every_row_of_the_pages_names_a_committed_result_file():
    for line in results_page(RESULTS).splitlines():
        if "](results/" in line:
            name = line.rsplit("](results/", 1)[1].split(")")[0]
            assert (RESULTS / name).is_file(), name
