"""The engine-vs-engine match runner (`jiangjun match`): one game (:mod:`.game`), a table that plays games
with the engine processes it keeps (:mod:`.table`), the match with its schedule, score, PGN and SPRT
(:mod:`.runner`), a game's PGN with the engines' names and options (:mod:`.pgn`), the running score and
final table (:mod:`.summary`), the journal for -resume (:mod:`.journal`), the games on a Dask cluster
(:mod:`.cluster`, imported only for -cluster), time controls and clocks (:mod:`.timecontrol`) and match
statistics, Elo and SPRT (:mod:`.stats`)."""
