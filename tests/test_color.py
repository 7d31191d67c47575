"""engine.color: the sides, their names in messages, and their spellings in FENs and protocols."""
import pytest

from engine.color import Color


def test_names_and_indices():
    assert (Color.RED.label, Color.BLACK.label) == ("Red", "Black")
    assert [Color.of_index(i) for i in (0, 1)] == [Color.RED, Color.BLACK]
    assert [color.index for color in Color] == [0, 1]
    assert Color.RED.other is Color.BLACK and Color.RED == "red" and str(Color.BLACK) == "black"


@pytest.mark.parametrize("text,color", [("red", Color.RED), ("R", Color.RED), ("w", Color.RED),
                                        ("White", Color.RED), (" black ", Color.BLACK), ("b", Color.BLACK),
                                        (Color.BLACK, Color.BLACK)])
def test_parse(text, color):
    assert Color.parse(text) is color


def test_parse_refuses_anything_else():
    with pytest.raises(ValueError):
        Color.parse("blue")
