"""TD self-play in rounds (numba): games played with a fixed network, then learnt from in game
order, so that the games of a round can be played anywhere (``Game.td_play`` /
``Game.td_learn_games``: the contract ``python -m evolve.td --round-games`` distributes).

``td_play``: ``games`` games of the genome against itself, 1 ply, epsilon-greedy exactly as
``engine.reversi.td.selfplay`` plays them (a uniformly random legal move with probability
``epsilon``, else the 1-ply agent's move), but **the weights do not change during play**. Each
game starts from the standard position or from a seeded random opening (``opening_plies``); player 0
is the side to move there. The record holds every position where its mover had a legal move, in
order, with the mover, and each game's result for player 0. With fixed ``opponents`` (TD
against opponents, ``python -m evolve.td --opponents``), blocks of the games are played against
them as online TD plays them, and every position is recorded all the same.

``td_learn_games``: TD(0) along each recorded game, games in order, the steps of
``engine.reversi.td.selfplay`` (``td_step``: tanh squashing, the normalised step, the feature
weights learning too): position ``k`` moves towards ``V(x_{k+1})`` (negated when the other side
moves there, kept after a pass), the last one towards the result from its mover's view. A target is
read with the weights as they are at that step. So a round of one game learns what online TD
learns from the same game; a round of many games learns from games all played by the round's
starting network (the price of playing them in parallel).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
from numba import njit

from engine.core.agent import Seed, make_rng
from engine.kernels import ntuple as nt
from engine.kernels.ntuple.td import check_td_args, explores
from engine.kernels.rng import new_state, random_bit
from engine.reversi.genome.evaluation import N_ALL_FEATURES
from engine.reversi.genome.layout import CATALOGUE_INDEX, phase_of_discs_table
from engine.reversi.genome.network_eval import best_child_from, greedy_move
from engine.reversi.rules import bitboard as bb
from engine.reversi.rules.state import Position
from engine.reversi.td.opponents import opponent_schedule
from engine.reversi.td.selfplay import MAX_RECORD, needed_features, new_scratch
from engine.reversi.td.step import (
    advance,
    count_features,
    counted_step,
    counted_value,
    first_position,
)
from engine.reversi.td.step_rules import largest_weights, step_rule_arrays

RECORD_ARRAYS = ("players", "opponents", "movers", "lengths", "results")


@njit(cache=True)
def play_recorded(starts_P, starts_O, epsilon, rng, phase_of_discs, t, weights, features,
                  largest, reversed_rules, scratch, out_P, out_O, out_mover, lengths, results,
                  against, opp_phase_of_discs, opp_t, opp_weights, opp_features, opp_indices):
    """One game from each start ``(starts_P[g], starts_O[g])`` (player 0 to move), the network
    fixed (``largest``, ``scratch``: as ``engine.reversi.td.selfplay.self_play_game`` takes them);
    positions go to ``out_*`` one game after another (``lengths[g]`` each), the result
    for player 0 to ``results[g]``. Returns the number of positions written. ``against``: a
    fixed opponent (the ``opp_*`` arrays, ``opp_indices`` its scratch) plays player 1 in even
    games and player 0 in odd ones, epsilon-greedy too, as in online TD's blocks."""
    _, _, inputs, _, children, occupied = scratch
    indices, children_of = inputs[0], inputs[1]  # the position's, then in its children's colours
    at = 0
    for g in range(starts_P.shape[0]):
        P, O, mover, count = starts_P[g], starts_O[g], 0, 0
        opponent_side = 1 - g % 2 if against else -1
        first_position(P, O, t, indices, occupied)
        while True:
            moves = bb.legal_moves(P, O)
            if moves == bb.ZERO:
                if bb.legal_moves(O, P) == bb.ZERO:
                    break
                nt.swapped_states(indices, occupied, indices)
                P, O, mover = O, P, 1 - mover
                continue
            nt.swapped_states(indices, occupied, children_of)
            if explores(rng, epsilon):
                sq = random_bit(rng, moves)
            elif mover == opponent_side:
                sq = greedy_move(P, O, moves, opp_phase_of_discs, opp_t, opp_weights,
                                 opp_features, reversed_rules, opp_indices)
            else:
                sq = best_child_from(P, O, moves, phase_of_discs, t, weights, features,
                                     reversed_rules, children_of, children, largest)
            out_P[at + count], out_O[at + count], out_mover[at + count] = P, O, mover
            count += 1
            nP, nO = bb.make_move(P, O, sq, bb.flips(P, O, sq))
            advance(children_of, occupied, t, O, P, nP, nO)
            indices, children_of = children_of, indices
            P, O = nP, nO
            mover = 1 - mover
        score = bb.final_score(P, O, reversed_rules)  # for ``mover``, who would move now
        result = 1.0 if score > 0 else -1.0 if score < 0 else 0.0
        lengths[g], results[g] = count, result if mover == 0 else -result
        at += count
    return at


