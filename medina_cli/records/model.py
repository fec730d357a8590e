"""What a game record holds once read, whichever format it was read from (record/1 or boardspace.net)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Collected
from ..rules.loader import Ruleset


@dataclass(slots=True)
class Action:
    """One comma-separated item of a turn: a placement, `tea` or `pass`."""

    kind: str  # "place", "tea" or "pass"
    piece: str | None = None
    cell: int | None = None

    def token(self, geo) -> str:
        """As a record writes it: `grey K8`, `tea` or `pass`."""
        return f"{self.piece} {geo.name(self.cell)}" if self.kind == "place" else self.kind


@dataclass(slots=True)
class TurnEntry:
    number: int  # 1-based position in `turns`
    player: str
    line: int | None
    actions: list[Action]
    readable: bool = True  # False when the entry had a problem of its own


@dataclass
class Record:
    file: str
    ruleset: Ruleset | None = None
    players: list[str] = field(default_factory=list)
    merchant: int | None = None
    well: int | None = None
    supply: dict[str, dict[str, int]] = field(default_factory=dict)  # player -> piece -> count, where not the ruleset's
    turns: list[TurnEntry] = field(default_factory=list)
    result: dict[str, int] | None = None
    result_lines: dict[str, int] = field(default_factory=dict)
    meta: dict = field(default_factory=dict)  # event, date, notes and x- keys, kept as read
    problems: Collected = field(default_factory=Collected)
    other_rules: str | None = None  # played otherwise than the record says (--ruleset, --set): how, in words
    text: str = field(default="", repr=False)  # the text it was read from (to read it again under other rules)

    @property
    def rules(self):
        return self.ruleset.for_players(len(self.players))

    @property
    def playable(self) -> bool:
        """Can the turns be replayed? (ruleset, players and setup are usable)"""
        return self.ruleset is not None and bool(self.players) and self.merchant is not None and (
            self.well is not None or not self.rules.well.enabled)
