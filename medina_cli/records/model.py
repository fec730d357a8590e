"""What a game record holds once read, whichever format it was read from (record/1 or boardspace.net),
and the strict writer of record/1 text."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.board import parse_square, square_name
from ..engine.game import Game
from ..engine.placement import PASS_PLACEMENT, Placement
from ..engine.scoring import score_game
from ..errors import Collected, Problem
from ..rules.loader import Ruleset
from ..rules.typed import Rules
from ..yamlio import yaml_flow

FORMAT_TAG = "record/1"


@dataclass(slots=True)
class TurnEntry:
    number: int  # 1-based position in `turns`
    player: str
    line: int | None
    actions: list[Placement]  # the comma-separated items of the turn: placements, `tea` or `pass`
    readable: bool = True  # False when the entry had a problem of its own
    read_before_problem: int | None = (
        None  # unreadable at a placement: the actions read before it (replayed)
    )


@dataclass
class Record:
    file: str
    ruleset: Ruleset | None = None
    players: list[str] = field(default_factory=list)
    merchant: int | None = None  # squares (see `engine.placement`)
    well: int | None = None
    supply: dict[str, dict[str, int]] = field(
        default_factory=dict
    )  # player -> piece -> count, where not the ruleset's
    turns: list[TurnEntry] = field(default_factory=list)
    result: dict[str, int] | None = None
    result_lines: dict[str, int] = field(default_factory=dict)
    meta: dict = field(default_factory=dict)  # event, date, notes and x- keys, kept as read
    problems: Collected = field(default_factory=Collected)
    other_rules: str | None = (
        None  # played otherwise than the record says (--ruleset, --set): how, in words
    )
    well_set_aside: Problem | None = (
        None  # the warning that the setup's well is left out (the ruleset has none)
    )
    text: str = field(
        default="", repr=False
    )  # the text it was read from (to read it again under other rules)
    other_format: str | None = (
        None  # the `medina:` tag of another format the file declares ("board/1", ...)
    )

    @property
    def rules(self) -> Rules:
        assert self.ruleset is not None, "the rules of a record whose ruleset was read"
        return self.ruleset.for_players(len(self.players))

    @property
    def setup(self) -> dict[str, str | None]:
        """The start merchant's and the well's cells by name: {"merchant": "K7", "well": None}."""
        return {
            "merchant": None if self.merchant is None else square_name(self.merchant),
            "well": None if self.well is None else square_name(self.well),
        }

    def tokens(self, entry: TurnEntry) -> list[str]:
        """A turn's placements as a record writes them: `grey K8`, `tea`, `pass`."""
        return [str(placement) for placement in entry.actions]

    def to_record(self) -> str:
        """The record as canonical record/1 text: its ruleset, players, setup, turns and notes (the
        `result` left out; a record read from a boardspace.net file comes out as record/1). Only for a
        record read without errors."""
        assert self.ruleset is not None and self.merchant is not None, (
            "a record read without errors has both"
        )
        return write_record(
            ruleset_ref=self.ruleset.id,
            players=self.players,
            merchant=self.merchant,
            well=self.well,
            turns=[(entry.player, self.tokens(entry)) for entry in self.turns],
            meta=self.meta,
            supply=self.supply,
        )

    @property
    def playable(self) -> bool:
        """Can the turns be replayed? (ruleset, players and setup are usable)"""
        return (
            self.ruleset is not None
            and bool(self.players)
            and self.merchant is not None
            and (self.well is not None or not self.rules.well.enabled)
        )

    def start_game(self) -> Game:
        """The game at the record's setup (its rules, players, merchant, well and supplies), before its
        first turn. Only for a `playable` record."""
        assert self.merchant is not None, "a playable record has its start merchant"
        return Game(self.rules, self.players, self.merchant, self.well, supply=self.supply)

    def placements(self) -> list[tuple[int, int, str, Placement]]:
        """(turn number, placement number within the turn, player, placement) for every placement and
        tea tile of the turns, in order (passes left out)."""
        return [
            (entry.number, k, entry.player, placement)
            for entry in self.turns
            for k, placement in enumerate((p for p in entry.actions if p != PASS_PLACEMENT), 1)
        ]


# --- the strict writer ---------------------------------------------------------------------------


def ruleset_ref_from(folder, ref: str) -> str:
    """How a record in `folder` names the ruleset `ref` given on a command line: a built-in by its id, a
    file by its path from `folder` (records name rulesets from their own folder, so folders can be shared)."""
    import os
    from pathlib import Path

    from ..rules.loader import is_path

    if not is_path(ref):
        return ref
    return Path(os.path.relpath(Path(ref).resolve(), Path(folder).resolve())).as_posix()


def game_record(game: Game, ruleset_ref: str, *, meta: dict | None = None) -> str:
    """A game so far as record/1 text: its setup, its move stack turn by turn, and its `result` once it
    is over; `ruleset_ref` names its ruleset."""
    setup = game.setup
    merchant = parse_square(
        setup["merchant"] or ""
    )  # a game always has its start merchant: never ""
    assert merchant is not None, "the start merchant's cell names a square"
    result = score_game(game).totals if game.is_over() else None
    return write_record(
        ruleset_ref=ruleset_ref,
        players=game.players,
        merchant=merchant,
        well=None if setup["well"] is None else parse_square(setup["well"]),
        supply=game.start_supply,
        turns=[(player, [str(p) for p in placements]) for player, placements in game.turns()],
        result=result,
        meta=meta,
    )


def write_record(
    *,
    ruleset_ref: str,
    players: list[str],
    merchant: int,
    well: int | None,
    turns: list[tuple[str, list[str]]],
    result: dict[str, int] | None = None,
    meta: dict | None = None,
    supply: dict[str, dict[str, int]] | None = None,
) -> str:
    """Canonical record/1 text. `merchant` and `well` are squares; `turns` holds (player, [tokens])
    pairs; `supply` the setup's player -> {piece: count} where a supply differs from the ruleset's."""
    out = [
        f"medina: {FORMAT_TAG}",
        f"ruleset: {yaml_flow(ruleset_ref)}",
        "players: [" + ", ".join(yaml_flow(p) for p in players) + "]",
        "setup:",
        f"  merchant: {square_name(merchant)}",
    ]
    if well is not None:
        out.append(f"  well: {square_name(well)}")
    if supply:
        out.append("  supply:")
        out += [
            f"    {yaml_flow(p)}: {{"
            + ", ".join(f"{piece}: {n}" for piece, n in supply[p].items())
            + "}"
            for p in players
            if p in supply
        ]
    out.append("turns:" if turns else "turns: []")
    for player, tokens in turns:
        out.append(f"  - {yaml_flow(player)}: {', '.join(tokens)}")
    meta = dict(meta or {})
    for key in ("event", "date", "notes"):
        if key in meta:
            out.append(f"{key}: {yaml_flow(meta.pop(key))}")
    if result is not None:
        out.append(
            "result: {"
            + ", ".join(f"{yaml_flow(p)}: {result[p]}" for p in players if p in result)
            + "}"
        )
    for key, value in meta.items():
        out.append(f"{yaml_flow(key)}: {yaml_flow(value)}")
    return "\n".join(out) + "\n"