@njit(cache=True)
def learn_recorded(players, opponents, movers, lengths, results, alpha, phase_of_discs, t,
                   weights, features, learnable, needed, scratch, rule):
    """TD(0) along each recorded game in order (module docstring), each position's inputs
    counted once, as ``engine.reversi.td.selfplay.self_play_game`` learns; returns the mean squared
    error of each game."""
    _, counts, inputs, counted, _, occupied = scratch
    curve = np.zeros(lengths.shape[0])
    at = 0
    for g in range(lengths.shape[0]):
        n, squared = lengths[g], 0.0
        if n > 0:
            first_position(players[at], opponents[at], t, inputs[0], occupied)
            phase = count_features(players[at], opponents[at], phase_of_discs, needed,
                                   counted[0])
        for k in range(n):
            now, after = k % 2, 1 - k % 2
            next_phase = phase
            if k + 1 < n:
                P0, O0 = players[at + k], opponents[at + k]
                P1, O1 = players[at + k + 1], opponents[at + k + 1]
                if movers[at + k + 1] == movers[at + k]:  # the other side passed between
                    inputs[after, :] = inputs[now]
                    advance(inputs[after], occupied, t, P0, O0, P1, O1)
                else:
                    nt.swapped_states(inputs[now], occupied, inputs[after])
                    advance(inputs[after], occupied, t, O0, P0, P1, O1)
                next_phase = count_features(P1, O1, phase_of_discs, needed, counted[after])
                value = math.tanh(counted_value(inputs[after], counted[after], next_phase, t,
                                                weights, features))
                target = value if movers[at + k + 1] == movers[at + k] else -value
            else:
                target = results[g] if movers[at + k] == 0 else -results[g]
            error = counted_step(inputs[now], counted[now], phase, target, alpha, t, weights,
                                 features, learnable, counts, rule)
            squared += error * error
            phase = next_phase
        curve[g] = squared / max(n, 1)
        at += n
    return curve


def catalogue_features(network, feat: np.ndarray) -> tuple[np.ndarray, np.ndarray, list]:
    """The genome's feature weights spread over the whole catalogue (what the kernels read),
    which of them learn, and their columns."""
    columns = [CATALOGUE_INDEX[n] for n in network.feature_names]
    catalogue = np.zeros((network.phases, N_ALL_FEATURES))
    catalogue[:, columns] = feat[:, :len(columns)]
    learnable = np.zeros(N_ALL_FEATURES, np.bool_)
    learnable[columns] = True
    return catalogue, learnable, columns


def start_boards(openings) -> tuple[np.ndarray, np.ndarray]:
    """The ``(P, O)`` of each opening (move sequences from the start), side to move first."""
    boards = []
    for line in openings:
        position = Position.start()
        for move in line:
            position = position.play(move)
        boards.append(position.boards)
    return (np.array([b[0] for b in boards], np.uint64),
            np.array([b[1] for b in boards], np.uint64))


def td_play(network, genome: np.ndarray, phase_bounds, reversed_rules: bool, games: int,
            seed: Seed, epsilon: float, openings=None, opponents=(),
            self_play_share: float = 0.5) -> dict[str, np.ndarray]:
    """``games`` games of fixed-network self-play (module docstring) from the standard
    position or from ``openings`` (one move sequence per game); reproducible from ``seed``.
    ``opponents``: fixed ``NtupleWeights`` that play blocks of the games instead of the
    network, scheduled from the seed as online TD schedules them
    (``engine.reversi.td.selfplay.learn``); every position of every game is recorded."""
    check_td_args(games, 1.0, epsilon)
    if not 0.0 <= self_play_share <= 1.0:
        raise ValueError(f"self_play_share={self_play_share!r} must satisfy 0 <= share <= 1")
    net, feat = network.split(genome)
    catalogue, _, _ = catalogue_features(network, feat)
    if openings is None:
        start = Position.start()
        openings_P = np.full(games, start.player, np.uint64)
        openings_O = np.full(games, start.opponent, np.uint64)
    else:
        if len(openings) != games:
            raise ValueError(f"{len(openings)} openings for {games} games")
        openings_P, openings_O = start_boards(openings)
    phase_of_discs = phase_of_discs_table(tuple(phase_bounds))
    generator = make_rng(seed)
    rng = new_state(generator)  # then the schedule's draws, as online TD makes them
    fixed = [o.numba_arrays() for o in opponents]
    blocks = opponent_schedule(games, len(fixed), self_play_share, generator) if fixed \
        else [(-1, games)]
    largest, scratch = largest_weights(net), new_scratch(network.tables, net.shape[1])
    parts, done = [empty_record()], 0
    for who, n in blocks:
        opponent = (phase_of_discs, network.tables, net, catalogue) if who < 0 else fixed[who]
        opp_indices = scratch[0] if who < 0 else np.empty(opponent[1].offset.shape[0], np.int64)
        out_P, out_O = np.empty(n * MAX_RECORD, np.uint64), np.empty(n * MAX_RECORD, np.uint64)
        out_mover = np.empty(n * MAX_RECORD, np.int8)
        lengths, results = np.empty(n, np.int64), np.empty(n)
        played = play_recorded(openings_P[done:done + n], openings_O[done:done + n],
                               float(epsilon), rng, phase_of_discs, network.tables, net,
                               catalogue, largest, bool(reversed_rules), scratch, out_P, out_O,
                               out_mover, lengths, results, who >= 0, *opponent,
                               opp_indices)
        parts.append({"players": out_P[:played], "opponents": out_O[:played],
                      "movers": out_mover[:played], "lengths": lengths, "results": results})
        done += n
    return {key: np.concatenate([part[key] for part in parts]) for key in RECORD_ARRAYS}


