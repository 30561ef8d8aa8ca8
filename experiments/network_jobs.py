"""The catalogue's jobs that learn the n-tuple champions (and the candidates blended into them)
by TD self-play, ``python -m evolve.td`` alone or in rounds on 2 Ray workers, each into
``champions/`` of the results folder: the settings and step schedules they share, then
``NETWORKS``, the jobs in the catalogue's order (their learning curves:
``experiments.learning.td_curves``)."""

from __future__ import annotations

from experiments.jobs import PY, Job, job


def td_network(game: str, settings: str, stages: str, seconds: float, what: str,
               name: str = "") -> Job:
    """``python -m evolve.td``: a game's n-tuple champion learnt by TD self-play (``name``: the
    file's stem when it is not the game's champion, ``<game>_ntuple``)."""
    name = name or f"{game}_ntuple"
    return job(f"champion_{name}", f"{PY} -m evolve.td --game {game} --settings "
               f"'{settings}' {stages} --seed 0 --out {{results}}/champions/{name}.json "
               "--no-progress", f"champions/{name}.json", seconds, "exact", what)


def distributed_td(name: str, game: str, phases: int, stages: str, stem: str, seconds: float,
                   what: str, rule: str = "", layout: str = "straight4+square2") -> Job:
    """``python -m evolve.td`` in rounds on 2 Ray workers: a network (4+2x2 unless ``layout``)
    + mobility, stability into ``champions/<stem>.json``, resumable from its checkpoint
    (CPU-hours)."""
    settings = NETWORK.format(layout=layout, rest='"symmetry": "d4", ',
                              features='["mobility", "stability"]'
                              ).replace('"phases": 1', f'"phases": {phases}')
    return job(name, f"{PY} -m evolve.td --game {game} --settings '{settings}' {stages} {rule}"
               "--round-games 2000 --chunk-games 250 --backend ray --workers 2 --seed 0 "
               f"--out {{results}}/champions/{stem}.json --checkpoint "
               f"{{results}}/checkpoints/{stem}.checkpoint.npz --checkpoint-seconds 300 "
               "--resume --no-progress", f"champions/{stem}.json", seconds, "exact", what)


OTHELLO_20M = ("--stage 8000000:0.07 --stage 4000000:0.02 --stage 4000000:0.01 --stage "
               "4000000:0.005")
RR_10M = "--stage 4000000:0.07 --stage 2000000:0.02 --stage 2000000:0.01 --stage 2000000:0.005"
NETWORK = ('{{"genome": {{"kind": "ntuple", "layout": "{layout}", {rest}"phases": 1, '
           '"features": {features}}}}}')


NETWORKS = [
    # networks by TD self-play alone (their learning curves: experiments.learning.td_curves)
    *(td_network(game, NETWORK.format(layout="square2", rest='"symmetry": "d4", ',
                                      features='["mobility", "stability"]'),
                 "--stage 1000000:0.07 --stage 1000000:0.02 --stage 1000000:0.01 "
                 "--stage 1000000:0.005", 960, f"{what}: TD self-play alone (2x2 squares + "
                 "mobility, stability), 4 million games", name)
      for game, name, what in (
          ("othello", "othello_ntuple_square2", "the othello n-tuple champion until the blend "
           "(kept for the head-to-head goals)"),
          ("reversed_reversi", "reversed_reversi_ntuple_square2", "the reversed_reversi n-tuple "
           "champion before the current one (kept for the head-to-head goals)"))),
    td_network("pentago_twist", NETWORK.format(layout="straight5", rest='"symmetry": "rot180", ',
                                               features="true"),
               "--start reference --stage 100000:0.1 --stage 50000:0.03", 150,
               "the Pentago Twist n-tuple champion: TD self-play from the seed weights"),
    td_network("hexifence", '{"size": 3, ' + NETWORK.format(layout="cell+pair", rest="",
                                                            features="true")[1:],
               "--start reference --stage 50000:0.1 --stage 25000:0.03", 100,
               "the Hexifence n-tuple champion (N=3): TD self-play from the seed weights"),
    # a candidate for the Othello champion, the published 4+2x2 layout (21 straight
    # 4-tuples + 10 2x2 squares) by distributed TD; CPU-hours: resumable across sessions from
    # its checkpoint (the same command continues it)
    distributed_td("candidate_othello_ntuple_4x2x2", "othello", 1, OTHELLO_20M,
                   "othello_ntuple_4x2x2", 5 * 3600, "a candidate Othello network: 4+2x2 + "
                   "mobility, stability, 20 million games of TD in rounds on 2 Ray workers (the "
                   "same bits on any number)"),
    # the same in Reversed Reversi's recipe (4 phases whose neighbours share a quarter of each
    # step: what td_curve_othello_step_rules measured best at 1 million games)
    distributed_td("candidate_othello_ntuple_4x2x2_phases4", "othello", 4, OTHELLO_20M,
                   "othello_ntuple_4x2x2_phases4", 3 * 3600, "a second Othello candidate: "
                   "4+2x2 + mobility, stability in 4 phases (neighbours share a quarter of each "
                   "step), 20 million games of distributed TD (resumable)", "--phase-share 0.25 "),
    distributed_td("candidate_othello_ntuple_square2_phases4", "othello", 4, OTHELLO_20M,
                   "othello_ntuple_square2_phases4", 2 * 3600, "a third Othello candidate: "
                   "the champion's 2x2 squares + mobility, stability then, but in 4 phases "
                   "(neighbours share a quarter of each step) and 20 million games of distributed "
                   "TD (resumable)",
                   "--phase-share 0.25 ", layout="square2"),
    # the Othello champion: the mean of the two 4-phase candidates, one network; chosen over the
    # 2x2-square network for its strength against strong, varied players (docs/tuning.md)
    job("champion_othello_ntuple", f"{PY} -m evolve.blend "
        "{results}/champions/othello_ntuple_4x2x2_phases4.json "
        "{results}/champions/othello_ntuple_square2_phases4.json "
        "--out {results}/champions/othello_ntuple.json",
        "champions/othello_ntuple.json", 5, "exact", "the Othello n-tuple champion: the mean of "
        "the 4+2x2 and the 2x2-square networks in 4 phases (20 million games of distributed TD "
        "each), one network"),
    distributed_td("champion_reversed_reversi_ntuple", "reversed_reversi", 4,
                   RR_10M, "reversed_reversi_ntuple", 2 * 3600, "the Reversed Reversi "
                   "n-tuple champion: 4+2x2 + mobility, stability in 4 phases (neighbours share "
                   "a quarter of each step), 10 million games of distributed TD on 2 Ray workers "
                   "(resumable)", "--phase-share 0.25 "),
    distributed_td("candidate_reversed_reversi_ntuple_square2_phases4", "reversed_reversi", 4,
                   RR_10M, "reversed_reversi_ntuple_square2_phases4", 2 * 3600, "a second "
                   "Reversed Reversi network to blend with the champion: 2x2 squares + mobility, "
                   "stability in 4 phases (neighbours share a quarter of each step), 10 million "
                   "games of distributed TD (resumable)", "--phase-share 0.25 ", layout="square2"),
]
