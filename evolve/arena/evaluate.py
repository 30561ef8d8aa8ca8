"""``python -m evolve.evaluate``: strength evaluation from the command line.

    python -m evolve.evaluate WEIGHTS --vs course greedy random --games 200 --depth 4
    python -m evolve.evaluate WEIGHTS --vs course --games 2000 --sprt 0 50
    python -m evolve.evaluate --round-robin A.json B.json course --games 100

Players are agent specs of the game (``python -m engine.games`` lists them; Reversi: ``random``,
``greedy``, ``wpc1``, ``course``, ``wpc``, ``wpc_negated``, ``mcts``, ``bfs``) or champion files (a
run directory means its ``champion.json``); the game comes from ``--game`` or the files. Which
games are played is ``evolve.arena.schedule``; the tally and its SPRT ``evolve.arena.tally``;
the options and their checks ``evolve.arena.options``; the printed words
``evolve.arena.tables`` and ``evolve.arena.summary``.

stdout gets what was played and the results; stderr the notes, Ray's start and the progress
bar (on a terminal, or with ``--progress``).
"""

from __future__ import annotations

import itertools
import json
import sys
import time

from evolve.arena import summary
from evolve.arena.labels import player_labels
from evolve.arena.matches import EvalSettings
from evolve.arena.options import check_args, game_settings, parse_args, requested_game
from evolve.arena.schedule import Runner, evaluate, open_backend, round_robin
from evolve.arena.searches import PlayerSearch, file_players, player_searches, unequal_lines
from evolve.arena.tables import match_table, ranking_table
from evolve.errors import ConfigError, first_line


def run(args, argv: list[str]) -> dict:
    players, settings, searches = prepare(args)
    rr = args.round_robin is not None
    champions = dict(settings.champions)
    labels = player_labels(players, champions)
    games = args.games + args.games % 2
    pairs = list(itertools.combinations(players, 2)) if rr else \
        [(players[0], opponent) for opponent in players[1:]]
    unequal = unequal_lines(pairs, searches, labels)
    print(summary.plan_line(settings, [labels[p] for p in players], games, args.seed, rr,
                            searches),
          flush=True)
    print("\n".join(summary.search_lines(players, labels, searches, settings.epsilon, unequal)),
          flush=True)
    out = {"command": " ".join(["python -m evolve.evaluate", *argv]),
           "settings": settings.as_dict(), "seed": args.seed, "games_per_match": args.games,
           "search": {spec: s.as_dict() for spec, s in searches.items()},
           "unequal_search": unequal}
    n_matches = len(pairs)
    matches, workers, ranking, seconds = play(args, players, settings, n_matches * games)
    if ranking is not None:
        elo, score, played = ranking
        out["round_robin"] = {"players": players, "elo": elo.tolist(), "anchor": "mean 0",
                              "score": score.tolist(), "games": played.tolist()}
    out["matches"] = [m.as_dict() for m in matches]
    out["labels"] = labels
    print()
    if ranking is not None:
        print(ranking_table(players, labels, *ranking))
        print()
    print(match_table(matches, labels))
    print()
    for block in (summary.sprt_lines(matches, labels),
                  summary.legend_lines(players, labels, bool(args.sprt), rr, champions),
                  [summary.played_line(matches, n_matches * games, seconds, args.backend,
                                       workers)]):
        if block:
            print("\n".join(block) + "\n")
    write_json(args.json, out)
    return out


def prepare(args) -> tuple[list[str], EvalSettings, dict[str, PlayerSearch]]:
    """The players (run directories resolved), the settings and each player's search, every
    input checked."""
    from engine.core.registry import get_game
    from evolve.arena.matches import (
        check_specs,
        choose_game,
        file_of,
        load_players,
        read_players,
        resolve_players,
    )

    check_args(args)
    if args.games % 2:
        print(f"note: --games {args.games} rounded up to {args.games + 1} (whole colour-swapped "
              "pairs)", file=sys.stderr)
    rr = args.round_robin
    first = [args.weights] if args.weights else []
    players = resolve_players(first + (rr if rr is not None else args.vs))
    documents = read_players(players)  # each champion file read once, here
    game, warning = choose_game(requested_game(args), players, documents)
    if warning:
        print(f"warning: {warning}", file=sys.stderr)
    champions = load_players(documents, get_game(game))
    configured = game_settings(args.game_settings, game)
    base, searches = player_searches(players, get_game(game, configured), args,
                                     player_labels(players, champions),
                                     {**file_players(players, file_of), **champions})
    settings = EvalSettings(game, base.depth, args.time, args.epsilon, base.endgame_empties,
                            configured, args.clock,
                            tuple((spec, s.settings()) for spec, s in searches.items()),
                            tuple(champions.items()))
    check_specs(players, settings)
    return players, settings, searches


def play(args, players: list[str], settings: EvalSettings, total: int):
    """Open the backend and play every match under a progress bar; returns (match results,
    workers, (elo, score, played) of a round robin or ``None``, seconds the games took)."""
    if args.backend == "ray":
        where = f"the Ray cluster at {args.ray_address}" if args.ray_address else "a local Ray"
        print(f"starting {where} and its workers (each compiles the engine once)",
              file=sys.stderr, flush=True)
    backend = open_backend(args.backend, args.workers, args.ray_address, settings.game,
                           settings.game_settings, getattr(args, "runtime_env", None))
    bar = progress_bar(args.progress, total)
    try:
        workers, started = backend.workers, time.monotonic()
        runner = Runner(settings, backend, bar)
        if args.round_robin is not None:
            matches, *ranking = round_robin(players, settings, args.games, args.seed, runner)
            return matches, workers, tuple(ranking), time.monotonic() - started
        matches = evaluate(players[0], players[1:], settings, args.games, args.seed, runner,
                           tuple(args.sprt) if args.sprt else None, args.alpha, args.beta,
                           stop=not args.sprt_full)
        return matches, workers, None, time.monotonic() - started
    finally:
        if bar is not None:
            bar.close()
        backend.close()


def progress_bar(wanted: bool | None, total: int):
    """A tqdm bar on stderr with ETA: ``--progress`` forces it, ``--no-progress`` hides it,
    by default it shows on a terminal only (logs and pipes stay clean)."""
    if wanted is False or (wanted is None and not sys.stderr.isatty()):
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc="games", unit="game", file=sys.stderr, dynamic_ncols=True)


def write_json(path: str | None, out: dict) -> None:
    if not path:
        return
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=2)
        f.write("\n")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    try:
        run(args, argv)
    except (ValueError, OSError, ConfigError) as err:
        print(f"error: {first_line(err)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
