"""``python -m evolve.evaluate``: strength evaluation from the command line.

    python -m evolve.evaluate WEIGHTS --vs course greedy random --games 200 --depth 4
    python -m evolve.evaluate WEIGHTS --vs course --games 2000 --sprt 0 50
    python -m evolve.evaluate --round-robin A.json B.json course --games 100

Players are agent specs of the game (``python -m engine.games`` lists them; Reversi: ``random``,
``greedy``, ``wpc1``, ``course``, ``wpc``, ``wpc_negated``, ``mcts``, ``bfs``) or champion files (a
run directory means its ``champion.json``); the game comes from ``--game`` or the files. Which
games are played is ``evolve.arena.schedule``; the tally and its SPRT ``evolve.arena.tally``;
the options and their checks ``evolve.arena.options``.
"""

from __future__ import annotations

import json
import sys

from evolve.arena.matches import EvalSettings
from evolve.arena.options import check_args, game_settings, parse_args, requested_game
from evolve.arena.schedule import Runner, evaluate, open_backend, round_robin
from evolve.arena.tables import format_elo_table, format_table
from evolve.errors import ConfigError


def run(args, argv: list[str]) -> dict:
    from evolve.arena.matches import check_specs, choose_game, resolve_players

    check_args(args)
    if args.games % 2:
        print(f"note: --games {args.games} rounded up to {args.games + 1} (whole colour-swapped "
              "pairs)", file=sys.stderr)
    rr = args.round_robin
    first = [args.weights] if args.weights else []
    players = resolve_players(first + (rr if rr is not None else args.vs))
    game, warning = choose_game(requested_game(args), players)
    if warning:
        print(f"warning: {warning}", file=sys.stderr)
    depth = args.depth if args.depth is not None else (None if args.time else 4)
    settings = EvalSettings(game, depth, args.time, args.epsilon, args.endgame_empties,
                            game_settings(args.game_settings, game))
    check_specs(players, settings)
    out = {"command": " ".join(["python -m evolve.evaluate", *argv]),
           "settings": settings.as_dict(), "seed": args.seed, "games_per_match": args.games}
    backend = open_backend(args.backend, args.workers, args.ray_address, game,
                           settings.game_settings)
    try:
        runner = Runner(settings, backend)
        if rr is not None:
            matches, elo, score, played = round_robin(players, settings, args.games, args.seed,
                                                      runner)
            out["round_robin"] = {"players": players, "elo": elo.tolist(),
                                  "anchor": "mean 0", "score": score.tolist(),
                                  "games": played.tolist()}
            print(format_elo_table(players, elo, score, played))
        else:
            matches = evaluate(players[0], players[1:], settings, args.games, args.seed, runner,
                               tuple(args.sprt) if args.sprt else None, args.alpha, args.beta,
                               stop=not args.sprt_full)
    finally:
        backend.close()
    out["matches"] = [m.as_dict() for m in matches]
    print(format_table(matches))
    for m in matches:
        if m.sprt:
            verdict = {"H1": f"H1 accepted (Elo >= {m.sprt['elo1']:g} more likely)",
                       "H0": f"H0 accepted (Elo <= {m.sprt['elo0']:g} more likely)",
                       "continue": "no decision within the game limit"}[m.sprt["decision"]]
            print(f"SPRT vs {m.opponent}: {verdict} after {m.sprt['games']} games")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
    return out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    try:
        run(args, argv)
    except (ValueError, OSError, ConfigError) as err:
        print(f"error: {str(err).splitlines()[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
