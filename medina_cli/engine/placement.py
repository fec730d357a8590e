"""Placements as values: a piece on a square (`Placement("grey", "K8")`, printed "grey K8"), a tea tile
(`Placement("tea")`) or a pass (`Placement("pass")`), and the error for one the rules refuse.

A placement holds its piece in lower case and its square as a number that means the same on every
board: squares are numbered along the rows from the south-west corner, 26 to a row (the letters
A-Z), so `A1` is 0, `B1` 1, `A2` 26 and `K8` 7 × 26 + 10 = 192. Names are read and written only at
the edges (`Placement.parse`, `str`, the `cell` property): equal spellings give equal values.
Under one ruleset a placement is also a move code, an int (`Variant.encode`, `Variant.decode`).
"""

from __future__ import annotations

from collections import namedtuple

from .board import CELL_RE, ROW, parse_square, square_name

TEA = "tea"
PASS = "pass"


class IllegalPlacement(ValueError):
    """A placement the rules refuse (or one that cannot be read); `code` names the rule broken
    (docs/error-codes.md) and `message` says it in words."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def read_words(text: str) -> tuple[str, str | None]:
    """The words of a placement's text, the one reader of `Placement.parse` and `Variant.parse`: (piece in
    lower case, cell name as written) for `"grey K8"` (any case, any spaces), ("tea", None) and ("pass",
    None). Raises IllegalPlacement (code `bad-placement`) for anything else; the cell may still be on no
    board (`K0`)."""
    words = text.split() if isinstance(text, str) else []
    if len(words) == 1 and words[0].lower() in (TEA, PASS):
        return words[0].lower(), None
    if len(words) != 2 or not CELL_RE.match(words[1]):
        raise IllegalPlacement(
            "bad-placement", f"{text!r} is not `<piece> <cell>` (e.g. `grey K8`) or `tea`"
        )
    return words[0].lower(), words[1]


class Placement(namedtuple("Placement", ("piece", "square"))):
    """One piece on one square, a tea tile used instead of a placement, or a pass. Which field is what:
    `piece` is a name in lower case (`grey`, `roof`, `tea`, `pass`); `square` is an int, the square's
    number on every board (None for tea and pass); `cell` is a name, the square's (`K8`). The int of a
    placement under one ruleset, its move code, is `variant.encode(placement)` (the cell numbered by that
    board). `Placement(piece, cell)` takes the cell by name (any case) or by square number; TypeError for a
    piece that is no text."""

    __slots__ = ()

    def __new__(cls, piece: str, cell: str | int | None = None) -> Placement:
        if not isinstance(piece, str):
            raise TypeError(f"piece {piece!r:.80}: a piece's name, such as 'grey', 'roof' or 'tea'")
        square = cell
        if isinstance(cell, str):
            square = parse_square(cell)
            if square is None:
                raise IllegalPlacement(
                    "bad-cell", f"{cell!r} is not a cell (a column A-Z and a row 1-26)"
                )
        elif cell is not None and not (isinstance(cell, int) and 0 <= cell < ROW * ROW):
            raise IllegalPlacement(
                "bad-cell", f"{cell!r} is not a square number (0 to {ROW * ROW - 1})"
            )
        return tuple.__new__(cls, (piece.lower(), square))

    @property
    def cell(self) -> str | None:
        """The square's name (`K8`); None for tea and pass."""
        return None if self.square is None else square_name(self.square)

    def __str__(self) -> str:
        return self.piece if self.square is None else f"{self.piece} {square_name(self.square)}"

    def __repr__(self) -> str:
        return f"Placement(piece={self.piece!r}, cell={self.cell!r})"

    @classmethod
    def parse(cls, text: str) -> Placement:
        """`"grey K8"` (any case; `K08` is `K8`), `"tea"` or `"pass"`; raises IllegalPlacement (code
        `bad-placement`) for anything else, `bad-cell` for a cell on no board. Whether the piece exists,
        and the cell on the board, is the game's business (`Variant.parse` asks both)."""
        piece, cell = read_words(text)
        if cell is None:
            return TEA_PLACEMENT if piece == TEA else PASS_PLACEMENT
        return cls(piece, cell)


TEA_PLACEMENT = Placement(TEA)
PASS_PLACEMENT = Placement(PASS)
