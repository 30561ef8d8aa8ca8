"""Which command reproduces a committed run (``experiments/runs/...``) with today's code?

A run records the overrides it was started with (``.hydra/overrides.yaml``) and the whole
config it ran (``.hydra/config.yaml``). Settings added or changed since (a new key, a new
default in ``conf/experiment/*.yaml``, a new default panel) make the same overrides run another
study today. ``today_command`` pins each of them back to what the run did; ``replay`` runs the
first generations of that command and compares them with the run's files; ``PROVENANCE.md`` in
the run folder says both (``python -m experiments.provenance write RUN``).

    python -m experiments.provenance check                 # every run: PROVENANCE.md, config
    python -m experiments.provenance write experiments/runs/reversed_reversi_1ply --verify 2
"""

from __future__ import annotations

import argparse
import csv
import functools
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from omegaconf import DictConfig, OmegaConf

from engine.core.commands.helptext import summary
from experiments.stamp import ROOT, commit

RUNS = ROOT / "experiments" / "runs"
MOVED = {f"ga.{k}": f"game.genome.{k}" for k in ("phases", "phase_bounds", "symmetric")}
IGNORED = ("backend", "plot", "progress", "resume", "ray", "hydra")  # never change a result
# what a run made before a setting existed did, for the settings whose default is not that
BEFORE = {"ga.elite_copies": 0, "ga.immigrants": 0, "ga.sharing_radius": 0.0,
          "ga.algorithm": "ga", "games.margin": 0, "games.opponents_per_individual": None,
          "fitness.population": 1.0, "fitness.references": 0.0, "fitness.hall_of_fame": 0.0,
          "game.endgame_solver": "negamax", "game.genome.features": ["mobility", "stability"],
          "yardstick.hall_of_fame_every": 0, "playoff.enabled": False}
# compared on replay: a generation's fitness, yardstick scores, diversity and games (the in-run
# Elo columns are left out: computed differently since the panel-only Elo)
COMPARED = ("best_fitness", "mean_fitness", "min_fitness", "std_fitness", "yardstick_score",
            "diversity", "games")
FILE = "PROVENANCE.md"
NOTES = "## Notes"


def flat(node: dict, prefix: str = "") -> dict:
    out = {}
    for key, value in node.items():
        if isinstance(value, dict) and value:
            out.update(flat(value, f"{prefix}{key}."))
        else:
            out[MOVED.get(f"{prefix}{key}", f"{prefix}{key}")] = value
    return out


def recorded(run: Path) -> tuple[list[str], dict]:
    overrides = yaml.safe_load((run / ".hydra" / "overrides.yaml").read_text()) or []
    config = flat(yaml.safe_load((run / ".hydra" / "config.yaml").read_text()))
    return overrides, {k: v for k, v in config.items() if not k.startswith(IGNORED)}


def composed(overrides) -> DictConfig:
    """The config ``overrides`` compose to with today's code (a copy: composes are cached, one
    per override list, since the checks of every committed run compose the same commands)."""
    return _composed(tuple(overrides)).copy()


@functools.cache
def _composed(overrides: tuple[str, ...]) -> DictConfig:
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    from evolve.sweep import use_plugins

    use_plugins()  # a sweep's trial names hydra/sweeper=optuna, our plugin

    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        return hydra_compose("config", overrides=list(overrides))


def compose(overrides: list[str]) -> dict:
    cfg = OmegaConf.to_container(_composed(tuple(overrides)), resolve=True)
    return {k: v for k, v in flat(cfg).items() if not k.startswith(IGNORED)}


def played_panel(run: Path) -> list[str] | None:
    """The yardstick opponents the run played, from its generations.csv columns."""
    with open(run / "generations.csv", newline="") as f:
        header = next(csv.reader(f))
    panel = [c.removeprefix("yardstick_") for c in header
             if c.startswith("yardstick_") and c != "yardstick_score"]
    return panel or None


def value_text(value) -> str:
    if isinstance(value, list):
        return "[" + ",".join(value_text(v) for v in value) + "]"
    if value is None:
        return "null"
    return str(value).lower() if isinstance(value, bool) else str(value)


def pins(run: Path) -> list[str]:
    """Overrides that set today's config back to the run's: every key whose value differs, a
    key the run did not have at what runs did before it existed, the panel it played."""
    overrides, before = recorded(run)
    now = compose(overrides)
    extra = []
    for key in sorted(now):
        was = before.get(key, BEFORE.get(key, now[key]))
        if key == "yardstick.panel" and was is None:  # the game's panel of that time
            played = played_panel(run)
            default = now[key] or _game_panel(now.get("game.name"))
            was = played if played is not None and played != default else now[key]
        if was != now[key]:
            extra.append(f"{key}={value_text(was)}")
    return extra


def today_command(run: Path) -> list[str]:
    overrides, _ = recorded(run)
    return merge(overrides, pins(run))


def merge(overrides: list[str], extra: list[str]) -> list[str]:
    """``overrides`` with ``extra`` added; a key given twice keeps the later value (Hydra
    refuses a key given twice)."""
    out: dict[str, str] = {}
    for o in [*overrides, *extra]:
        out[o.split("=", 1)[0]] = o
    return list(out.values())


def config_matches(run: Path, overrides: list[str]) -> list[str]:
    """Keys where ``overrides`` compose to another value than the run recorded (its keys)."""
    _, before = recorded(run)
    now = compose(overrides)
    return [f"{k}: ran {before[k]!r}, now {now.get(k)!r}" for k in sorted(before)
            if k in now and now[k] != before[k] and k != "yardstick.panel"]


