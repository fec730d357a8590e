"""Recording a game as it is played: a new record with no turns yet, and placements appended to a
record's text one at a time, each checked exactly as `validate` checks it.

Appending edits the text where the turns are (nothing else in the file changes, comments
included); the edited text is read back and replayed before it is accepted.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..engine.board import geometry_for
from ..errors import Problem, UnusableInput, fail
from ..rules.loader import Ruleset, is_path
from ..yamlio import LOADER, STR_TAG, yaml_flow
from .boardspace import is_boardspace
from .model import write_record
from .record import parse_record
from .replay import Replay, replay

SAFE_TOKEN_RE = re.compile(r"[A-Za-z0-9]+(?: [A-Za-z0-9]+)*")  # nothing YAML could read as structure


def new_record(ruleset: Ruleset, ruleset_ref: str, players: list[str], merchant: str, well: str | None,
               path: str) -> tuple[str | None, list[Problem]]:
    """The text of a record at `path` with no turns yet, or None and what is wrong with the values given
    (`ruleset_ref` as given on the command line: a path is rewritten relative to the record's folder)."""
    refusal = ruleset.players_refusal(len(players))
    if refusal:
        return None, [Problem("unsupported-player-count", refusal, file=path)]
    rules = ruleset.for_players(len(players))
    geo = geometry_for(rules)
    problems, cells = [], {}
    for option, value in (("merchant", merchant), ("well", well)):
        if value is None:
            if rules.well.enabled and option == "well":
                problems.append(Problem("bad-setup", f"{ruleset.id} has a well: give --well CELL", file=path))
            continue
        if option == "well" and not rules.well.enabled:
            problems.append(Problem("bad-setup", f"{ruleset.id} has no well: leave out --well", file=path))
            continue
        cells[option] = geo.parse(value)
        if cells[option] is None:
            problems.append(Problem("bad-cell", f"--{option} {value!r} is not a cell of this board "
                                    f"({geo.describe_extent()})", file=path))
    if problems:
        return None, problems
    folder = Path(path).parent
    if is_path(ruleset_ref):
        ruleset_ref = Path(os.path.relpath(Path(ruleset_ref).resolve(), folder.resolve())).as_posix()
    well = cells.get("well")
    text = write_record(ruleset_ref=ruleset_ref, players=players, merchant=geo.square_of[cells["merchant"]],
                        well=None if well is None else geo.square_of[well], turns=[])
    for problem in (found := parse_record(text, path, base_dir=folder).problems.errors):
        problem.line = None  # a line of a file not written yet
    return (None if found else text), found


@dataclass
class Appended:
    """What `append_actions` did: the new text (None when refused), the replay of it (or of the
    record as it was, when refused) and the problems that refused it."""

    text: str | None
    outcome: Replay | None
    problems: list[Problem] = field(default_factory=list)
    entries: list[int] = field(default_factory=list)  # the numbers of the turns written to


def append_actions(text: str, name: str, actions: list[str], *, base_dir) -> Appended:
    """`text` with each action (`<piece> <cell>`, `tea` or `pass`) appended in turn: to the turn in
    progress, else as a new turn of the player to move (`pass`: of the next seat after the last turn).
    Refused, text unchanged, at the first problem `validate` would report."""
    if is_boardspace(name, text):
        raise fail("bad-format-tag", "a boardspace.net record: convert it with `medina import boardspace` first",
                   file=name, error=UnusableInput)
    record = parse_record(text, name, base_dir=base_dir)
    outcome = replay(record)
    if outcome.problems or outcome.game is None:
        return Appended(None, outcome, outcome.problems)
    pieces, geo = outcome.game.variant.spellings, outcome.game.geo
    done = Appended(text, outcome)
    for raw in actions:
        token = _canonical(raw, pieces, geo)
        if token is None:
            return Appended(None, outcome, [Problem("bad-placement", f"{raw.strip()!r} is not `<piece> <cell>`, "
                                                    "`tea` or `pass`", file=name)])
        game, turns = outcome.game, outcome.record.turns
        if game.turn_open():
            player = None  # goes on with the turn in progress
        elif token == "pass" or game.finished:
            player = outcome.record.players[(outcome.record.players.index(turns[-1].player) + 1)
                                            % len(outcome.record.players) if turns else 0]
        else:
            player = game.to_move
        edited = _edit(done.text, token, player)
        if edited is not None:
            record = parse_record(edited, name, base_dir=base_dir)
            outcome = replay(record)
            if outcome.problems:
                return Appended(None, outcome, outcome.problems)
        if edited is None or len(record.turns) != len(turns) + (player is not None):
            return Appended(None, outcome, [Problem(
                "bad-turn", "the turns are written in a layout `medina add` cannot extend (it writes one turn a "
                "line, `  - Anna: grey K8, black C3`); add this turn by hand", file=name)])
        done.text, done.outcome = edited, outcome
        if done.entries[-1:] != [len(record.turns)]:
            done.entries.append(len(record.turns))
    return done


def _canonical(token: str, pieces: dict, geo) -> str | None:
    """The action as the writer spells it (`grey K8`, `tea`); as typed when the record reader is to
    say what is wrong with it; None when it holds anything but letters, digits and spaces."""
    words = token.split()
    if not SAFE_TOKEN_RE.fullmatch(" ".join(words)):
        return None
    if len(words) == 1:
        return words[0].lower()
    if len(words) == 2 and words[0].lower() in pieces and geo.parse(words[1]) is not None:
        return f"{pieces[words[0].lower()]} {geo.name(geo.parse(words[1]))}"
    return " ".join(words)


def _edit(text: str, token: str, player: str | None) -> str | None:
    """`text` with `token` added to the last turn (`player` None) or as a new turn of `player`;
    None when the turns are written in a way this cannot extend."""
    newline = "\r\n" if "\r\n" in text else "\n"
    try:
        root = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError:
        return None
    turns = next(((key, value) for key, value in root.value if key.tag == STR_TAG and key.value == "turns"), None)
    line = f"{yaml_flow(player)}: {token}" if player is not None else None
    if turns is None:
        if player is None:
            return None
        return text + ("" if text.endswith("\n") or not text else newline) + f"turns:{newline}  - {line}{newline}"
    key, value = turns
    empty = (value.tag == "tag:yaml.org,2002:null" or isinstance(value, yaml.SequenceNode) and not value.value)
    if empty:
        if player is None:
            return None
        return f"{text[:key.end_mark.index]}:{newline}  - {line}{text[value.end_mark.index:]}"
    if not isinstance(value, yaml.SequenceNode) or value.flow_style:
        return None
    last = value.value[-1].value[-1][1]  # the placements of the last turn (the record was read as valid)
    if not isinstance(last, yaml.ScalarNode) or last.style not in (None, "", "'", '"'):  # plain ("" in libyaml), quoted
        return None
    end = last.end_mark.index
    if player is None:
        at = end - bool(last.style)  # inside the closing quote
        return f"{text[:at]}, {token}{text[at:]}"
    line_end = text.find("\n", end)
    at = len(text) if line_end < 0 else line_end + 1
    lead = "" if line_end >= 0 else newline
    return f"{text[:at]}{lead}{' ' * value.start_mark.column}- {line}{newline}{text[at:]}"
