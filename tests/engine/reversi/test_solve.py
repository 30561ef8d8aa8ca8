"""The exact solver reproduces the published FFO scores; the CLI reports and refuses clearly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.reversi.rules.state import Position, Variant, move_name, parse_move
from engine.reversi.solve import main, read_obf, solve_position
from tests.engine.reversi.helpers_search import exact_score, positions_with_empties

REPO = Path(__file__).resolve().parents[3]
# A copy ships in tests/data so the tests never skip in a fresh clone; the team's shared copy is
# the fallback.
FFO_FILE = next(
    (p for p in (REPO / "tests" / "data" / "ffo_1_19.obf",
                 REPO.parent / "shared" / "data" / "ffo" / "ffo_1_19.obf") if p.is_file()),
    REPO / "tests" / "data" / "ffo_1_19.obf",
)
needs_ffo = pytest.mark.skipif(
    not FFO_FILE.is_file(), reason=f"FFO test positions not found at {FFO_FILE}"
)


def ffo_positions() -> list[tuple[int, Position, dict[str, int]]]:
    """(number, position, {move name: exact score}) for each FFO line."""
    out = []
    for number, line in enumerate(FFO_FILE.read_text().splitlines(), start=1):
        fields = [f.strip() for f in line.split(";") if f.strip()]
        scores = {}
        for pair in fields[1:]:
            move, score = pair.split(":")
            scores[move_name(parse_move(move))] = int(score)
        out.append((number, Position.parse(fields[0]), scores))
    return out


def check(number: int, all_moves: bool) -> None:
    _, position, scores = ffo_positions()[number - 1]
    result = solve_position(position, Variant.OTHELLO, all_moves=all_moves)
    best = max(scores.values())
    assert result["score"] == best, f"FFO #{number}"
    assert scores.get(result["best_move"]) == best, f"FFO #{number}: {result['best_move']}"
    if all_moves:
        for move, score in scores.items():  # the file lists the good moves' exact scores
            assert result["move_scores"][move] == score, f"FFO #{number} {move}"


@needs_ffo
@pytest.mark.parametrize("number", [1, 2, 5, 7])
def test_ffo_easy_positions(number):
    check(number, all_moves=number in (5, 7))


@needs_ffo
@pytest.mark.slow
@pytest.mark.claims
@pytest.mark.parametrize("number", [3, 4, 6] + list(range(8, 20)))
def test_ffo_other_positions(number):
    check(number, all_moves=True)


def test_reversed_variant_is_solved_under_its_own_rules():
    for p in positions_with_empties(4, 7, seed=12):
        for variant in Variant:
            r = solve_position(p, variant, all_moves=True)
            assert r["score"] == exact_score(p, variant.is_reversed)
            assert r["move_scores"][r["best_move"]] == r["score"]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine.reversi.solve", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )


@needs_ffo
def test_cli_json_and_text():
    _, position, scores = ffo_positions()[4]
    out = run_cli(position.to_string(), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["score"] == max(scores.values()) and data["side_to_move"] == "X"
    text = run_cli(position.to_string())
    assert f"score: {max(scores.values()):+d}" in text.stdout and "best move: g8" in text.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["XO X"], "board must have 64 squares"),
        (["-" * 64 + " Z"], "side to move must be X or O"),
        (["-" * 27 + "OX------XO" + "-" * 27 + " X"], "more than --max-empties"),
        (["X" * 64 + " X", "--variant", "chess"], "unknown variant"),
    ],
)
def test_bad_input_is_one_line_error_exit_2(args, message, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err


FFO_20_39 = REPO / "tests" / "data" / "ffo_20_39.obf"


def test_file_mode_checks_every_position(tmp_path, capsys):
    lines = FFO_FILE.read_text().splitlines()
    good = tmp_path / "good.obf"
    good.write_text("\n".join(lines[4:7]) + "\n")
    assert main(["--file", str(good), "--first", "5"]) == 0
    out = capsys.readouterr().out
    assert "#5 " in out and "#7 " in out and "total: 3 positions, 0 wrong" in out
    bad = tmp_path / "bad.obf"
    position, rest = lines[4].split(";", 1)
    bad.write_text(f"{position}; G8:+30;\n")  # the true score is +32
    assert main(["--file", str(bad)]) == 1
    assert "WRONG (file: +30)" in capsys.readouterr().out


def test_file_mode_bad_input_is_one_line_error(tmp_path, capsys):
    broken = tmp_path / "broken.obf"
    broken.write_text("XO X; A1:+2;\n")
    for args in (["--file", str(broken)], ["--file", str(tmp_path / "missing.obf")], []):
        assert main(args) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error: ") and "\n" not in err


@pytest.mark.slow
@pytest.mark.claims
@pytest.mark.parametrize("number", range(20, 40))
def test_ffo_20_to_39(number):
    position, scores = read_obf(FFO_20_39)[number - 20]
    result = solve_position(position, Variant.OTHELLO)
    assert result["score"] == max(scores.values())
    assert scores.get(result["best_move"], result["score"]) == result["score"]
