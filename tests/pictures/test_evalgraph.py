import xml.etree.ElementTree as ET

import pytest

from engine.pictures.evalgraph import MARK_COLOURS, GraphPoint, eval_graph_svg, eval_graph_text

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    assert svg.startswith("<?xml")
    return ET.fromstring(svg.encode("utf-8"))


def circles(root: ET.Element, css_class: str) -> list[ET.Element]:
    return [c for c in root.iter(f"{SVG}circle") if css_class in (c.get("class") or "").split()]


def game(plies: int = 40) -> list[GraphPoint]:
    marks = {7: "inaccuracy", 15: "mistake", 26: "blunder"}
    return [
        GraphPoint(ply, (ply * 37) % 500 - 250, label=f"move {ply}", mark=marks.get(ply))
        for ply in range(plies + 1)
    ]


def test_every_point_has_a_tooltip():
    points = game()
    root = parse(eval_graph_svg(points, title="Game 1"))
    hover = circles(root, "point") + circles(root, "mark")
    assert len(hover) == len(points)
    assert {c.find(f"{SVG}title").text.split()[1] for c in hover} == {str(p.ply) for p in points}
    line = next(root.iter(f"{SVG}polyline"))
    assert len(line.get("points").split()) == len(points)


def test_marks_make_coloured_dots_with_titles():
    root = parse(eval_graph_svg(game()))
    dots = circles(root, "mark")
    assert [d.get("class") for d in dots] == ["mark inaccuracy", "mark mistake", "mark blunder"]
    for dot in dots:
        severity = dot.get("class").split()[1]
        assert dot.get("fill") == MARK_COLOURS[severity]
        title = dot.find(f"{SVG}title").text
        assert severity in title and "move" in title
    assert dots[2].find(f"{SVG}title").text == "move 26 +2.12 blunder"


def test_red_advantage_is_drawn_above_and_mates_at_the_edges():
    points = [GraphPoint(0, 0), GraphPoint(1, 300), GraphPoint(2, -300), GraphPoint(3, None, mate=4),
              GraphPoint(4, 99999, mate=-2, label="Kd1")]
    root = parse(eval_graph_svg(points))
    y = [float(pair.split(",")[1]) for pair in next(root.iter(f"{SVG}polyline")).get("points").split()]
    assert y[3] < y[1] < y[0] < y[2] < y[4]
    assert y[0] - y[3] == pytest.approx(y[4] - y[0])  # both mates at the edge of the plot
    titles = [c.find(f"{SVG}title").text for c in circles(root, "point")]
    assert "+M4" in titles and "Kd1 -M2" in titles


def test_unknown_scores_break_the_line():
    points = [GraphPoint(0, 10), GraphPoint(1, 50), GraphPoint(2, None), GraphPoint(3, -20), GraphPoint(4, 30)]
    root = parse(eval_graph_svg(points))
    assert len(list(root.iter(f"{SVG}polyline"))) == 2


def test_areas_split_at_zero():
    root = parse(eval_graph_svg([GraphPoint(0, 100), GraphPoint(1, -100)], width=400, height=200))
    assert root.get("width") == "400"
    areas = [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "area"]
    assert len(areas) == 2 and areas[0].get("fill") != areas[1].get("fill")
    # the crossing is half-way between the two plies
    assert len({pair.split(",")[0] for pair in areas[0].get("points").split()}) == 3


@pytest.mark.parametrize("points", [[], [GraphPoint(0, None)]])
def test_no_data(points):
    root = parse(eval_graph_svg(points, title="x & y"))
    assert any(t.text == "no data" for t in root.iter(f"{SVG}text"))
    assert any(t.text == "x & y" for t in root.iter(f"{SVG}text"))
    assert eval_graph_text([]) == "no data"


def test_single_point_and_late_start():
    parse(eval_graph_svg([GraphPoint(0, 10)]))
    root = parse(eval_graph_svg([GraphPoint(61, 10), GraphPoint(62, 40)]))
    ticks = {t.text for t in root.iter(f"{SVG}text")}
    assert "31" in ticks and "0" in ticks


def test_labels_are_escaped():
    root = parse(eval_graph_svg([GraphPoint(1, 5, label="1. 炮二平五 <&>", mark="mistake")], title="<a & b>"))
    assert circles(root, "mark")[0].find(f"{SVG}title").text == "1. 炮二平五 <&> +0.05 mistake"


def test_bad_points():
    with pytest.raises(ValueError, match="mark"):
        GraphPoint(1, 0, mark="dubious")
    with pytest.raises(ValueError, match="mate"):
        GraphPoint(1, None, mate=0)


def test_text_graph():
    points = game()
    lines = eval_graph_text(points, width=60).splitlines()
    assert len(lines) == 10
    assert len({len(line) for line in lines[:9]}) == 1
    assert lines[4].count("i") == 1 and lines[4].count("m") == 1 and lines[4].count("b") == 1
    long = eval_graph_text(game(300), width=50).splitlines()
    assert len(long[4]) == len("   0  ") + 50


def test_text_graph_bars():
    points = [GraphPoint(0, None, mate=3), GraphPoint(1, None, mate=-3), GraphPoint(2, 0)]
    lines = eval_graph_text(points).splitlines()
    columns = [line[6:] for line in lines[:9]]
    assert [c[0] for c in columns] == list("████─    ")
    assert [c[1] for c in columns] == list("    ─████")
    assert [c[2] for c in columns] == list("    ─    ")
