"""The two entry points of the public surface that sit above the layers they join: loading rules
for a player count, and scoring a game or a finished board. The rest of the surface is re-exported
from where it lives (see `medina_cli.__init__`)."""

from __future__ import annotations

from collections.abc import Mapping

from .engine.game import Game
from .engine.scoring import ScoreSheet, score_game
from .errors import BadArgument, MedinaError, UnusableInput
from .records.boardfile import Board, score_board
from .rules import loader
from .rules.loader import Ruleset
from .rules.typed import Rules


def load_ruleset(
    ref: str, players: int | None = None, overrides: Mapping[str, object] | tuple[str, ...] = ()
) -> Rules | Ruleset:
    """A built-in ruleset id or a ruleset file's path, with `overrides` such as
    {"towers.reconnect": "once_per_palace_arm"}: the `Rules` for `players` players, or, without
    `players`, the `Ruleset` (every player count). Raises BadArgument for an id, a player count or
    overrides it cannot use, UnusableInput for a ruleset file that cannot be read or is broken."""
    try:
        ruleset = loader.load_ruleset(ref, overrides)
    except (BadArgument, UnusableInput):
        raise
    except MedinaError as exc:
        raise BadArgument.of(exc) from exc
    return ruleset if players is None else ruleset.for_players(players)


def score(position: Game | Board) -> ScoreSheet:
    """The score sheet of a game (standings, final once it is over) or of a finished board."""
    return score_board(position) if isinstance(position, Board) else score_game(position)
