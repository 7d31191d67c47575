"""The engine-vs-engine match runner (`jiangjun match`), built as cutechess and fastchess are:

* one game: the loop (:mod:`.game`), its referee (:mod:`.referee`: the rules' rulings, faults, claims,
  adjudication), its two clocks (:mod:`.clocks`), how it ends (:mod:`.endings`: the runner's endings
  beside the rules', and the Verdict) and its record (:mod:`.record`);
* a table that plays games with the engine processes it keeps (:mod:`.table`), and the match with its
  schedule, score, PGN and SPRT (:mod:`.runner`);
* a game's PGN with the engines' names, options and time controls (:mod:`.pgn`), the running score and
  final table (:mod:`.summary`), the journal for -resume (:mod:`.journal`), the games on a Dask cluster
  (:mod:`.cluster`, imported only for -cluster);
* time controls (:mod:`.timecontrol`), match statistics, Elo and SPRT (:mod:`.stats`), openings
  (:mod:`.openings`);
* the command line: one table of options (:mod:`.options`), read into a MatchConfig by :mod:`.cli`,
  which also generates the help text and docs/match.md's option reference from it."""
