"""`jiangjun analyze`: analysis of positions and games from the command line.

One module per job:

* :mod:`.engines` -- the engine, through engine.client: jiangjun hosted in process or any UCI/UCCI/XBoard
  program, and one position analysed (a SearchResult: the move, the score, the lines);
* :mod:`.moves` -- reading move lists (ICCS, WXF, Chinese) and writing moves in the chosen notation;
* :mod:`.game` -- annotating a game: each move's loss, the best alternative, classification, summary;
* :mod:`.report` -- text, live terminal and JSON output;
* :mod:`.tables` -- the endgame tables' value and best moves of each analysed position they hold;
* :mod:`.pictures` -- the board diagram and the evaluation graph (SVG);
* :mod:`.cli` -- the command line.
"""
from ..score import Score  # re-exported: engine.score is its home
from .errors import AnalyzeError

__all__ = ["AnalyzeError", "Score"]
