"""The engine-vs-engine match runner (`jiangjun match`): time controls and clocks
(:mod:`engine.match.timecontrol`) and match statistics, Elo and SPRT (:mod:`engine.match.stats`)."""
