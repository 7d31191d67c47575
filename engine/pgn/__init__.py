from .reader import (NOTATIONS, RESULTS, SEVEN_TAG_ROSTER, Game, PgnError, iter_games, read_games, write_game,
                     write_games)
