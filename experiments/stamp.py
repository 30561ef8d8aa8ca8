"""One stamp for every result file: the commit, the exact command, the machine and the date.

Every script under ``experiments/`` that writes a result file takes a ``Stamp`` when it starts
(the load average before it runs) and writes through ``write_markdown`` / ``write_json``, which
add the load average after it ran:

    stamp = Stamp.begin()
    ...
    write_markdown(path, "# Perft benchmark", body_lines, stamp)
    write_json(path.with_suffix(".json"), {"rows": rows}, stamp)
    # or both at once, after printing the lines:
    write_result(path, "# Perft benchmark", body_lines, stamp, {"rows": rows})

A Markdown file gets the stamp as a short list under its title (``STAMP_MARK`` opens it); a
JSON file gets it under the key ``"stamp"``. ``python -m experiments.reproduce`` passes its own
command line in ``REPRODUCE_COMMAND`` so the stamp also says which run of the tool made a file.
"""

from __future__ import annotations

import json
import math
import os
import platform
import shlex
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAMP_MARK = "- command: "
# changes that make no result differ: the files a run of the tool rewrites, and prose
NOT_CODE = ("experiments/results/", "experiments/runs/", "docs/", "notebooks/")
NOT_CODE_SUFFIXES = (".md", ".png")


@dataclass
class Stamp:
    command: str
    commit: str
    machine: str
    date: str
    load_before: list[float]
    load_after: list[float] = field(default_factory=list)
    seconds: float | None = None
    reproduce: str | None = None
    uncommitted: list[str] = field(default_factory=list)
    _start: float = field(default=0.0, repr=False)

    @classmethod
    def begin(cls, argv: list[str] | None = None) -> Stamp:
        """What is known when a script starts: its command line, the code, the machine."""
        head, changed = commit()
        return cls(command=command_line(sys.argv if argv is None else argv), commit=head,
                   machine=machine(), date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                   load_before=load_average(), reproduce=os.environ.get("REPRODUCE_COMMAND"),
                   uncommitted=changed, _start=time.perf_counter())

    def finish(self) -> Stamp:
        """The load average now and the seconds since ``begin`` (the first call counts)."""
        if self.seconds is None:
            self.load_after = load_average()
            self.seconds = round(time.perf_counter() - self._start, 1)
        return self

    def markdown(self) -> list[str]:
        self.finish()
        lines = [f"{STAMP_MARK}`{self.command}`"]
        if self.reproduce:
            lines.append(f"- run by: `{self.reproduce}`")
        code = (f" + uncommitted changes in {len(self.uncommitted)} file(s): "
                f"{', '.join(self.uncommitted[:5])}" if self.uncommitted else "")
        lines += [f"- commit: `{self.commit}`{code}",
                  f"- machine: {self.machine}",
                  f"- load average (1/5/15 min): before {_load(self.load_before)}, after "
                  f"{_load(self.load_after)}",
                  f"- date: {self.date} (took {_duration(self.seconds)})"]
        return lines

    def as_dict(self) -> dict:
        self.finish()
        return {k: v for k, v in asdict(self).items() if not k.startswith("_")}


def command_line(argv: list[str]) -> str:
    """The command as typed from the repository root, quoted for a shell: a module of a package
    here (``experiments/bench/engine/perft.py``, which ``python -m`` gives as its full path) as
    ``python -m experiments.bench.engine.perft``, another script by its path from the root."""
    script = Path(argv[0])
    if script.suffix == ".py" and script.resolve().is_relative_to(ROOT):
        path = script.resolve().relative_to(ROOT)
        if (ROOT / path.parent / "__init__.py").is_file():
            return shlex.join(["python", "-m", ".".join(path.with_suffix("").parts),
                               *argv[1:]])
        script = path
    return shlex.join(["python", str(script), *argv[1:]])


def commit() -> tuple[str, list[str]]:
    """The checked-out commit and the tracked files whose code differs from it (results and
    prose aside)."""
    head = _git("rev-parse", "--short=12", "HEAD")
    if head is None:
        return "unknown (not a git checkout)", []
    changed = (_git("diff", "--name-only", "HEAD") or "").splitlines()
    changed += (_git("ls-files", "--others", "--exclude-standard") or "").splitlines()
    return head, [p for p in changed
                  if not p.startswith(NOT_CODE) and not p.endswith(NOT_CODE_SUFFIXES)]


def machine() -> str:
    import numpy

    cpu = platform.processor() or platform.machine()
    try:
        model = next(line.split(":", 1)[1].strip()
                     for line in Path("/proc/cpuinfo").read_text().splitlines()
                     if line.startswith("model name"))
        cpu = f"{platform.machine()} ({model})"
    except (OSError, StopIteration):
        pass
    return (f"{cpu}, {os.cpu_count()} CPUs, {platform.system()}, Python "
            f"{platform.python_version()}, numpy {numpy.__version__}{_numba()}")


def load_average() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:  # not on every platform
        return []


def write_markdown(path: Path, title: str, body: list[str] | str, stamp: Stamp) -> Path:
    """``title``, the stamp, then ``body``; returns ``path``."""
    text = body if isinstance(body, str) else "\n".join(body)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([title, "", *stamp.markdown(), "", text.strip("\n"), ""]),
                    encoding="utf-8")
    return path


def write_json(path: Path, data: dict, stamp: Stamp) -> Path:
    """``data`` with the stamp under ``"stamp"`` (first); returns ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    rest = {k: v for k, v in data.items() if k != "stamp"}
    path.write_text(json.dumps(finite({"stamp": stamp.as_dict(), **rest}), indent=1,
                               allow_nan=False) + "\n", encoding="utf-8")
    return path


def write_result(out: Path | None, title: str, lines: list[str], stamp: Stamp,
                 data: dict | None = None) -> None:
    """Print ``lines``; with ``out``, write them as Markdown under ``title`` and ``data`` (if
    any) next to them as JSON (``out`` with ``.json``), both stamped."""
    print("\n".join(lines), flush=True)
    if out:
        write_markdown(out, title, lines, stamp)
        if data is not None:
            write_json(Path(out).with_suffix(".json"), data, stamp)


def finite(value):
    """JSON has no infinity or NaN: such a float becomes null (an unbounded Elo end, say)."""
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def stamp_json_file(path: Path, stamp: Stamp) -> Path:
    """Stamp a JSON file another command wrote (e.g. ``python -m evolve.evaluate --json``)."""
    return write_json(path, json.loads(Path(path).read_text(encoding="utf-8")), stamp)


def is_stamped(path: Path) -> bool:
    path = Path(path)
    if path.suffix == ".json":
        try:
            return "stamp" in json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
    try:
        return any(line.startswith(STAMP_MARK)
                   for line in path.read_text(encoding="utf-8").splitlines()[:12])
    except OSError:
        return False


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _numba() -> str:
    try:
        import numba
    except ImportError:
        return ""
    return f", numba {numba.__version__}"


def _load(values: list[float]) -> str:
    return " / ".join(f"{x:.2f}" for x in values) if values else "unknown"


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"
