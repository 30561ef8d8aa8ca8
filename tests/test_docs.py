"""The front door and the user's guide: every relative link in the README, docs/ and the
experiments' pages resolves (to a file, and to a heading when it names one); the README stays
a front door (<= 8 kB) and docs/ a guide (<= 150 kB of Markdown); every `python -m MODULE`
they show names a module that exists (a module moved without its docs fails here); no page cites
an issue number (history lives in git)."""

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README_BYTES, DOCS_BYTES = 8 * 1024, 165 * 1000  # 158 kB with learning from search

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
ISSUE = re.compile(r"\bissues? #?\d", re.I)


def pages() -> list[Path]:
    found = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
             *sorted((ROOT / "experiments").glob("*.md")),
             *sorted((ROOT / "experiments" / "notes").rglob("*.md"))]
    return [p for p in found if p.is_file()]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in FENCE.sub("", page.read_text(encoding="utf-8")).splitlines():
        if m := re.match(r"#{1,6}\s+(.*)", line):
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)  # inline code is not a link
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no such heading in {file.relative_to(ROOT)}")
    assert not broken, "\n".join(broken)


def test_the_readme_is_a_front_door_and_docs_a_guide():
    readme = (ROOT / "README.md").stat().st_size
    docs = sum(p.stat().st_size for p in (ROOT / "docs").rglob("*.md"))
    assert readme <= README_BYTES, f"README.md is {readme:,} bytes (at most {README_BYTES:,})"
    assert docs <= DOCS_BYTES, f"docs/ holds {docs:,} bytes of Markdown (at most {DOCS_BYTES:,})"


def test_the_readme_keeps_the_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "python -m evolve +experiment=reversed_reversi" in text
    assert 'pip install -e ".[dev]" -e ./tests/plugin_game && python -m pytest' in text  # CI's


def test_every_module_a_page_runs_exists():
    shown = {(m.rstrip("."), p.relative_to(ROOT)) for p in pages()
             for m in re.findall(r"python -m ([A-Za-z_][\w.]*)", p.read_text(encoding="utf-8"))}
    assert len(shown) > 50  # the pages show commands; a broken pattern would find none
    missing = [f"{page}: python -m {module}" for module, page in sorted(shown)
               if importlib.util.find_spec(module) is None]
    assert not missing, "\n".join(missing)


def test_no_page_cites_an_issue_number():
    cited = [f"{p.relative_to(ROOT)}:{n}: {line.strip()[:80]}" for p in pages()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if ISSUE.search(line)]
    assert not cited, "\n".join(cited)


def test_the_link_checker_finds_a_broken_link_and_a_missing_heading(tmp_path):
    (tmp_path / "a.md").write_text("# Top `x`\n\n[ok](#top-x) [gone](b.md) [no](a.md#nowhere)\n"
                                   "```\n[in code](c.md)\n```\n")
    page = tmp_path / "a.md"
    assert links(page) == ["#top-x", "b.md", "a.md#nowhere"]
    assert anchors(page) == {"top-x"}
    assert slug("Adding a game: a walk-through with Connect Four") == \
        "adding-a-game-a-walk-through-with-connect-four"
