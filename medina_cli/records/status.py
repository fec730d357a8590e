"""Where a recorded game stands, for the people at the table: who is to move and how many placements
their turn still allows, every player's supply, the score now; and the legal placements, grouped by
piece, filtered by piece and cell."""

from __future__ import annotations

from typing import Any

from ..engine.scoring import score_game
from ..engine.variant import Variant
from ..errors import BadArgument, Problem, did_you_mean, in_words, ordinal
from .model import Record
from .replay import Replay


def status_document(outcome: Replay | None = None) -> dict:
    """The medina-status/1 document of a replayed record (without `errors` and `warnings`): the
    position as in medina-replay/1 with `placements_left` and `forced`, and the score now (medina-score/1:
    the standings, final once the game is over); without `outcome`, as far as it is known before the
    replay (what an error leaves it at)."""
    if outcome is None:
        return {
            "format": "medina-status/1",
            "file": None,
            "ruleset": None,
            "players": [],
            "position": None,
            "score": None,
        }
    record, game = outcome.record, outcome.game
    assert game is not None and record.ruleset is not None  # the status of a record that replays
    sheet = score_game(game)
    sheet.finished = outcome.finished
    position = {
        **outcome.position_json(),
        "placements_left": outcome.placements_left(),
        "forced": bool(game.forced) and not game.is_over(),
    }
    return {
        "format": "medina-status/1",
        "file": record.file,
        "ruleset": record.ruleset.id,
        "players": record.players,
        "position": position,
        "score": sheet.to_json(),
    }


def status_report(outcome: Replay) -> list[str]:
    """The status in lines of text: where the game stands, who is to move with what is left of the turn, the
    supplies, the score."""
    record, game = outcome.record, outcome.game
    assert game is not None and record.ruleset is not None  # the status of a record that replays
    doc = status_document(outcome)
    position, sheet = doc["position"], doc["score"]
    lines = [
        f"{record.file}: {record.ruleset.id}, {in_words(record.players, 'and')}; {outcome.position_words()}"
    ]
    lines[0] += outcome.stop_words()
    if position["to_move"] is None:
        lines.append("The game is over.")
    else:
        left = position["placements_left"]
        lines.append(
            f"{position['to_move']} is to move: {ordinal(position['placement'])} placement of turn "
            f"{position['turn']}, {left} placement{'s' * (left != 1)} left in the turn"
            + (" (a roof is due this turn)" if position["forced"] else "")
        )
    return lines + [
        "",
        "Supply left:",
        supply_table(game),
        "",
        score_words(sheet, final=position["to_move"] is None),
    ]


def score_words(sheet: dict, *, final: bool) -> str:
    """A medina-score/1 document in a line: `Final score: Ann 54, Ben 40; Ann wins.`, or (not `final`)
    `Score now (if the game ended here): ...`."""
    totals = ", ".join(f"{p['name']} {p['total']}" for p in sheet["players"])
    if final:
        return f"Final score: {totals}; {in_words(sheet['winners'], 'and')} win{'s' * (len(sheet['winners']) == 1)}."
    return f"Score now (if the game ended here): {totals}"


def supply_table(game) -> str:
    """Every player's pieces left, a row each (tea tiles where the ruleset has them; neutral roofs where
    it supplies them)."""
    from tabulate import tabulate

    pieces = [p for p in game.variant.pieces if p != "neutral" or game.rules.supply.neutral_roofs]
    headers = ["player", *pieces] + (["tea"] if game.rules.tea.colour else [])
    rows = [
        [name, *(game.supply[seat][piece] for piece in pieces)]
        + ([game.tea[seat]] if game.rules.tea.colour else [])
        for seat, name in enumerate(game.players)
    ]
    return tabulate(rows, headers=headers, tablefmt="simple")


class PlacementFilter:
    """Which legal placements to show: of the pieces named (any spelling of the ruleset) and on the cells
    named; nothing named keeps every one."""

    def __init__(self, record: Record, pieces=(), cells=()):
        variant = Variant.of(record.rules)
        assert record.ruleset is not None  # its rules are read
        spellings, geo = variant.spellings, variant.geometry
        self.pieces, self.cells = set(), set()
        for piece in pieces:
            canonical = spellings.get(piece.strip().lower())
            if canonical not in variant.supplied:
                raise BadArgument(
                    Problem(
                        "usage",
                        f"{piece!r} is not a piece of {record.ruleset.id}"
                        f"{did_you_mean(piece.strip().lower(), variant.supplied)} "
                        f"(pieces: {variant.piece_list})",
                        file="--piece",
                    )
                )
            self.pieces.add(canonical)
        for cell in cells:
            number = geo.parse(cell)
            if number is None:
                raise BadArgument(
                    Problem(
                        "usage",
                        f"{cell!r} is not a cell of this board ({geo.describe_extent()})",
                        file="--cell",
                    )
                )
            self.cells.add(geo.name(number))

    def __call__(self, placement) -> bool:
        piece, _, cell = str(placement).partition(" ")
        return (
            bool(cell)
            and (not self.pieces or piece in self.pieces)
            and (not self.cells or cell in self.cells)
        )

    def words(self) -> str:
        """What is kept, in words (empty when everything is)."""
        parts = [
            in_words(sorted(self.pieces)) if self.pieces else "",
            f"on {in_words(sorted(self.cells))}" if self.cells else "",
        ]
        return " ".join(part for part in parts if part)


