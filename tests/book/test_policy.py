"""engine.book.policy: which searches the engine answers from its book, and the book it opens."""
import random

import pytest

from engine import Position
from engine.book import DEFAULT
from engine.book.policy import BookShelf, answers_from_book, book_answer
from engine.search_types import SearchLimits


@pytest.mark.parametrize("limits,answers", [
    (SearchLimits(time=60000, opp_time=60000), True),
    (SearchLimits(movetime=1000), True),
    (SearchLimits(time=60000, depth=8), False),       # analyses are searched
    (SearchLimits(time=60000, nodes=1000), False),
    (SearchLimits(infinite=True), False),
    (SearchLimits(time=60000, ponder=True), False),
    (SearchLimits(time=60000, mate=3), False),
    (SearchLimits(time=60000, draw_offer=True), False),   # the search's score answers a draw offer
    (SearchLimits(), False),
])
def test_which_searches_the_book_answers(limits, answers):
    assert answers_from_book(limits) is answers


def test_the_shipped_book_is_opened_on_first_use_and_answers_a_game_move():
    shelf = BookShelf(DEFAULT)
    book = shelf.book
    assert book is not None and "book moves from" in shelf.summary(own_book=True)
    assert shelf.summary(own_book=False) == "own book off: every move is searched"
    choice = book_answer(book, SearchLimits(movetime=1000), Position(), (), random.Random(1))
    assert choice is not None and Position().is_legal(choice.move.move)
    assert book_answer(book, SearchLimits(depth=5), Position(), (), random.Random(1)) is None
    assert book_answer(None, SearchLimits(movetime=1000), Position(), (), random.Random(1)) is None


def test_no_book_and_a_file_that_is_not_one(tmp_path):
    assert BookShelf("").book is None
    assert BookShelf("").summary(own_book=True) == "no book file set (BookFile): playing without a book"
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"not a book at all")
    shelf = BookShelf(str(junk))
    assert shelf.book is None and shelf.summary(own_book=True).endswith(": playing without a book")
