"""The read-only view of a position that pictures and scores read: a `Game`, or a finished board."""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Position(Protocol):
    """What a position shows. Cells are indices of `geo`; masks are ints of cell bits; owners are
    seat indices or NEUTRAL; tile holders are palaces or None."""

    rules: object
    geo: object
    players: list[str]
    palaces: list  # Palace: colour, buildings, stables, roof, owner
    merchants: int
    walls: int
    well: int | None
    well_bonus_cells: int
    palace_tile: dict  # colour -> Palace | None
    tower_tile: dict  # tower number -> Palace | None
    tea: list[int] | None  # tea tiles held per seat; None where the position does not record them

    @property
    def finished(self) -> bool: ...

    @property
    def to_move(self) -> str | None:
        """The player to move; None once the game is over."""

    def live_chain_ends(self) -> int:
        """Mask of the merchants a new merchant may join (0 where unknown)."""