def legal_by_piece(game, keep=None) -> dict[str, list[str]]:
    """piece -> the cells where the player to move may place it (the ones `keep` keeps), in piece
    order and column then row order; tea tiles left out."""
    groups: dict[str, list[str]] = {}
    for placement in game.legal_placements():
        piece, _, cell = str(placement).partition(" ")
        if cell and (keep is None or keep(placement)):
            groups.setdefault(piece, []).append(cell)
    for cells in groups.values():
        cells.sort(key=lambda name: (name[0], int(name[1:])))
    return groups


def moves_document(file: str | None = None, outcome: Replay | None = None, keep=None) -> dict:
    """The medina-moves/1 document (without `errors` and `warnings`): the legal placements of the player
    to move where `outcome` stands (those `keep` keeps), as tokens; without `outcome`, as far as it is
    known before the replay (what an error leaves it at)."""
    doc: dict[str, Any] = {
        "format": "medina-moves/1",
        "after_turn": None,
        "player": None,
        "turn": None,
        "placement": None,
        "placements": [],
        "file": file,
    }
    if outcome is None:
        return doc
    game = outcome.game
    assert game is not None  # the moves of a record that replays
    groups = legal_by_piece(game, keep)
    turn, placement = outcome.next_placement() or (None, None)
    return {
        **doc,
        "after_turn": outcome.turns_played,
        "player": game.to_move,
        "turn": turn,
        "placement": placement,
        "placements": sorted(
            f"{piece} {cell}" for piece, cells in groups.items() for cell in cells
        ),
    }


def moves_lines(outcome: Replay, keep: PlacementFilter) -> list[str]:
    """The legal placements of the player to move in lines of text, a line per piece: where the game
    stands, whose placement it is, how many there are and how many `keep` keeps."""
    record, game, upcoming = outcome.record, outcome.game, outcome.next_placement()
    assert game is not None  # the moves of a record that replays
    where = outcome.position_words() + outcome.stop_words()
    if game.to_move is None or upcoming is None:  # (no next placement: the game is over)
        return [f"{record.file} {where}: the game is over; nobody can place anything."]
    legal = game.legal_placements()
    total = sum(" " in str(p) for p in legal)  # the rest: tea
    groups = legal_by_piece(game, keep)
    turn, placement = upcoming
    which = f", {ordinal(placement)} placement of turn {turn}" if placement > 1 else ""
    lines = [
        f"{record.file} {where}: {game.to_move} to move{which}, {total} legal placement{'s' if total != 1 else ''}"
        + (" (a roof is forced this turn)" if game.forced else "")
    ]
    if keep.words():
        lines.append(f"  {keep.words()}: {sum(map(len, groups.values())) or 'none'} of them")
    lines += listing_lines(groups) or [f"    {line}" for line in refusal_lines(game, keep)]
    if len(legal) > total and not keep.words():
        lines.append("  tea may replace one placement this turn")
    return lines


def refusal_lines(game, keep: PlacementFilter) -> list[str]:
    """Why `keep` keeps no placement of the player to move: for each piece it names (each piece the ruleset
    supplies where it names none), on each cell it names (anywhere where it names none), the rule that
    refuses it, in the words `medina add` uses (`grey C3: C3 already holds a piece [cell-occupied]`); a
    reason given for several cells once."""
    from ..engine.explain import explain_none

    variant = game.variant
    pieces = [piece for piece in variant.pieces if piece in (keep.pieces or variant.supplied)]
    masks = [1 << variant.geometry.parse(cell) for cell in sorted(keep.cells)] or [None]
    reasons = (explain_none(game, piece, mask) for piece in pieces for mask in masks)
    return list(dict.fromkeys(f"{message} [{code}]" for code, message in filter(None, reasons)))


def listing_lines(groups: dict[str, list[str]]) -> list[str]:
    """`  grey        4: C4 D3 D5 E4`, a line per piece."""
    return [f"  {piece:<9} {len(cells):>3}: {' '.join(cells)}" for piece, cells in groups.items()]
