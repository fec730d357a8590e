"""`medina render`: the SVG parses as XML and holds exactly the pieces of the position, by kind."""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from conftest import EXAMPLES, record_text
from scorekit import run

from medina_cli.engine.board import bits
from medina_cli.engine.position import Position
from medina_cli.records.record import read_record
from medina_cli.records.replay import replay
from medina_cli.render import palette
from medina_cli.render import svg as svg_module
from medina_cli.rules.loader import load_ruleset

SVG = "{http://www.w3.org/2000/svg}"
# Anna builds grey C3+C4, Ben roofs it and starts black H8, Cleo adds a stable and a merchant,
# Anna walls A2 and A3 from tower 4. Player names need escaping.
SMALL_TURNS = [
    '"A<b>": grey C3, grey C4',
    '"B&C": roof C3, black H8',
    "Cleo: stable D3, merchant J8",
    '"A<b>": wall A2, wall A3',
]
SMALL = record_text("original-2001", ['"A<b>"', '"B&C"', "Cleo"], SMALL_TURNS)


def render(tmp_path, text: str, *args: str) -> tuple[int, ET.Element, str]:
    source = tmp_path / "game.yaml"
    source.write_text(text)
    out = tmp_path / "board.svg"
    code, _, err = run("render", source, "-o", out, *args)
    return code, ET.fromstring(out.read_text()), err


def pieces(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("data-kind")]


def kinds(root: ET.Element) -> Counter:
    return Counter(e.get("data-kind") for e in pieces(root))


def cells_of(root: ET.Element, kind: str) -> list[str]:
    return [e.get("data-cell") for e in pieces(root) if e.get("data-kind") == kind]


def test_a_small_game_has_each_piece_once_in_the_picture(tmp_path):
    code, root, _ = render(tmp_path, SMALL)
    assert code == 0 and root.tag == f"{SVG}svg"
    assert kinds(root) == Counter(
        {
            "building": 3,
            "roof": 1,
            "stable": 1,
            "palace": 2,
            "merchant": 2,
            "merchant-chain": 1,
            "wall": 2,
            "tower": 4,
        }
    )
    assert sorted(cells_of(root, "building")) == ["C3", "C4", "H8"]
    (roof,) = [e for e in pieces(root) if e.get("data-kind") == "roof"]
    assert (roof.get("data-cell"), roof.get("data-owner")) == ("C3", "B&C")
    assert cells_of(root, "stable") == ["D3"] and sorted(cells_of(root, "merchant")) == ["J7", "J8"]
    assert sorted(cells_of(root, "wall")) == ["A2", "A3"]
    assert sorted(e.get("data-tower") for e in pieces(root) if e.get("data-kind") == "tower") == [
        "1",
        "2",
        "3",
        "4",
    ]
    palaces = {
        e.get("data-colour"): e.get("data-owner")
        for e in pieces(root)
        if e.get("data-kind") == "palace"
    }
    assert palaces == {"grey": "B&C", "black": None}


def test_pieces_carry_letters_and_digits_not_only_colour(tmp_path):
    _, root, _ = render(tmp_path, SMALL)
    text = {
        e.get("data-cell") + e.get("data-kind"): "".join(e.itertext())
        for e in pieces(root)
        if e.get("data-cell")
    }
    assert text["C4building"] == "G" and text["H8building"] == "k"  # roofed palaces in upper case
    assert text["D3stable"] == "S" and text["J8merchant"].endswith("m")
    assert text["C3roof"].endswith("2")  # the owner's seat digit
    legend = "".join(e.text or "" for e in root.iter(f"{SVG}text"))
    assert (
        "1 A<b> (blue roofs)" in legend
        and "2 B&C (vermilion roofs): 4 points; palace tile grey" in legend
    )


def test_title_and_desc_make_the_picture_readable_as_text(tmp_path):
    _, root, _ = render(tmp_path, SMALL)
    title, desc = root.find(f"{SVG}title").text, root.find(f"{SVG}desc").text
    assert "after turn 4" in title and "B&C to move" in title
    row3 = next(line for line in desc.splitlines() if line.startswith("  3 "))
    assert row3.split()[1:5] == ["#", ".", "G2", "S"]


def caption_of(root: ET.Element) -> str:
    """The words of the picture's caption (the small line under everything)."""
    return " ".join(
        words for e in root.iter() if e.get("data-layer") == "caption" for words in e.itertext()
    )


