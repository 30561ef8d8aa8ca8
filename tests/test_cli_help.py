"""Every command's ``--help`` reads: its summary is a sentence that ends, with no docstring markup
(double backticks, ``:role:`` or a stray backtick), and ``python -m evolve --help`` names the
README's study and describes keys that exist.

Commands are found, not listed: every module of ``engine``, ``evolve`` and ``experiments`` that
runs as ``__main__``, each game's ``engine.perft|solve|play --game NAME`` (the game's own modules
are reached that way, as a user reaches them). They run in this
process (``runpy``, as ``python -m`` does), all but Hydra's, which gets a subprocess.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.commands.helptext import first_sentence, plain, summary
from engine.core.registry import get_game, usable_game_names

ROOT = Path(__file__).resolve().parent.parent
HYDRA_ENTRY = "evolve"  # evolve/__main__.py: Hydra's help, checked on its own below


def main_modules() -> list[str]:
    found = []
    for package in ("engine", "evolve", "experiments"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if 'if __name__ == "__main__":' in path.read_text():
                module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
                found.append(module.removesuffix(".__main__"))
    dispatched = {module for name in usable_game_names()
                  for module in get_game(name).cli_commands.values()}
    return [m for m in found if m != HYDRA_ENTRY and m not in dispatched]


def game_commands() -> list[str]:
    return [f"{command} --game {name}" for name in usable_game_names()
            for command in sorted(get_game(name).cli_commands)]


COMMANDS = main_modules() + [f"engine.{c}" for c in game_commands()]


def help_text(command: str) -> str:
    module, *args = command.split()
    out = io.StringIO()
    saved = sys.argv
    sys.argv = [module, *args, "--help"]
    try:
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as exit_:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:
        sys.argv = saved
    assert exit_.value.code in (0, None), out.getvalue()
    return out.getvalue()


def description(text: str) -> str:
    """The help's text between the usage lines and the first list of options."""
    blocks = text.split("\n\n")
    kept = []
    for block in blocks[1:]:
        if re.match(r"^[\w ,-]+:\n ", block + "\n "):  # "options:", "positional arguments:"
            break
        kept.append(block)
    return "\n\n".join(kept)


MARKUP = re.compile(r"``|:[a-z]+:`|`")


@pytest.mark.parametrize("command", COMMANDS)
def test_the_summary_is_a_sentence_that_ends_without_markup(command):
    text = description(help_text(command))
    first = " ".join(text.split("\n\n")[0].split())
    assert first, f"{command} --help has no description"
    assert first.endswith((".", "?", "!")), f"{command} --help: {first!r} does not end"
    assert not MARKUP.search(text), f"{command} --help shows docstring markup: {text!r}"


@pytest.mark.parametrize("command", COMMANDS)
def test_no_option_help_shows_double_backticks(command):
    assert "``" not in help_text(command)


@pytest.mark.parametrize("doc, expected", [
    ("``python -m x [--y]``: serve the board.\n\nMore.", "Serve the board."),
    ("Play to the clock (the anytime driver): how much of its time\nit uses, how deep. Then more.",
     "Play to the clock (the anytime driver): how much of its time it uses, how deep."),
    ("What every game's speed is (``engine.core.Game``):\n\n- a list",
     "What every game's speed is (engine.core.Game)."),
    ("Uses :func:`foo`, e.g. Reversi. Second.", "Uses foo, e.g. Reversi."),
    ("Does it grow? Champions of several generations.", "Does it grow?"),
    (None, ""),
])
def test_summary_is_the_first_sentence_in_plain_text(doc, expected):
    assert summary(doc) == expected


def test_plain_and_first_sentence_keep_text_without_markup():
    assert plain("a  ``b``\n`c`") == "a b c"
    assert first_sentence("no end here") == "no end here"


# --- python -m evolve --help (Hydra: conf/hydra/help/evolve.yaml) ------------------------------


@pytest.fixture(scope="module")
def evolve_help() -> str:
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, "-m", "evolve", "--help"], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": path}, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def composed(*overrides: str):
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        return compose(config_name="config", overrides=list(overrides))


def test_evolve_help_names_the_readmes_study_with_its_settings(evolve_help):
    assert "python -m evolve +experiment=reversed_reversi" in evolve_help
    assert "python -m evolve +experiment=reversed_reversi" in (ROOT / "README.md").read_text()
    study = composed("+experiment=reversed_reversi")
    said = re.search(r"population (\d+), (\d+) generations, search depth (\d+) and\s+exact "
                     r"last (\d+) empties", evolve_help)
    assert said, evolve_help[:1500]
    assert [int(x) for x in said.groups()] == [study.ga.population, study.ga.generations,
                                              study.search.depth, study.search.endgame_empties]
    bare = composed()
    assert (bare.ga.population, bare.search.depth) != (study.ga.population, study.search.depth)


def test_evolve_help_describes_keys_that_exist(evolve_help):
    from omegaconf import OmegaConf

    keys = re.findall(r"^  ([a-z_.]+)=\S+ +\S", evolve_help, flags=re.MULTILINE)
    for key in ("ga.population", "ga.generations", "ga.elites", "search.depth",
                "games.openings", "backend"):
        assert key in keys, f"python -m evolve --help does not describe {key}"
    config = OmegaConf.to_container(composed(), resolve=False)
    for key in keys:
        if key == "game" or key.startswith("hydra."):
            continue
        node = config
        for part in key.split("."):
            assert isinstance(node, dict) and part in node, f"--help names {key}: no such key"
            node = node[part]
