"""What the rules make happen, as values: `Event(kind, fields...)`. Their English wording lives
here and nowhere else: `str(event)` is the sentence the CLI prints.

Fields by kind (unused fields are None):

- `claim`: `player` (None for a neutral roof), `holder` (the player or "neutral"), `colour`, `cell` (the
  roof), `size`
- `palace-tile`: `tile` and `colour` (the tile's colour), `holder`, `player` (None when neutral), `size`
  (of the palace), `previous`
- `tower-tile`: `tile` (tower number), `holder`, `player`, `colour` and `cell` (the palace and its roof),
  `previous`
- `tower-merchants`: `tile` (tower number), `count`, `holder`, `player` (who takes them; None: they leave
  the game)
- `tea`: `reason` "used" (`player` spends a tile instead of a placement) or "awarded" (`count` tiles to
  `holder`; `player` None: they leave the game)
- `retire`: `colour`, `reason` (the retirement trigger: "all_players_own" or "no_building_fits")
- `forced-roof`: `player` (must place one of his roofs this turn)
- `pass`: `player` (skipped: cannot place anything)
- `game-end`: no fields

`holder` and `previous` name a player, "neutral", or (for `previous`) None when nobody held the tile.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

NEUTRAL_HOLDER = "neutral"
RETIREMENT_WORDS = {
    "all_players_own": "every player owns a palace of it",
    "no_building_fits": "no building of it fits anywhere",
}


# a value: never changed once made (not frozen: 6x quicker to make)
@dataclass(slots=True, unsafe_hash=True, repr=False)
class Event:
    """Something the rules made happen: a claim, a tile moving, a retirement, the game's end."""

    kind: str
    player: str | None = None
    holder: str | None = None
    colour: str | None = None
    cell: str | None = None
    size: int | None = None
    tile: str | int | None = None
    previous: str | None = None
    count: int | None = None
    reason: str | None = None

    def __str__(self) -> str:
        return _SENTENCES[self.kind](self)

    def __repr__(self) -> str:
        shown = [
            f"{name}={getattr(self, name)!r}"
            for name in self.__slots__[1:]
            if getattr(self, name) is not None
        ]
        return f"Event({', '.join([repr(self.kind), *shown])})"

    @property
    def text(self) -> str:
        """The sentence (the same as `str(event)`)."""
        return str(self)


def _plural(count: int, word: str) -> str:
    return word if count == 1 else f"{count} {word}s"


def _claim(e: Event) -> str:
    if e.player is None:
        return f"a neutral roof closes the {e.colour} palace at {e.cell} (size {e.size})"
    return f"{e.player} roofs the {e.colour} palace at {e.cell} (size {e.size})"


def _palace_tile(e: Event) -> str:
    where = (
        f"a neutral palace (size {e.size}): it stays on the board"
        if e.player is None
        else f"{e.player} (palace size {e.size})"
    )
    return f"the {e.colour} palace tile goes to {where}"


def _tower_tile(e: Event) -> str:
    at = f"{e.colour} palace at {e.cell}"
    where = f"the neutral {at}: it stays on the board" if e.player is None else f"{e.player} ({at})"
    return f"tower tile {e.tile} goes to {where}"


def _tower_merchants(e: Event) -> str:
    assert e.count is not None  # a tower-merchants event always counts the merchants
    merchants = _plural(e.count, "merchant")
    if e.player is None:
        leave = "leaves" if e.count == 1 else "leave"
        return f"the {merchants} of tower {e.tile} {leave} the game (neutral first holder)"
    return f"{e.player} takes the {merchants} of tower {e.tile}"


def _tea(e: Event) -> str:
    if e.reason == "used":
        return f"{e.player} uses a tea tile instead of a placement"
    tiles = f"{e.count} tea tile{'s' if e.count != 1 else ''}"
    if e.player is None:
        return f"{tiles} for the neutral claim {'leaves' if e.count == 1 else 'leave'} the game"
    return f"{e.player} takes {tiles}"


def _retire(e: Event) -> str:
    assert e.reason is not None  # a retire event always gives its reason
    return f"{e.colour} retires ({RETIREMENT_WORDS[e.reason]}); remaining {e.colour} buildings leave the game"


_SENTENCES: dict[str, Callable[[Event], str]] = {
    "claim": _claim,
    "palace-tile": _palace_tile,
    "tower-tile": _tower_tile,
    "tower-merchants": _tower_merchants,
    "tea": _tea,
    "retire": _retire,
    "forced-roof": lambda e: f"{e.player} must place a roof this turn",
    "pass": lambda e: f"{e.player} cannot place anything and is skipped",
    "game-end": lambda e: "no player can place anything: the game is over",
}