def test_the_caption_names_the_file_the_turn_and_the_player_to_move(tmp_path):
    source = tmp_path / "game.yaml"
    _, root, _ = render(tmp_path, SMALL, "--to", "3")
    assert caption_of(root) == f"{source}, original-2001, after turn 3 (A<b> to move)"
    assert list(root)[-1].get("data-layer") == "caption"  # under the legend
    assert caption_of(render(tmp_path, SMALL)[1]).endswith(", after turn 4 (B&C to move)")
    board = tmp_path / "final.yaml"
    assert run("replay", EXAMPLES / "bsw-dm-2003-4p.yaml", "--final-board", "-o", board)[0] == 0
    assert run("render", board, "-o", tmp_path / "board.svg")[0] == 0
    assert (
        caption_of(ET.parse(tmp_path / "board.svg").getroot())
        == f"{board}, bsw-dm-2003, finished board"
    )


def test_legal_marks_every_cell_the_player_to_move_may_use(tmp_path):
    _, root, _ = render(tmp_path, SMALL, "--legal")
    record = read_record(str(tmp_path / "game.yaml"))
    game = replay(record).game
    expected: dict[int, list[str]] = {}
    for piece, cells in game.legal_masks():
        for cell in bits(cells):
            expected.setdefault(game.variant.geometry.name(cell), []).append(piece)
    marks = {
        e.get("data-cell"): e.get("data-pieces").split()
        for e in pieces(root)
        if e.get("data-kind") == "legal"
    }
    assert marks == expected
    assert marks["H8"] == ["roof"] and "wall" in marks["A4"]


def test_last_marks_the_last_turns_placements_in_order(tmp_path):
    _, root, _ = render(tmp_path, SMALL, "--last", "--to", "3")
    marks = [
        (e.get("data-cell"), e.get("data-order"))
        for e in pieces(root)
        if e.get("data-kind") == "last"
    ]
    assert marks == [("D3", "1"), ("J8", "2")]
    assert "wall" not in kinds(root)


def test_an_invalid_record_is_drawn_where_replay_stopped(tmp_path):
    text = record_text(
        "original-2001",
        ["Anna", "Ben", "Cleo"],
        ["Anna: grey C3, grey C4", "Ben: black H8, grey M9", "Cleo: stable D3"],
    )
    code, root, err = render(tmp_path, text, "--last")
    assert code == 1 and "building-not-adjacent" in err
    assert cells_of(root, "illegal") == ["M9"]
    assert cells_of(root, "last") == [
        "H8"
    ]  # the turn's first placement was made, the second refused
    assert sorted(cells_of(root, "building")) == ["C3", "C4", "H8"]
    assert "stopped at turn 2" in root.find(f"{SVG}title").text


@pytest.mark.parametrize(
    "turns, why",
    [
        (
            ["Anna: grey C3, grey C4", "Ben: black H8, grey M9"],
            "turn 2 placement 2, Ben: grey M9: ",
        ),
        (
            ["Anna: grey C3, grey C4", "Cleo: black H8, grey H9"],
            "turn 2, Cleo: ",
        ),  # out of turn: no cell to cross
    ],
)
def test_an_invalid_record_shows_why_replay_stopped_under_the_picture(tmp_path, turns, why):
    code, root, err = render(tmp_path, record_text("original-2001", ["Anna", "Ben", "Cleo"], turns))
    caption = " ".join(
        "".join(e.itertext()) for e in root.iter() if e.get("data-legend") == "caption"
    )
    problem = err.splitlines()[0].split(": ", 1)[1]  # the error line without its file and line
    assert code == 1 and caption == f"Replay stopped: {problem}" and why in caption
    valid = render(tmp_path, record_text("original-2001", ["Anna", "Ben", "Cleo"], turns[:1]))[1]
    assert not [e for e in valid.iter() if e.get("data-legend") == "caption"]


def test_the_well_and_its_bonus_cells_in_2014(tmp_path):
    text = record_text("second-edition-2014", ["Anna", "Ben"], ["Anna: grey C3"], well="F6")
    _, root, _ = render(tmp_path, text)
    assert cells_of(root, "well") == ["F6"]
    assert sorted(cells_of(root, "well-bonus")) == ["D6", "F4", "F8", "H6"]
    bonus = next(e for e in pieces(root) if e.get("data-kind") == "well-bonus")
    assert "+4" in "".join(bonus.itertext())


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_every_piece_of_a_finished_example_is_drawn(tmp_path, path):
    _, root, _ = render(tmp_path, path.read_text())
    game = replay(read_record(str(path))).game
    geo = game.variant.geometry
    count = kinds(root)
    assert count["building"] == sum(p.buildings.bit_count() for p in game.palaces)
    assert count["stable"] == sum(p.stables.bit_count() for p in game.palaces)
    assert count["roof"] == sum(p.owner is not None for p in game.palaces)
    assert count["merchant"] == game.merchants.bit_count()
    assert count["wall"] == game.walls.bit_count()
    assert (
        count["gate"] == (geo.ring & ~game.walls).bit_count()
    )  # the game is over: every gap is a gate
    assert count["well-bonus"] == game.well_bonus_cells.bit_count()
    assert count["well"] == (game.well is not None)


