"""N-tuple (pattern) networks, game-neutral: one import for a game author.

    from engine.kernels import ntuple
    layout = ntuple.board_layout(8, 8, ntuple.family_tuples(8, 8, "corner3+edge2x"), "d4")
    t = ntuple.index_tables(layout)
    weights = np.zeros((phases, layout.n_weights))
    value = ntuple.evaluate_bits(P, O, t, weights[phase])        # inside or outside numba

The names above come from the modules of this package. Layouts: ``layout`` (the model,
validation), ``builders`` (rectangular boards), ``layout_json`` (the file form); kernels:
``evaluation`` (evaluation, incremental indices), ``td`` (learning), ``fit`` (least squares on
labelled positions). What every game's ``ntuple`` genome shares: ``genome`` (gene names,
blocks, split), ``settings``, ``files``, ``figures``, and ``game`` (the game's side of it).
The guide is ``docs/patterns.md``.
"""

from engine.kernels.ntuple.builders import (
    FAMILIES,
    GROUPS,
    board_layout,
    board_symmetries,
    corner_blocks,
    edges_2x,
    family_tuples,
    full_lines,
    group_closure,
    rectangles,
    squares,
    straight_tuples,
    tuples_from_board,
)
from engine.kernels.ntuple.evaluation import (
    IndexTables,
    change_bits,
    check_bitboard_layout,
    check_weights,
    colour_swapped,
    evaluate_bits,
    evaluate_cells,
    evaluate_indices,
    index_tables,
    indices_bits,
    indices_cells,
    play_bits,
    set_cell,
    state_permuted,
    swapped_states,
    undo_bits,
)
from engine.kernels.ntuple.layout import MAX_LUT_SIZE, Layout, LayoutError, layout_from_tuples
from engine.kernels.ntuple.layout_json import (
    layout_from_json,
    layout_to_json,
    load_layout,
    save_layout,
)
from engine.kernels.ntuple.td import (
    td_game_bits,
    td_game_cells,
    td_step_bits,
    td_step_cells,
    value_bits,
    value_cells,
)

__all__ = [
    "FAMILIES", "GROUPS", "MAX_LUT_SIZE", "IndexTables", "Layout", "LayoutError",
    "board_layout", "board_symmetries", "change_bits", "check_bitboard_layout", "check_weights",
    "colour_swapped", "corner_blocks", "edges_2x", "evaluate_bits", "evaluate_cells",
    "evaluate_indices", "family_tuples", "full_lines", "group_closure", "index_tables",
    "indices_bits", "indices_cells", "layout_from_json", "layout_from_tuples", "layout_to_json",
    "load_layout", "play_bits", "rectangles", "save_layout", "set_cell", "squares",
    "state_permuted", "straight_tuples", "swapped_states", "td_game_bits", "td_game_cells",
    "td_step_bits", "td_step_cells", "tuples_from_board", "undo_bits", "value_bits", "value_cells",
]
