"""The words around ``python -m evolve.evaluate``'s tables: what is about to be played, what
the columns mean, what the SPRT concluded (or why there is none) and what was played."""

from __future__ import annotations

import textwrap

from evolve.arena.labels import describe
from evolve.arena.matches import EvalSettings
from evolve.arena.searches import PlayerSearch, settings_text

SCORE_NOTE = ("score: points per game (win 1, draw 1/2) with its 95% Wilson interval; Elo: "
              "the same score and interval on the logistic Elo scale (>= X: a 100% score, "
              "only the lower end is known)")
RANKING_NOTE = ("ranking Elo: a Bradley-Terry fit of every game, mean 0 (one virtual draw "
                "per pairing keeps a clean sweep finite)")
NO_SPRT = ("SPRT: none (add --sprt ELO0 ELO1, e.g. --sprt 0 50, to stop each match as soon "
           "as its games show Elo <= ELO0 or Elo >= ELO1)")
NO_SPRT_ROUND_ROBIN = ("SPRT: none (a round robin has no single player to test; use WEIGHTS "
                       "--vs OPPONENT --sprt ELO0 ELO1)")


def search_text(settings: EvalSettings) -> str:
    """``depth 4, exact endgame from 8 empties``, or the per-move time, plus epsilon."""
    parts = [settings_text(settings.depth, settings.endgame_empties, settings.time_limit,
                           settings.clock)]
    if settings.epsilon:
        parts.append(f"both sides move at random with probability {settings.epsilon:g}")
    return ", ".join(parts)


def plan_line(settings: EvalSettings, labels: list[str], games: int, seed: int,
              round_robin: bool, searches: dict[str, PlayerSearch] | None = None) -> str:
    """Two lines saying what is about to be played (printed before the first game): who, then
    how many games of what. The search is the one every searching player shares, or "each
    player's search below" when they differ."""
    game = settings.game + (f" {settings.game_settings}" if settings.game_settings else "")
    if round_robin:
        n = len(labels)
        who = f"round robin of {n} players ({n * (n - 1) // 2} pairings): {', '.join(labels)}"
    else:
        who = f"{labels[0]} vs {', '.join(labels[1:])}"
    searching = {(s.depth, s.endgame_empties, s.time_limit, s.clock)
                 for s in (searches or {}).values() if s.searches}
    search = search_text(settings) if len(searching) <= 1 else \
        "each player's own search (below)" + (
            f", both sides move at random with probability {settings.epsilon:g}"
            if settings.epsilon else "")
    return (f"{who}\n{games} games per pairing ({games // 2} openings, each played with both "
            f"colours); {game}, {search}; seed {seed}")


def search_lines(players: list[str], labels: dict[str, str], searches: dict[str, PlayerSearch],
                 epsilon: float, unequal: list[str]) -> list[str]:
    """``search:`` then one line per player (its search and where it comes from), then a line
    per pairing whose sides do not search alike."""
    width = max(len(labels[p]) for p in players)
    lines = ["search:"]
    for spec in dict.fromkeys(players):
        lines += textwrap.wrap(f"{labels[spec].ljust(width)}  {searches[spec].text(epsilon)}",
                               100, initial_indent="  ", subsequent_indent=" " * (width + 4),
                               break_on_hyphens=False)
    for line in unequal:
        lines += wrap(line)
    return lines


def legend_lines(players: list[str], labels: dict[str, str], sprt_run: bool,
                 round_robin: bool, champions: dict | None = None) -> list[str]:
    """The players that are files (label = path and run; ``champions``: those read already),
    then what the columns mean."""
    described = [describe(p, labels[p], (champions or {}).get(p))
                 for p in dict.fromkeys(players)]
    lines = [line for d in described if d
             for line in textwrap.wrap(d, 100, initial_indent="  ", subsequent_indent="      ",
                                       break_on_hyphens=False)]
    if lines:
        lines.insert(0, "players:")
    notes = [SCORE_NOTE]
    if round_robin:
        notes += [RANKING_NOTE, NO_SPRT_ROUND_ROBIN]
    elif not sprt_run:
        notes.append(NO_SPRT)
    return lines + [wrapped for note in notes for wrapped in wrap(note)]


def wrap(text: str) -> list[str]:
    """A note over lines of at most 100 characters, continuation lines indented."""
    return textwrap.wrap(text, 100, subsequent_indent="  ", break_on_hyphens=False)


def sprt_lines(results, labels: dict[str, str]) -> list[str]:
    """What each match's SPRT concluded, in words (each line wrapped to 100 characters)."""
    lines = []
    for r in results:
        s = r.sprt
        if not s:
            continue
        lower, upper = s["bounds"]
        who = f"SPRT vs {labels.get(r.opponent, r.opponent)}"
        if s["decision"] == "continue":
            lines += wrap(f"{who}: no decision within the {r.games}-game limit (LLR "
                          f"{s['llr']:+.2f}; H1 at >= {upper:+.2f}, H0 at <= {lower:+.2f}): "
                          "play more games")
            continue
        verdict = (f"H1 accepted (Elo >= {s['elo1']:g} more likely than Elo <= {s['elo0']:g})"
                   if s["decision"] == "H1" else
                   f"H0 accepted (Elo <= {s['elo0']:g} more likely than Elo >= {s['elo1']:g})")
        played = f" (all {r.games} played)" if r.games > s["games"] else ""
        lines += wrap(f"{who}: {verdict} after {s['games']} games{played}; alpha = "
                      f"{s['alpha']:g}, beta = {s['beta']:g}")
    return lines


def played_line(results, planned: int, seconds: float, backend: str, workers: int) -> str:
    """``played 400 games in 35.2 s on ray (2 workers)``, noting games an SPRT saved."""
    played = sum(r.games for r in results)
    saved = f" of at most {planned} (the SPRT stopped early)" if played < planned else ""
    on = f"ray ({workers} workers)" if backend == "ray" else backend
    return f"played {played} games{saved} in {seconds:.1f} s on {on}"