def test_a_finished_board_renders_like_the_record_it_came_from(tmp_path):
    source = EXAMPLES / "bsw-dm-2003-4p.yaml"
    board = tmp_path / "final.yaml"
    assert run("replay", source, "--final-board", "-o", board)[0] == 0
    code, _, _ = run("render", board, "-o", tmp_path / "board.svg")
    assert code == 0
    from_board = ET.parse(tmp_path / "board.svg").getroot()
    _, from_record, _ = render(tmp_path, source.read_text())

    def drawn(root):
        return sorted(
            (e.get("data-kind"), e.get("data-cell") or "", e.get("data-owner") or "")
            for e in pieces(root)
        )

    assert drawn(from_board) == drawn(from_record)
    assert run("render", board, "--legal")[0] == 2


def test_render_never_overwrites_its_input(tmp_path):
    source = (
        tmp_path / "game.svg"
    )  # a record under an odd name: the .svg check alone would not save it
    source.write_text(SMALL)
    code, _out, err = run("render", source, "-o", source)
    assert code == 2 and "refusing to overwrite" in err and source.read_text() == SMALL


@pytest.mark.parametrize("name", ["board.png", "board", "board.svg.txt"])
def test_render_refuses_an_output_that_is_not_svg(tmp_path, name):
    source = tmp_path / "game.yaml"
    source.write_text(SMALL)
    code, _out, err = run("render", source, "-o", tmp_path / name)
    assert (
        code == 2
        and "the output is an SVG picture; name a .svg file, or - for standard output" in err
    )
    assert not (tmp_path / name).exists()
    assert run("render", source, "-o", tmp_path / "BOARD.SVG")[0] == 0


def test_render_writes_to_stdout_by_default(tmp_path):
    source = tmp_path / "game.yaml"
    source.write_text(SMALL)
    code, out, _ = run("render", source)
    assert code == 0 and ET.fromstring(out).tag == f"{SVG}svg"
    assert not re.search(r"(href|src)=\"(https?:)?//", out)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_owner_bands_lie_between_dark_edges_whatever_the_palace_colour(tmp_path, path):
    """Yellow or vermilion straight on orange is unreadable: every owner band has a dark edge on both
    sides, and every seat colour stands out against that edge."""
    _, root, _ = render(tmp_path, path.read_text())
    owned = [e for e in pieces(root) if e.get("data-kind") == "palace" and e.get("data-owner")]
    assert owned
    for palace in owned:
        layers = [e for e in palace if e.tag == f"{SVG}path"]
        band = next(i for i, e in enumerate(layers) if e.get("data-band") == "owner")
        assert layers[band - 1].get("fill") == layers[band + 1].get("fill") == palette.OUTLINE
    for _, colour in (*palette.SEATS, palette.NEUTRAL):
        assert palette.contrast(colour, palette.OUTLINE) >= 3


def test_every_letter_of_the_legal_overlay_is_explained_in_the_legend(tmp_path):
    text = record_text(
        "original-2001", ["Anna", "Ben", "Cleo"], ["Anna: grey C3, grey C4", "Ben: black H8"]
    )
    _, root, _ = render(tmp_path, text, "--legal")
    marks = "".join(
        t.text for e in pieces(root) if e.get("data-kind") == "legal" for t in e.iter(f"{SVG}text")
    )
    explained = " ".join(
        "".join(e.itertext()) for e in root.iter() if e.get("data-legend") == "legal-codes"
    )
    assert set(marks) >= {"R", "m", "#", "g"}
    for code in set(marks) - {" "}:
        assert re.search(rf"(^|[ :,]){re.escape(code)} \w", explained), code


