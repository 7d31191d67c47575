# Endgame tablebases: the compact index, the retrograde generator and verifier, and the Python-visible
# table (engine.tablebase builds on it; docs/tablebases.md). Nothing here is used by the search.
include "tb_index.pxi"
include "tb_gen.pxi"
include "tb_rules.pxi"
include "tb_api.pxi"
