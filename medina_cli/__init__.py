"""medina-cli: the rules of Medina (three editions) as one engine driven by YAML rulesets.

The public Python surface, `__all__`, is documented with examples in docs/api.md: `load_ruleset`
gives the `Rules`, `Game(rules, players, merchant=CELL)` plays them (`push`, `pop`, `copy`), `read_record`
and `replay` read games, `score` scores them.

Names are imported on first use, so `import medina_cli` (and the `medina` command) stays quick.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from .version import __version__ as __version__

# public name -> the module that defines it
_HOMES = {
    "load_ruleset": ".api",
    "score": ".api",
    "Variant": ".engine.variant",
    "Position": ".engine.position",
    "Game": ".engine.game",
    "Placement": ".engine.placement",
    "IllegalPlacement": ".engine.placement",
    "Event": ".engine.events",
    "ScoreSheet": ".engine.scoring",
    "standings": ".engine.scoring",
    "Rules": ".rules.typed",
    "Ruleset": ".rules.loader",
    "read_record": ".records.record",
    "Record": ".records.record",
    "replay": ".records.replay",
    "Replay": ".records.replay",
    "read_board": ".records.boardfile",
    "Board": ".records.boardfile",
    "MedinaError": ".errors",
    "UnusableInput": ".errors",
    "BadArgument": ".errors",
    "Problem": ".errors",
    "compare": ".comparison",
    "Comparison": ".comparison",
    "sweep_readings": ".comparison",
    "Readings": ".comparison",
    "engine_name": ".engine.native",
    "engine_requested": ".engine.native",
    "EngineUnavailable": ".engine.native",
    "Outcome": ".engine.scoring",
    "make_agent": ".agents",
}
__all__ = list(_HOMES)


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


if TYPE_CHECKING:
    # (`X as X`: the names are the package's own, for type checkers)
    from .agents import make_agent as make_agent
    from .api import load_ruleset as load_ruleset
    from .api import score as score
    from .comparison import Comparison as Comparison
    from .comparison import Readings as Readings
    from .comparison import compare as compare
    from .comparison import sweep_readings as sweep_readings
    from .engine.events import Event as Event
    from .engine.game import Game as Game
    from .engine.native import EngineUnavailable as EngineUnavailable
    from .engine.native import engine_name as engine_name
    from .engine.native import engine_requested as engine_requested
    from .engine.placement import IllegalPlacement as IllegalPlacement
    from .engine.placement import Placement as Placement
    from .engine.position import Position as Position
    from .engine.scoring import Outcome as Outcome
    from .engine.scoring import ScoreSheet as ScoreSheet
    from .engine.scoring import standings as standings
    from .engine.variant import Variant as Variant
    from .errors import BadArgument as BadArgument
    from .errors import MedinaError as MedinaError
    from .errors import Problem as Problem
    from .errors import UnusableInput as UnusableInput
    from .records.boardfile import Board as Board
    from .records.boardfile import read_board as read_board
    from .records.record import Record as Record
    from .records.record import read_record as read_record
    from .records.replay import Replay as Replay
    from .records.replay import replay as replay
    from .rules.loader import Ruleset as Ruleset
    from .rules.typed import Rules as Rules
