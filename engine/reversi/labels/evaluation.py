"""The evaluation that plays and searches while sampling and labelling: the champion's (square
tables or a network, as its file holds it), or the game's reference square table when there is
no champion (``wpc`` in Othello, ``wpc_negated`` in Reversed Reversi: the last of its
``seed_references``)."""

from __future__ import annotations

from engine.core.records import Champion


def champion_evaluation(game, champion: Champion | None):
    """``Weights`` or ``NtupleWeights`` (``search_arrays()`` gives the search's arguments)."""
    if champion is None:
        from engine.reversi.files import reference_weights

        return reference_weights(game.seed_references[-1])
    if champion.evaluation is not None:
        return champion.evaluation
    return game.with_settings(champion.settings).weights(champion.genome, champion.name,
                                                         champion.metadata)


def evaluation_name(game, champion: Champion | None) -> str:
    """How a report names the evaluation: the champion's label or the reference's name."""
    return game.seed_references[-1] if champion is None else champion.label
