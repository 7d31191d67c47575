"""`jiangjun web`: play and analyse in the browser (the optional [web] extra: Starlette and uvicorn).

The modules, one job each:

* :mod:`.game` -- one tab's game: moves in any notation, take-backs, FEN, PGN in and out, what the page
  draws (``state()``); knows nothing of the web;
* :mod:`.seat` -- one tab's engine (jiangjun in the server's process, or the --engine program), through
  engine.client's SimpleEngine: started on first use, restarted after a crash or hang, its lines turned into
  what the page shows;
* :mod:`.review` -- the review of a whole game (jiangjun analyze's annotation), one graph point at a time;
* :mod:`.tables` -- the endgame tables' value and best moves of the position the page shows;
* :mod:`.protocol` -- what the page may send: each request type's fields, kinds and bounds, checked whole;
* :mod:`.app` -- the Starlette application: the static page, and one WebSocket per tab (with a cap);
* :mod:`.cli` -- the command line, uvicorn, and opening the browser;
* ``static/`` -- the page: plain HTML, CSS and JavaScript, no build step (docs/web.md).
"""
