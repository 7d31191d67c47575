from .reader import (NotationError, PositionLike, legal_move_texts, parse_move, to_chinese, to_chinese_list,
                     to_wxf, to_wxf_list)
