"""`jiangjun analyze`: analysis of positions and games from the command line.

One module per job:

* :mod:`.score` -- an engine score (centipawns or mate) that can be seen from either side;
* :mod:`.backend` -- the engine behind one interface: the in-process searcher or any UCI/UCCI process;
* :mod:`.moves` -- reading move lists (ICCS, WXF, Chinese) and writing moves in the chosen notation;
* :mod:`.game` -- annotating a game: each move's loss, the best alternative, classification, summary;
* :mod:`.report` -- text, live terminal and JSON output;
* :mod:`.pictures` -- the board diagram and the evaluation graph (SVG);
* :mod:`.cli` -- the command line.
"""
from .errors import AnalyzeError
from .score import Score

__all__ = ["AnalyzeError", "Score"]
