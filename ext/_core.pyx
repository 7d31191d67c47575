# cython: language_level=3
"""The jiangjun kernel: board, move generation, perft, the rules of Xiangqi, evaluation and search, in
C-level Cython.

Everything below the Python wrapper (api.pxi) is `noexcept nogil`: C structs and integer moves only.
"""
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memcmp, memcpy, memset
from cpython.buffer cimport PyBuffer_FillInfo

# One file per concept. The C-level code of each comes after the files it uses; the Python-visible
# classes (api.pxi, searcher.pxi) come last, and the test API after them.
include "types.pxi"
include "tables.pxi"
include "board.pxi"
include "attacks.pxi"
include "movegen.pxi"
include "chase.pxi"
include "rules.pxi"
include "eval.pxi"
include "nnue.pxi"
include "params.pxi"
include "tt.pxi"
include "movepick.pxi"
include "correction.pxi"
include "tb_index.pxi"      # endgame tablebases: the index of a table, and what an entry means
include "tb_probe.pxi"      # the tables the search probes (ProbeTables)
include "search.pxi"
include "api.pxi"
include "searcher.pxi"
include "tb.pxi"            # endgame tablebases: building and reading tables (engine.tablebase)
include "testing.pxi"      # the test API (`testing`), apart from the files the engine runs

init_tables()
set_eval_weights(DEFAULT_EVAL_WEIGHTS)
reset_search_parameters()
init_nnue()
