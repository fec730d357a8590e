"""Finished boards (`medina: board/1`): a reader that checks the position and works out which tiles
it decides, the board's score sheet, and the canonical writer behind `medina replay --final-board`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import product

from ..engine.board import Geometry, bits
from ..engine.position import NEUTRAL, Palace, Position
from ..engine.position import holder_name as engine_holder_name
from ..engine.scoring import ScoreSheet, score_position, tile_holders, winners_of
from ..engine.variant import Variant
from ..errors import Collected
from ..rules.loader import Ruleset
from ..rules.typed import Rules
from ..yamlio import base_dir_of, parse_or_collect, read_text, yaml_flow, yaml_type
from .header import HeaderReader

FORMAT_TAG = "board/1"
BOARD_TAG_RE = re.compile(r"^medina:\s*[\"']?board/1[\"']?\s*(#.*)?$", re.M)


def looks_like_board(text: str) -> bool:
    """Does this text declare `medina: board/1`? (decides board vs record without parsing twice)"""
    return bool(BOARD_TAG_RE.search(text))


TOP_KEYS = ("medina", "ruleset", "players", "grid", "roofs", "tiles")
BLOCK_SCALAR = re.compile(r"^\s*grid\s*:\s*[|>][-+0-9]*\s*(#.*)?$")
NOBODY = "none"


@dataclass
class OpenTile:
    """A tile the position alone does not decide: the owners (seat or NEUTRAL) who might hold it."""

    kind: str  # "palace" or "tower"
    key: str | int  # colour or tower number
    value: int
    candidates: list[int]

    def to_json(self, players: list[str]) -> dict:
        where = {"colour": self.key} if self.kind == "palace" else {"tower": self.key}
        return {
            "tile": self.kind,
            **where,
            "candidates": [holder_name(players, c) for c in self.candidates],
        }


@dataclass
class Board:
    """A board/1 file: the finished `position` it holds (None when the file cannot be read as one), the
    tiles it leaves `undetermined`, and its `problems`."""

    file: str
    ruleset: Ruleset | None = None
    players: list[str] = field(default_factory=list)
    position: Position | None = None
    undetermined: list[OpenTile] = field(default_factory=list)
    problems: Collected = field(default_factory=Collected)

    @cached_property
    def rules(self) -> Rules:
        assert self.ruleset is not None, "the rules of a board whose ruleset was read"
        return self.ruleset.for_players(len(self.players))


def holder_name(players: list[str], owner: int | None) -> str:
    """As a board file writes a holder: a player, "neutral", or "none" for nobody."""
    return engine_holder_name(players, owner) or NOBODY


def read_board(path: str, *, ruleset: str | None = None, overrides=()) -> Board:
    """Read a board file (`-` for stdin); problems are collected in `board.problems`."""
    name, text = read_text(path)
    return parse_board(text, name, ruleset=ruleset, overrides=overrides, base_dir=base_dir_of(path))


def parse_board(
    text: str, name: str, *, ruleset: str | None = None, overrides=(), base_dir=None
) -> Board:
    board = Board(file=name)
    parsed = parse_or_collect(text, name, board.problems)
    if parsed is None:
        return board
    data, lines = parsed
    _BoardReader(board, data, lines, ruleset, overrides, base_dir, text).read()
    return board


class _BoardReader(HeaderReader):
    """The ruleset and players checks are shared with records; the rest is the board's own."""

    def __init__(self, board: Board, data, lines, ruleset_ref, overrides, base_dir, text: str):
        super().__init__(board, data, lines, ruleset_ref, overrides, base_dir)
        self.text = text
        self.palaces: list[Palace] = []
        self.merchants = self.walls = 0
        self.well: int | None = None
        self.wall_tower: dict[int, int] = {}  # wall cell -> tower its run starts from
        self.palace_tile: dict[str, Palace | None] = {}
        self.tower_tile: dict[int, Palace | None] = {}

    def _touching(self, tower: int) -> list[Palace]:
        """Claimed palaces with a building or stable next to a wall of `tower`'s runs."""
        walls = sum(1 << c for c, t in self.wall_tower.items() if t == tower)
        return [p for p in self.palaces if p.owner is not None and self.geo.orth(p.pieces) & walls]

    def _largest_claimed(self, colour: str) -> list[Palace]:
        claimed = [p for p in self.palaces if p.colour == colour and p.owner is not None]
        top = max((p.size for p in claimed), default=0)
        return [p for p in claimed if p.size == top]

    def _position(self) -> Position:
        """The board's position: its pieces, owners and the tiles it decides (no supplies, tea tiles or
        live merchant chain: a board/1 file does not record them)."""
        index = {id(p): p.id for p in self.palaces}
        return Position.from_plain(
            self.r.rules,
            {
                "players": self.r.players,
                "merchants": self.merchants,
                "walls": self.walls,
                "well": self.well,
                "palaces": [
                    (p.colour, p.buildings, p.stables, p.owner, p.roof, None, ())
                    for p in self.palaces
                ],
                "palace_tile": [
                    None if p is None else index[id(p)] for p in self.palace_tile.values()
                ],
                "tower_tile": [
                    (t, None if p is None else index[id(p)]) for t, p in self.tower_tile.items()
                ],
                "supply": None,
                "tea": None,
                "chain_ends": None,
            },
        )

    def read(self) -> None:
        data, b = self.data, self.r
        if data is None:
            self.error("bad-format-tag", "the file is empty")
            return
        if not isinstance(data, dict) or data.get("medina") != FORMAT_TAG:
            found = (
                self.lines.shown(data.get("medina"), "medina")
                if isinstance(data, dict)
                else "no mapping"
            )
            self.error(
                "bad-format-tag", f"`medina:` must be {FORMAT_TAG!r}, found {found}", ("medina",)
            )
            return
        for key in data:
            if not (isinstance(key, str) and (key.startswith("x-") or key in TOP_KEYS)):
                self.error(
                    "unknown-key",
                    f"unknown key {self.lines.shown_key(key)} (valid: {', '.join(TOP_KEYS)}; "
                    "prefix your own keys with x-)",
                    (key,),
                )
        if not self._ruleset() or not self._players():
            return
        self.geo = Variant.of(b.rules).geometry
        if not self._grid():
            return
        self._palaces()
        self._merchants()
        self._walls()
        self._roofs()
        self._supply()
        if not b.problems.errors:
            self._tiles()
        if not b.problems.errors:
            b.position = self._position()

    # --- the grid --------------------------------------------------------------------------------
    def _grid(self) -> bool:
        b, geo, rules = self.r, self.geo, self.r.rules
        grid = self.data.get("grid")
        if not isinstance(grid, str):
            self.error(
                "board-grid" if grid is not None else "missing-key",
                f"`grid` must be text, one line per row (found {yaml_type(grid)})",
                ("grid",),
            )
            return False
        key_line = self.lines.of("grid")
        source = self.text.splitlines()
        block = (
            key_line is not None
            and key_line <= len(source)
            and BLOCK_SCALAR.match(source[key_line - 1])
        )
        rows = [
            ("".join(raw.split()), key_line + 1 + i if block and key_line is not None else key_line)
            for i, raw in enumerate(grid.split("\n"))
            if raw.strip()
        ]
        size = f"{geo.height} rows of {geo.width} cells ({rules.players}-player {rules.ruleset_id} board)"
        if len(rows) != geo.height:
            self.error(
                "board-grid",
                f"the grid has {len(rows)} rows; expected {size}, north row first",
                ("grid",),
            )
            return False
        for cells, line in rows:
            if len(cells) != geo.width:
                self.error(
                    "board-grid", f"a grid row has {len(cells)} cells; expected {size}", line=line
                )
        if b.problems.errors:
            return False
        self.row_lines = [line for _, line in rows]  # north row first
        letters = {c.letter: c.name for c in rules.colours}
        self.buildings = dict.fromkeys(rules.colour_names, 0)
        self.stables = wells = 0
        for r, (cells, line) in enumerate(rows):
            y = geo.height - 1 - r
            for x, char in enumerate(cells):
                cell = y * geo.width + x
                problem = self._cell(cell, char, letters)
                if problem:
                    self.error("board-grid", f"{geo.name(cell)}: {problem}", line=line)
                elif char == "#":
                    self.walls |= 1 << cell
                elif geo.kind(cell) == "interior" and char != ".":
                    kind = char.lower()
                    bit = 1 << cell
                    if kind == "m":
                        self.merchants |= bit
                    elif kind == "s":
                        self.stables |= bit
                    elif kind == "w":
                        wells |= bit
                    else:
                        self.buildings[letters[kind]] |= bit
        if rules.well.enabled and wells.bit_count() != 1:
            self.error(
                "board-grid",
                f"{rules.ruleset_id} has exactly one well (`w`); the grid has {wells.bit_count()}",
                ("grid",),
            )
        elif wells:
            self.well = next(bits(wells))
            if not geo.setup_cells >> self.well & 1:
                self.error(
                    "bad-setup",
                    f"the well at {geo.name(self.well)} must stand off the edge row",
                    line=self._line(self.well),
                )
        return not b.problems.errors

    def _cell(self, cell: int, char: str, letters: dict) -> str | None:
        """What is wrong with `char` on `cell`, or None."""
        kind = self.geo.kind(cell)
        if kind == "tower":
            return None if char == "T" else f"a corner holds its tower: write T, not {char!r}"
        if kind == "ring":
            if char in "#.":
                return None
            return (
                "towers stand on the corners only"
                if char == "T"
                else f"{char!r} on the wall ring: only # (wall) or . (gap) go there"
            )
        if char in "T#":
            return f"{char!r} inside the city: walls and towers belong on the ring"
        lower = char.lower()
        if lower in ".msw" or lower in letters:
            return (
                None
                if lower != "w" or self.r.rules.well.enabled
                else f"{self.r.ruleset.id} has no well"
            )
        buildings = ", ".join(f"{k} {v}" for k, v in letters.items())
        return (
            f"unknown letter {char!r}: use . empty, m merchant, s stable"
            + (", w well" if self.r.rules.well.enabled else "")
            + f" or a building of {self.r.ruleset.id} ({buildings})"
        )

    # --- palaces ---------------------------------------------------------------------------------
    def _palaces(self) -> None:
        geo = self.geo
        for colour, mask in self.buildings.items():
            while mask:
                group = mask & -mask
                while True:
                    grown = group | (geo.orth(group) & mask)
                    if grown == group:
                        break
                    group = grown
                self.palaces.append(Palace(len(self.palaces), colour, buildings=group))
                mask &= ~group
        for stable in bits(self.stables):
            touched = [p for p in self.palaces if geo.orth_of[stable] & p.buildings]
            if not touched:
                self.error(
                    "board-stable",
                    f"the stable at {geo.name(stable)} touches no building",
                    line=self._line(stable),
                )
            elif len(touched) > 1:
                self.error(
                    "board-spacing",
                    f"the stable at {geo.name(stable)} touches two palaces: "
                    f"{self._named(touched[0])} and {self._named(touched[1])}",
                    line=self._line(stable),
                )
            else:
                touched[0].stables |= 1 << stable
        for i, palace in enumerate(self.palaces):
            near = geo.king(palace.pieces)
            for other in self.palaces[i + 1 :]:
                if near & other.pieces:
                    cell = next(bits(near & other.pieces))
                    self.error(
                        "board-spacing",
                        f"{self._named(palace)} and {self._named(other)} touch at "
                        f"{geo.name(cell)}: palaces need a free cell between them, diagonals included",
                        line=self._line(cell),
                    )
        if self.well is not None:
            for cell in bits(geo.king(1 << self.well) & sum(p.pieces for p in self.palaces)):
                self.error(
                    "well-zone",
                    f"{geo.name(cell)}: no building or stable on the well or next to it",
                    line=self._line(cell),
                )

    def _line(self, cell: int) -> int | None:
        """The line of the grid row that holds `cell`."""
        return self.row_lines[self.geo.height - 1 - cell // self.geo.width]

    def _named(self, palace: Palace) -> str:
        return f"the {palace.colour} palace at {self.geo.name(_first_cell(self.geo, palace.buildings))}"

    # --- merchants -------------------------------------------------------------------------------
    def _merchants(self) -> None:
        """Merchant groups the placement rules cannot make. Every merchant goes next to at most one
        merchant: at a chain end, or starting a chain next to at most `new_chain_max_neighbours`.
        With 0, every group is a line (no branch, no loop); with 1, a group may branch but never
        close a loop; above 1, anything goes."""
        b, geo = self.r, self.geo
        most = b.rules.merchants.new_chain_max_neighbours
        if most > 1:
            return
        rule = (
            f"merchants.new_chain_max_neighbours is {most} in {b.rules.ruleset_id}: a new chain may "
            + ("not touch a merchant" if most == 0 else "touch at most one merchant")
        )
        if most == 0:
            for cell in bits(self.merchants & geo.more_neighbours_than(self.merchants, 2)):
                arms = self._cell_names(geo.orth_of[cell] & self.merchants)
                self.error(
                    "board-merchants",
                    f"the merchants at {geo.name(cell)} and {arms} branch at "
                    f"{geo.name(cell)}: a merchant chain is a line ({rule})",
                    line=self._line(cell),
                )
        loop = self.merchants
        while True:  # strip the ends until only loops (and what joins them) remain
            ends = loop & ~geo.at_least_two_neighbours(loop)
            if not ends:
                break
            loop &= ~ends
        if loop:
            self.error(
                "board-merchants",
                f"the merchants at {self._cell_names(loop)} close a loop, which no "
                f"placement can ({rule})",
                line=self._line(_first_cell(geo, loop)),
            )

    def _cell_names(self, mask: int) -> str:
        """`mask`'s cells by column, then row: "B3, C3, C4"."""
        geo = self.geo
        return ", ".join(
            geo.name(c) for c in sorted(bits(mask), key=lambda c: (c % geo.width, c // geo.width))
        )

    # --- walls -----------------------------------------------------------------------------------
    def _walls(self) -> None:
        geo = self.geo
        for start, end, cells in _sides(geo):
            walled = [(self.walls >> c) & 1 for c in cells]
            head = walled.index(0) if 0 in walled else len(cells)
            tail = walled[::-1].index(0) if 0 in walled else len(cells)
            towers = f"towers {geo.tower_of_cell[start]} and {geo.tower_of_cell[end]}"
            if head == len(cells):
                self.error(
                    "board-gate",
                    f"the wall between {towers} is closed: every side keeps a gate "
                    f"({geo.name(cells[0])}-{geo.name(cells[-1])})",
                    line=self._line(cells[0]),
                )
                continue
            inner = slice(head, len(cells) - tail)
            loose = [c for c, w in zip(cells[inner], walled[inner], strict=True) if w]
            if loose:
                names = [geo.name(c) for c in loose]
                walls = (
                    f"the wall at {names[0]} between {towers} does"
                    if len(loose) == 1
                    else f"the walls at {', '.join(names)} between {towers} do"
                )
                self.error(
                    "board-gate",
                    f"{walls} not continue a run from a tower",
                    line=self._line(loose[0]),
                )
            for c in cells[:head]:
                self.wall_tower[c] = geo.tower_of_cell[start]
            for c in cells[len(cells) - tail :]:
                self.wall_tower[c] = geo.tower_of_cell[end]

    # --- roofs -----------------------------------------------------------------------------------
    def _roofs(self) -> None:
        b, geo = self.r, self.geo
        roofs = self.data.get("roofs", {})
        if not isinstance(roofs, dict):
            self.error(
                "yaml-wrong-type",
                "`roofs` must map a building cell of each roofed palace to its owner "
                "(a player or neutral)",
                ("roofs",),
            )
            return
        palace_at = {c: p for p in self.palaces for c in bits(p.pieces)}
        for key, owner in roofs.items():
            path = ("roofs", key)
            cell = geo.parse(key) if isinstance(key, str) else None
            if cell is None:
                self.error(
                    "bad-cell",
                    f"roof at {self.lines.shown_key(*path)}: not a cell of this board "
                    f"({geo.describe_extent()})",
                    path,
                )
                continue
            name = geo.name(cell)
            palace = palace_at.get(cell)
            if palace is None or not palace.buildings >> cell & 1:
                what = "a stable (roofs go on buildings)" if palace is not None else "no building"
                self.error("board-roof", f"the roof at {name} is on {what}", path)
                continue
            if palace.roof is not None:
                self.error(
                    "board-roof",
                    f"{self._named(palace)} has two roofs ({geo.name(palace.roof)} and {name})",
                    path,
                )
                continue
            if not isinstance(owner, str):
                self.error(
                    "yaml-not-text",
                    f"the owner of the roof at {name}, {self.lines.shown(owner, *path)}, is "
                    f"read by YAML as {yaml_type(owner)}; quote the name",
                    path,
                )
                continue
            if owner == "neutral":
                seat = NEUTRAL
            elif owner in b.players:
                seat = b.players.index(owner)
                roofs = [
                    p.roof
                    for p in self.palaces
                    if p.owner == seat and p.colour == palace.colour and p.roof is not None
                ]
                if roofs:
                    self.error(
                        "board-ownership",
                        f"{owner} would own two {palace.colour} palaces "
                        f"({geo.name(roofs[0])} and {name}); a player roofs one palace per colour",
                        path,
                    )
                    continue
            else:
                self.error(
                    "board-ownership",
                    f"the roof at {name} names {owner!r}, who is not a player "
                    f"({', '.join(b.players)}, or neutral)",
                    path,
                )
                continue
            palace.owner, palace.roof = seat, cell

    # --- supply ----------------------------------------------------------------------------------
    def _supply(self) -> None:
        b, rules = self.r, self.r.rules
        n, supply = len(b.players), rules.supply
        counts = [
            (f"{c} buildings", self.buildings[c].bit_count(), n * supply.per_colour)
            for c in rules.colour_names
        ]
        counts += [
            ("stables", self.stables.bit_count(), n * supply.stables),
            ("walls", self.walls.bit_count(), n * supply.walls),
            (
                "merchants",
                self.merchants.bit_count(),
                n * supply.merchants + 1 + sum(rules.towers.merchants.values()),
            ),
            (
                "neutral roofs",
                sum(p.owner == NEUTRAL for p in self.palaces),
                n * supply.neutral_roofs,
            ),
        ]
        counts += [
            (f"roofs of {name}", sum(p.owner == seat for p in self.palaces), supply.roofs)
            for seat, name in enumerate(b.players)
        ]
        for what, count, most in counts:
            if count > most:
                self.error(
                    "board-supply",
                    f"{count} {what} on the board; {n} players of {rules.ruleset_id} "
                    f"have only {most}",
                    ("grid",) if "roof" not in what else ("roofs",),
                )

    # --- tiles -----------------------------------------------------------------------------------
    def _tiles(self) -> None:
        rules = self.r.rules
        given = self._given_tiles()
        values = {c.name: c.value for c in rules.colours}
        for colour in rules.colour_names:
            largest = self._largest_claimed(colour)
            self.palace_tile[colour] = self._holder(
                ("palace", colour),
                f"the {colour} palace tile",
                largest,
                given,
                values[colour],
                "a largest claimed palace of its colour",
            )
        for tower in sorted(self.geo.tower_cell):
            self.tower_tile[tower] = self._holder(
                ("tower", tower),
                f"tower tile {tower}",
                self._touching(tower),
                given,
                tower,
                "the owner of a claimed palace touching its walls",
            )

    def _holder(self, tile, what, palaces, given, value, who) -> Palace | None:
        """The palace holding `tile`: as given (if plausible), decided by the position, or open."""
        owners = list(
            dict.fromkeys(sorted((p.owner for p in palaces), key=lambda o: (o == NEUTRAL, o)))
        )
        if tile in given:
            owner, path = given[tile]
            if (owner is None and not palaces) or owner in owners:
                return next((p for p in palaces if p.owner == owner), None)
            possible = ", ".join(holder_name(self.r.players, o) for o in owners) or NOBODY
            self.error(
                "board-tiles",
                f"{what} cannot be with {holder_name(self.r.players, owner)}: it is held by "
                f"{who} (here: {possible})",
                path,
            )
            return None
        if len(owners) > 1:
            self.r.undetermined.append(OpenTile(tile[0], tile[1], value, owners))
            return None
        return palaces[0] if palaces else None

    def _given_tiles(self) -> dict:
        """(kind, key) -> (owner, path) from `tiles:`; bad entries are reported."""
        tiles = self.data.get("tiles", {})
        if not isinstance(tiles, dict):
            self.error(
                "board-tiles", "`tiles` must be a mapping with `palace:` and `tower:`", ("tiles",)
            )
            return {}
        colours = Variant.of(self.r.rules).spellings
        out = {}
        for kind, entries in tiles.items():
            if kind not in ("palace", "tower") or not isinstance(entries, dict):
                written = self.lines.written_keys.get(("tiles", kind), kind)
                self.error(
                    "board-tiles",
                    f"`tiles: {written}` is not a mapping `palace: {{colour: holder}}` or "
                    "`tower: {number: holder}`",
                    ("tiles", kind),
                )
                continue
            for key, holder in entries.items():
                path = ("tiles", kind, key)
                tile_key: str | int | None
                if kind == "palace":
                    tile_key = colours.get(key.lower()) if isinstance(key, str) else None
                    tile_key = tile_key if tile_key in self.r.rules.colour_names else None
                else:
                    towers = self.geo.tower_cell
                    tile_key = next((t for t in towers if key in (t, str(t))), None)
                if tile_key is None:
                    self.error(
                        "board-tiles",
                        f"no {kind} tile {self.lines.shown_key(*path)} in {self.r.ruleset.id}",
                        path,
                    )
                    continue
                owner = self._tile_owner(holder, path)
                if owner is not False:
                    out[(kind, tile_key)] = (owner, path)
        return out

    def _tile_owner(self, holder, path):
        """Seat, NEUTRAL or None for a holder name; False (reported) if it names nobody known."""
        if holder == NOBODY or holder is None:
            return None
        if holder == "neutral":
            return NEUTRAL
        if isinstance(holder, str) and holder in self.r.players:
            return self.r.players.index(holder)
        self.error(
            "board-tiles",
            f"tile holder {self.lines.shown(holder, *path)} is not a player "
            f"({', '.join(self.r.players)}), neutral or none",
            path,
        )
        return False


def _first_cell(geo: Geometry, mask: int) -> int:
    """The north-west-most cell of `mask` (the palace's name in messages)."""
    return min(bits(mask), key=lambda c: (-(c // geo.width), c % geo.width))


def _sides(geo: Geometry):
    """(start corner, end corner, ring cells between them in order) for the four sides."""
    w, h, corner = geo.width, geo.height, geo.corner_cell
    yield corner["NW"], corner["NE"], [corner["NW"] + x for x in range(1, w - 1)]
    yield corner["SW"], corner["SE"], list(range(1, w - 1))
    yield corner["SW"], corner["NW"], [y * w for y in range(1, h - 1)]
    yield corner["SE"], corner["NE"], [y * w + w - 1 for y in range(1, h - 1)]


# --- scoring -------------------------------------------------------------------------------------


def score_board(board: Board) -> ScoreSheet:
    """The board's score sheet. Open tiles are left out of the totals; `winners` is named only when
    every way of assigning them gives the same winners."""
    rules = board.rules
    assert board.position is not None, "scored only once read without errors"
    sheet = score_position(
        board.position,
        finished=True,
        undetermined=[t.to_json(board.players) for t in board.undetermined],
    )
    outcomes = set()
    for assignment in product(*(t.candidates for t in board.undetermined)):
        extra = [0] * len(board.players)
        for tile, owner in zip(board.undetermined, assignment, strict=True):
            if owner != NEUTRAL:
                extra[owner] += tile.value
        players = [
            replace(p, tile_points=p.tile_points + e)
            for p, e in zip(sheet.players, extra, strict=True)
        ]
        outcomes.add(tuple(winners_of(rules.scoring.tiebreak, players)))
    sheet.winners = list(outcomes.pop()) if len(outcomes) == 1 else []
    return sheet


# --- the canonical writer ------------------------------------------------------------------------


def write_board(position: Position, ruleset_ref: str) -> str:
    """board/1 text for a position (a game's, or a board's), with every tile holder written out."""
    geo, rules = position.variant.geometry, position.rules
    rows = position.grid().split("\n")  # the grid, as a board/1 file writes it
    roofed = sorted(
        ((p.roof, p.owner) for p in position.palaces if p.owner is not None and p.roof is not None),
        key=lambda roof_owner: (-(roof_owner[0] // geo.width), roof_owner[0] % geo.width),
    )
    players = position.players
    palace_holders, tower_holders = tile_holders(position)
    out = [
        f"medina: {FORMAT_TAG}",
        f"ruleset: {yaml_flow(ruleset_ref)}",
        "players: [" + ", ".join(yaml_flow(p) for p in players) + "]",
        "grid: |",
        *(f"  {row}" for row in rows),
        "roofs: {"
        + ", ".join(
            f"{geo.name(roof)}: {yaml_flow(holder_name(players, owner))}" for roof, owner in roofed
        )
        + "}",
        "tiles:",
        "  palace: {"
        + ", ".join(
            f"{c}: {yaml_flow(holder_name(players, palace_holders[c]))}" for c in rules.colour_names
        )
        + "}",
        "  tower: {"
        + ", ".join(
            f"{t}: {yaml_flow(holder_name(players, tower_holders[t]))}"
            for t in sorted(tower_holders)
        )
        + "}",
    ]
    return "\n".join(out) + "\n"