def empty_record() -> dict[str, np.ndarray]:
    """A record of no games, with the arrays' types."""
    return {"players": np.zeros(0, np.uint64), "opponents": np.zeros(0, np.uint64),
            "movers": np.zeros(0, np.int8), "lengths": np.zeros(0, np.int64),
            "results": np.zeros(0)}


def joined(records) -> dict[str, np.ndarray]:
    """Records one after another (their games in order); ``ValueError`` if one is malformed
    (``check_record``)."""
    records = list(records)
    for r in records:
        check_record(r)
    return {key: np.concatenate([np.asarray(r[key]) for r in records]) if records else
            np.zeros(0) for key in RECORD_ARRAYS}


def check_record(record) -> None:
    """``ValueError`` unless ``learn_recorded`` reads ``record`` within its arrays: numba does
    not check indices, so a record from elsewhere (another machine, a file) that disagrees
    with itself would read past them."""
    if not isinstance(record, Mapping) or set(record) != set(RECORD_ARRAYS):
        raise ValueError(f"a TD record must hold exactly {', '.join(RECORD_ARRAYS)}")
    a = {key: np.asarray(record[key]) for key in RECORD_ARRAYS}
    flat = [key for key, v in a.items() if v.ndim != 1]
    if flat:
        raise ValueError(f"a TD record must hold 1-D arrays, not {', '.join(flat)}")
    positions = [len(a[key]) for key in ("players", "opponents", "movers")]
    if len(set(positions)) != 1:
        raise ValueError(f"a TD record must hold players, opponents and movers of one length, "
                         f"got {positions}")
    lengths = a["lengths"]
    if len(a["results"]) != len(lengths):
        raise ValueError(f"a TD record must hold one result per game: {len(a['results'])} "
                         f"results, {len(lengths)} lengths")
    if lengths.dtype.kind not in "iuf" or not np.all((lengths >= 0) & (lengths <= MAX_RECORD)):
        raise ValueError(f"a TD record must hold game lengths from 0 to {MAX_RECORD}")
    if np.any(a["players"].astype(np.uint64) & a["opponents"].astype(np.uint64)):
        raise ValueError("a TD record must not hold a square in both players' and opponents' "
                         "boards")
    if int(np.sum(lengths)) != positions[0]:
        raise ValueError(f"a TD record must hold sum(lengths) positions: lengths sum to "
                         f"{int(np.sum(lengths))}, {positions[0]} positions")


def td_learn_games(network, genome: np.ndarray, phase_bounds, reversed_rules: bool, records,
                   alpha: float, rule=None) -> tuple[np.ndarray, np.ndarray]:
    """A copy of ``genome`` after TD(0) along every game of ``records`` (``td_play``'s, in
    order), and each game's mean squared error; ``rule``: as
    ``engine.reversi.td.selfplay.learn``."""
    check_td_args(0, alpha, 0.0)
    net, feat = network.split(genome)
    catalogue, learnable, columns = catalogue_features(network, feat)
    r = joined(records)
    curve = learn_recorded(r["players"].astype(np.uint64), r["opponents"].astype(np.uint64),
                           r["movers"].astype(np.int8), r["lengths"].astype(np.int64),
                           r["results"].astype(np.float64), float(alpha),
                           phase_of_discs_table(tuple(phase_bounds)), network.tables, net,
                           catalogue, learnable, needed_features(catalogue, learnable),
                           new_scratch(network.tables, net.shape[1]),
                           step_rule_arrays(rule, net, catalogue))
    feat[:, :len(columns)] = catalogue[:, columns]
    return network.join(net, feat), curve
