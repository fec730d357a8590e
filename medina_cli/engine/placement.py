"""Placements as values (`Placement("grey", "K8")`, printed "grey K8"; `Placement("tea")`) and the
error for one the rules refuse."""

from __future__ import annotations

import re
from typing import NamedTuple

from .board import CELL_RE

TEA = "tea"
_SPACES = re.compile(r"\s+")


class IllegalPlacement(ValueError):
    """A placement the rules refuse (or one that cannot be read); `code` names the rule broken
    (docs/error-codes.md) and `message` says it in words."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class Placement(NamedTuple):
    """One piece on one cell, or a tea tile used instead of a placement (`cell` None). Cells are
    named like chess squares (`K8`), pieces as the ruleset names them (`grey`, `roof`, `wall`...)."""

    piece: str
    cell: str | None = None

    def __str__(self) -> str:
        return self.piece if self.cell is None else f"{self.piece} {self.cell}"

    @classmethod
    def parse(cls, text: str) -> Placement:
        """`"grey K8"` (any case; `K08` is `K8`) or `"tea"`; raises IllegalPlacement (code
        `bad-placement`) for anything else. Whether the piece and cell exist is the game's business."""
        words = _SPACES.split(text.strip()) if isinstance(text, str) else []
        if len(words) == 1 and words[0].lower() == TEA:
            return TEA_PLACEMENT
        match = CELL_RE.match(words[1]) if len(words) == 2 else None
        if match is None:
            raise IllegalPlacement("bad-placement", f"{text!r} is not `<piece> <cell>` (e.g. `grey K8`) or `tea`")
        return cls(words[0].lower(), f"{match.group(1).upper()}{int(match.group(2))}")


TEA_PLACEMENT = Placement(TEA)
