# Endgame tablebases: the retrograde generator and verifier, and the Python-visible table (engine.tablebase
# builds on it; docs/tablebases.md). The compact index (tb_index.pxi) and the search's probe
# (tb_probe.pxi) are included before the search, which uses them.
include "tb_gen.pxi"
include "tb_rules.pxi"
include "tb_dtc.pxi"
include "tb_share.pxi"
include "tb_api.pxi"