@pytest.mark.parametrize(
    "ruleset, well, neutral", [("original-2001", None, False), ("second-edition-2014", "N10", True)]
)
def test_the_legend_explains_neutral_roofs_only_where_the_ruleset_has_them(
    tmp_path, ruleset, well, neutral
):
    turns = (
        ["Anna: grey C3, grey C4", "Ben: black H8"]
        if not well
        else ["Anna: grey C3", "Ben: purple H8, grey C5"]
    )
    _, root, _ = render(
        tmp_path, record_text(ruleset, ["Anna", "Ben", "Cleo"], turns, well=well), "--legal"
    )
    explained = " ".join(
        "".join(e.itertext()) for e in root.iter() if e.get("data-legend") == "legal-codes"
    )
    assert "R roof" in explained and ("N neutral roof" in explained) == neutral
    assert ("neutral" in "".join(root.itertext())) == neutral


def test_tower_numbers_cannot_be_taken_for_seat_digits(tmp_path):
    _, root, _ = render(tmp_path, (EXAMPLES / "second-edition-2014-4p.yaml").read_text())
    towers = [e for e in pieces(root) if e.get("data-kind") == "tower"]
    for tower in towers:
        labels = [t.text for t in tower.iter(f"{SVG}text")]
        assert labels[0] == "T" + tower.get(
            "data-tower"
        )  # the holder's house carries a bare seat digit
    assert any("held by" in "".join(t.itertext()) for t in towers)
    legend = [e.text for e in root.iter(f"{SVG}text")]
    assert "tower T1" in legend and "tower tile holder" in legend


def test_tea_tiles_held_are_in_the_legend(tmp_path):
    path = EXAMPLES / "second-edition-2014-4p.yaml"
    record = read_record(str(path))
    turn = next(t for t in range(len(record.turns)) if any(replay(record, to_turn=t).game.tea))
    game = replay(record, to_turn=turn).game
    _, root, _ = render(tmp_path, path.read_text(), "--to", str(turn))
    legend = [e.text for e in root.iter(f"{SVG}text")]
    for seat, held in enumerate(game.tea):
        line = next(t for t in legend if t.startswith(f"{seat + 1} {game.players[seat]} "))
        assert (f"{held} tea tile" in line) == bool(held)
    assert "tea tile" in legend
    _, root, _ = render(tmp_path, SMALL)
    assert "tea tile" not in [e.text for e in root.iter(f"{SVG}text")]  # no tea in this ruleset


def test_only_the_chain_ends_the_engine_accepts_are_marked(tmp_path):
    """boardspace-original: after the restart D5, D6 against the dead chain, D5 touches two merchants."""
    turns = [
        "Anna: merchant C4, merchant D3",
        "Ben: grey D2, grey E2",
        "Cleo: grey E3, black B4",
        "Anna: black B5, black C5",
        "Ben: merchant D5, merchant D6",
    ]
    text = record_text("boardspace-original", ["Anna", "Ben", "Cleo"], turns, merchant="D4")
    code, root, _ = render(tmp_path, text, "--legal")
    game = replay(read_record(str(tmp_path / "game.yaml"))).game
    accepted = {game.variant.geometry.name(c) for c in bits(game.live_chain_ends())}
    marked = {
        e.get("data-cell")
        for e in pieces(root)
        if e.get("data-kind") == "merchant" and "live chain" in e.find(f"{SVG}title").text
    }
    assert code == 0 and marked == accepted and "D5" not in marked
    legal = next(cells for piece, cells in game.legal_masks() if piece == "merchant")
    assert (
        legal & ~game.variant.geometry.orth(game.live_chain_ends()) == 0
    )  # every legal merchant joins a marked end


class OnlyThePosition:
    """A position that refuses every attribute outside `engine.position.Position`."""

    def __init__(self, position):
        self._position = position

    def __getattr__(self, name):
        if name not in ALLOWED:
            raise AssertionError(
                f"a renderer read {name!r}, which is not part of the Position interface"
            )
        return getattr(self._position, name)


ALLOWED = {
    name
    for name in {
        *dir(Position),
        *vars(Position(load_ruleset("original-2001").for_players(3), ["A", "B", "C"])),
    }
    if not name.startswith("_")
}


def test_renderers_read_positions_only_through_the_position_interface(tmp_path):
    from medina_cli.records.boardfile import read_board
    from medina_cli.render.svg import board_svg, legend_svg
    from medina_cli.render.text import legend, render_board

    source = EXAMPLES / "second-edition-2014-4p.yaml"
    game = replay(read_record(str(source)), to_turn=30).game
    assert run("replay", source, "--final-board", "-o", tmp_path / "final.yaml")[0] == 0
    board = read_board(str(tmp_path / "final.yaml"))
    for position in (game, board.position):
        assert isinstance(position, Position)
        strict = OnlyThePosition(position)
        assert board_svg(strict, title="t", legal=None) == board_svg(
            position, title="t", legal=None
        )
        legend_svg(strict, title="t"), render_board(strict), legend(strict)
    for module in (Path(svg_module.__file__).parent).glob("*.py"):
        assert "getattr(" not in module.read_text(), module.name