def replay(run: Path, overrides: list[str], generations: int) -> str | None:
    """Run ``generations`` generations of ``overrides`` serially and compare with ``run``;
    None when they match, else the first difference."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "evolve", *merge(overrides, [
            f"ga.generations={generations}", "backend=serial", "plot=false", "progress=false",
            "playoff.enabled=false"]), f"hydra.run.dir={tmp}"]
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            return f"the command failed: {done.stderr.strip().splitlines()[-1:]}"
        return compare(run, Path(tmp), generations)


def compare(run: Path, got: Path, generations: int) -> str | None:
    old, new = _table(run / "generations.csv"), _table(got / "generations.csv")
    for g in range(generations):
        for column in COMPARED:
            if column in old[0] and old[g][column] != new[g][column]:
                return f"generation {g} {column}: committed {old[g][column]}, now {new[g][column]}"
        for column in (c for c in old[0] if c.startswith("yardstick_")):
            if new[g].get(column) != old[g][column]:
                return (f"generation {g} {column}: committed {old[g][column]}, now "
                        f"{new[g].get(column)}")
    for name in ("individuals.csv", "games.csv"):
        if (run / name).is_file():
            width = len(_table(run / name)[0])
            keep = [list(r.values())[:width] for r in _table(run / name)
                    if int(r["generation"]) < generations]
            if keep != [list(r.values())[:width] for r in _table(got / name)]:
                return f"{name} differs in generations 0-{generations - 1}"
    return None


def write(run: Path, verify: int, note: str = "") -> str:
    made_at = _added_at(run)
    overrides, _ = recorded(run)
    today = today_command(run)
    where = f"hydra.run.dir={run.relative_to(ROOT)}"
    lines = [f"# Provenance of `{run.relative_to(ROOT)}`", "",
             f"Committed at `{made_at}` (the last commit that wrote its champion), made by its "
             "recorded command (`.hydra/overrides.yaml`):",
             "", "```bash", shlex.join(["python", "-m", "evolve", *overrides, where]), "```", ""]
    if today == overrides:
        lines += ["Today's defaults run the same study: this command still composes the config "
                  "the run recorded."]
    else:
        lines += ["Settings added or changed since make that command run another study today. "
                  "With today's code this command pins them back to what the run did:", "",
                  "```bash", shlex.join(["python", "-m", "evolve", *today, where]), "```"]
    why = None
    if verify:
        why = replay(run, today, verify)
        lines += ["", (f"Checked {time.strftime('%Y-%m-%d')} at commit `{commit()[0]}` "
                       f"(`python -m experiments.provenance write {run.relative_to(ROOT)} "
                       f"--verify {verify}`): generations 0-{verify - 1} replayed "
                       + ("give the same fitness, yardstick scores, diversity and games (the "
                          "in-run Elo is not compared)." if why is None else
                          f"do **not** match ({why}); the code of `{made_at}` made it."))]
    note = note or _kept_note(run / FILE)
    if note:
        lines += ["", NOTES, "", note]
    (run / FILE).write_text("\n".join(lines) + "\n")
    verdict = "pinned" if today != overrides else "same command"
    return verdict + ("" if not verify else ", replay matches" if why is None else
                      f", replay differs: {why}")


def runs() -> list[Path]:
    return sorted(p.parent.parent for p in RUNS.rglob(".hydra/config.yaml"))


def check() -> list[str]:
    """Problems: a run without PROVENANCE.md, or whose PROVENANCE command no longer composes
    the config it recorded."""
    problems = []
    for run in runs():
        text = (run / FILE).read_text() if (run / FILE).is_file() else None
        if text is None:
            problems.append(f"{run.relative_to(ROOT)}: no {FILE}")
            continue
        command = [line for line in text.splitlines() if line.startswith("python -m evolve")][-1]
        overrides = [o for o in shlex.split(command)[3:] if not o.startswith("hydra.")]
        problems += [f"{run.relative_to(ROOT)}: {d}" for d in config_matches(run, overrides)]
    return problems


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.provenance",
                                description=summary(__doc__))
    sub = p.add_subparsers(dest="what", required=True)
    sub.add_parser("check", help="every run has PROVENANCE.md whose command composes its config")
    w = sub.add_parser("write", help="write PROVENANCE.md of runs")
    w.add_argument("runs", type=Path, nargs="+")
    w.add_argument("--verify", type=int, default=0, metavar="GENERATIONS",
                   help="replay this many generations and say whether they match")
    w.add_argument("--note", default="", help="a paragraph added at the end")
    args = p.parse_args(argv)
    if args.what == "check":
        problems = check()
        for line in problems:
            print(line)
        return 1 if problems else 0
    for run in args.runs:
        print(f"{run}: {write(run.resolve(), args.verify, args.note)}", flush=True)
    return 0


def _kept_note(path: Path) -> str:
    """The notes of an existing PROVENANCE.md (rewriting it keeps them)."""
    text = path.read_text() if path.is_file() else ""
    return text.split(f"\n{NOTES}\n", 1)[1].strip() if f"\n{NOTES}\n" in text else ""


def _table(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _added_at(run: Path) -> str:
    """The last commit that wrote the run's champion (moves followed, not counted)."""
    done = subprocess.run(["git", "log", "--follow", "--diff-filter=AM", "--format=%h", "-1",
                           "--", str(run / "champion.json")], cwd=ROOT, capture_output=True,
                          text=True)
    return done.stdout.strip() or "not committed yet"


def _game_panel(name: str | None) -> list[str] | None:
    from engine.core.registry import get_game

    return list(get_game(name).default_panel) if name else None


if __name__ == "__main__":
    sys.exit(main())
