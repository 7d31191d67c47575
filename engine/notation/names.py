"""The notations a move is written in, by name: the one list that the PGN writer, ``jiangjun analyze
--notation``, ``jiangjun match -pgnout ... notation=`` and the browser board's saved games offer.

* ``iccs`` -- the coordinates themselves (``h2e2``), the internal form of every move;
* ``chinese`` -- 纵线格式 (``炮二平五``);
* ``wxf`` -- the World Xiangqi Federation's (``C2.5``);
* ``san`` -- XBoard's algebraic notation (``Che2``).
"""
from __future__ import annotations

ICCS, CHINESE, WXF, SAN = "iccs", "chinese", "wxf", "san"
#: Every notation a move can be written in (:func:`engine.notation.to_notation`).
NOTATIONS = (ICCS, WXF, CHINESE, SAN)