def test_the_svg_writer_escapes_quotes_and_closes_empty_elements_without_a_space():
    root = ET.Element("g", {"data-owner": 'O\'Brien & "Co"'})
    ET.SubElement(root, "title").text = "<O'Brien>"
    ET.SubElement(root, "path", {"d": "M0 0h1"})
    ET.SubElement(root, "text").text = ""
    assert svg_module.to_text(root) == (
        '<g data-owner="O&#x27;Brien &amp; &quot;Co&quot;"><title>&lt;O&#x27;Brien&gt;'
        '</title><path d="M0 0h1"/><text></text></g>'
    )


# SHA-256 of each output as the renderer wrote it before it built element trees: the pictures keep every byte.
# (`render`'s since it draws the caption under the legend: the same bytes but that group and the picture's height.)
KEPT_BYTES = {
    (
        "render",
        "tests/fixtures/boards/e1-original-2001.yaml",
    ): "7763250504465adc1e879614c33072a10be7490c190f28ddd35676f55b35130a",
    (
        "render",
        "examples/second-edition-2014-4p.yaml",
        "--to",
        "20",
        "--legal",
        "--last",
    ): "f5231df5ecce1da3f7f3ef921b85ef80b773ea76e832ab49afa8ae1327b8c83a",
    (
        "render",
        "tests/fixtures/tile-examples/e6-tea.yaml",
        "--legal",
    ): "6d593bc9ed93b705536a7c3b42b4779c33db30fde0e76d3a58c1c48316f7d677",
    (
        "view",
        "tests/fixtures/tile-examples/e9-both-tiles.yaml",
    ):  # its pictures (boards, legend, badges) only
    "9843c4e6bfaf9c6e618ddcd9646bc8f13e5fdb51129d1641a96184584f7f5d97",
}


@pytest.mark.parametrize("args", KEPT_BYTES, ids=" ".join)
def test_pictures_keep_their_bytes(args, monkeypatch):
    from conftest import ROOT

    monkeypatch.chdir(ROOT)  # the file is named in the title as given
    code, out, _ = run(*args)
    if args[0] == "view":
        out = "".join(dict.fromkeys(re.findall(r"<svg.*?</svg>", out, re.S)))
    assert (
        code == 0
        and " />" not in out
        and hashlib.sha256(out.encode()).hexdigest() == KEPT_BYTES[args]
    )


def test_a_notebook_picture_and_an_analysis_chart_keep_their_bytes():
    from medina_cli.render.analysis import chart_svg

    game = replay(read_record(str(EXAMPLES / "bsw-dm-2003-4p.yaml")), to_turn=12).game
    assert (
        hashlib.sha256(game._repr_svg_().encode()).hexdigest()
        == "6558f2324248449dcdc7e850debdc54fa8f2b5c4779c80f69f91c0e53b098b74"
    )
    review = {
        "turn": 1,
        "placement": 1,
        "player": "O'Brien",
        "played": "grey C3",
        "best": "grey C3",
        "played_value": 0.0,
        "best_value": 0.0,
        "loss": 0.0,
    }
    doc = {
        "agent": "greedy <g>",
        "placements": [
            review,
            review
            | {
                "placement": 2,
                "played": "grey C4",
                "best": "roof C3",
                "played_value": -6.5,
                "best_value": 7.0,
                "loss": 13.5,
                "verdict": "blunder",
            },
            review
            | {
                "turn": 2,
                "player": 'B "&" C',
                "played": "wall A2",
                "best": "black H8",
                "played_value": 3.25,
                "best_value": 9.0,
                "loss": 5.75,
                "verdict": "mistake",
                "loss_interval": [5.0, 6.5],
            },
        ],
    }
    chart = chart_svg(doc, ["O'Brien", 'B "&" C'])
    assert (
        '<tspan fill="#d55e00">■ B &quot;&amp;&quot; C  </tspan>' in chart
        and 'stroke="#555"/>' in chart
    )
    assert hashlib.sha256(chart.encode()).hexdigest() == (
        "b353403943cbc6491a0d5b330665671744d374d6c132cb7ed0e9cc7196237403"
    )
