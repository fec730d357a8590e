"""Recording a game as it is played: a new record with no turns yet; placements appended to a
record's text one at a time (for the player named, when one is), each checked exactly as `validate`
checks it; the last placements taken back.

Every change edits the text where the turns are (nothing else in the file changes, comments and
`x-` keys included), is read back and replayed before it is accepted, and is written atomically to
the file behind any symbolic link, while a lock on the record keeps other writers waiting: two
commands changing one record at once both get their placements in, one after the other.
"""

from __future__ import annotations

import os
import re
import stat
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..engine.board import geometry_for, square_name
from ..engine.variant import Variant
from ..errors import BadArgument, Problem, UnusableInput, fail, ordinal
from ..files import write_atomically
from ..rules.loader import Ruleset
from ..yamlio import LOADER, STR_TAG, base_dir_of, read_text, yaml_flow
from .boardspace import is_boardspace
from .model import Record, ruleset_ref_from, write_record
from .record import parse_record, refuse_board
from .replay import Replay, replay

SAFE_TOKEN_RE = re.compile(
    r"[A-Za-z0-9]+(?: [A-Za-z0-9]+)*"
)  # nothing YAML could read as structure


def new_record(
    ruleset: Ruleset,
    ruleset_ref: str,
    players: list[str],
    merchant: str | None,
    well: str | None,
    path: str,
    meta: dict | None = None,
) -> tuple[str | None, list[Problem]]:
    """The text of a record at `path` with no turns yet, or None and what is wrong with the values given
    (`ruleset_ref` as given on the command line: a path is rewritten relative to the record's folder;
    `meta`: `x-` keys to write after the turns)."""
    refusal = ruleset.players_refusal(len(players))
    if refusal:
        return None, [Problem("unsupported-player-count", refusal, file=path)]
    rules = ruleset.for_players(len(players))
    geo = geometry_for(rules)
    problems: list[Problem] = []
    cells: dict[str, int] = {}
    for option, value in (("merchant", merchant), ("well", well)):
        if value is None:
            if rules.well.enabled and option == "well":
                problems.append(
                    Problem("bad-setup", f"{ruleset.id} has a well: give --well CELL", file=path)
                )
            continue
        if option == "well" and not rules.well.enabled:
            problems.append(
                Problem("bad-setup", f"{ruleset.id} has no well: leave out --well", file=path)
            )
            continue
        cell = geo.parse(value)
        if cell is None:
            problems.append(
                Problem(
                    "bad-cell",
                    f"--{option} {value!r} is not a cell of this board ({geo.describe_extent()})",
                    file=path,
                )
            )
        else:
            cells[option] = cell
    if problems:
        return None, problems
    folder = Path(path).parent
    well_cell = cells.get("well")
    text = write_record(
        ruleset_ref=ruleset_ref_from(folder, ruleset_ref),
        players=players,
        merchant=geo.square_of[cells["merchant"]],
        well=None if well_cell is None else geo.square_of[well_cell],
        turns=[],
        meta=meta,
    )
    for problem in (found := parse_record(text, path, base_dir=folder).problems.errors):
        problem.line = None  # a line of a file not written yet
    return (None if found else text), found


def new_document(file: str, text: str | None = None) -> dict:
    """The medina-new/1 document (without `errors` and `warnings`) of the record `text` written at `file`:
    its ruleset, players, setup and who starts; without `text` (none written), as far as it is known."""
    doc: dict[str, Any] = {
        "format": "medina-new/1",
        "file": file,
        "ruleset": None,
        "players": [],
        "merchant": None,
        "well": None,
        "to_move": None,
    }
    if text is None:
        return doc
    record = parse_record(text, file, base_dir=Path(file).parent)
    assert record.ruleset is not None and record.merchant is not None  # the text `new_record` wrote
    return {
        **doc,
        "ruleset": record.ruleset.id,
        "players": record.players,
        "merchant": square_name(record.merchant),
        "well": None if record.well is None else square_name(record.well),
        "to_move": record.players[0],
    }


def drawn_setup(rules, seed) -> tuple[str, str | None]:
    """A start merchant and (where the ruleset has one) a well drawn from `seed`, as cell names."""
    import random

    from ..engine.playout import random_setup

    merchant, well = random_setup(rules, random.Random(f"medina-setup/{seed}"))
    return square_name(merchant), None if well is None else square_name(well)


def save_new(path: str, text: str) -> None:
    """Write a new record (atomically; through a symbolic link, to the file it names). Raises UnusableInput."""
    _save(path, path, text)


# --- the lock and the write ----------------------------------------------------------------------

LOCK_WAIT = 10.0  # seconds a change waits for another writer of the same record before giving up
LOCK_NOTICE = 1.0  # ... and after this long it says that it is waiting


@contextmanager
def locked(path: str, *, wait: float | None = None, waiting=None):
    """Hold the record at `path` against every other change made through this module, and give the
    path to write it to (the file behind any symbolic link). The lock is the operating system's lock
    on the file itself (`flock`): no lock file is left behind, and a killed holder's lock goes with it.
    Another holder is waited for up to `wait` seconds (default LOCK_WAIT; `waiting(wait)` is called once
    after LOCK_NOTICE), then UnusableInput `record-busy`. A path that is no regular file is not locked
    (reading it fails)."""
    real = os.path.realpath(path)
    wait = LOCK_WAIT if wait is None else wait
    try:
        import fcntl
    except ImportError:  # no flock on this platform: changes are not serialised
        yield real
        return
    start = time.monotonic()
    told = False
    while True:
        try:
            handle = os.open(real, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            yield real  # missing or unreadable: reading it says so
            return
        try:
            if not stat.S_ISREG(os.fstat(handle).st_mode):
                yield real
                return
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                waited = time.monotonic() - start
                if waited > wait:
                    raise fail(
                        "record-busy",
                        f"another command has been changing it for {wait:g} s; try again "
                        "when it has finished",
                        file=path,
                        error=UnusableInput,
                    ) from None
                if waiting is not None and not told and waited > LOCK_NOTICE:
                    told = True
                    waiting(wait)
                time.sleep(0.02)
                continue
            if _same_file(handle, real):  # not replaced by a writer that held the lock before us
                yield real
                return
        finally:
            os.close(handle)


def _same_file(handle: int, path: str) -> bool:
    try:
        now = os.stat(path)
    except OSError:
        return False
    held = os.fstat(handle)
    return (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino)


def _changed(name: str, text: str, expect: str | None) -> Problem | None:
    """A record changed by someone else since `expect` was read."""
    if expect is None or text == expect:
        return None
    return Problem(
        "record-changed",
        "changed by another command since it was read; nothing was written",
        file=name,
    )


def _save(path: str, name: str, text: str) -> None:
    try:
        write_atomically(Path(path), text)
    except OSError as exc:
        raise fail(
            "cannot-write", f"cannot write: {exc.strerror or exc}", file=name, error=UnusableInput
        ) from None


def record_placements(
    path: str,
    actions: list[str],
    *,
    player: str | None = None,
    expect: str | None = None,
    waiting=None,
    from_shell: bool = True,
) -> Appended:
    """`append_actions` on the record file at `path`, written when accepted, under its lock. `expect`:
    the text the caller last saw; the record is left alone (`record-changed`) if it is not that any
    more. Raises MedinaError when the record cannot be read or written, BadArgument when the actions
    name a player it does not have."""
    with locked(path, waiting=waiting) as real:
        name, text = read_text(path)
        changed = _changed(name, text, expect)
        if changed is not None:
            return Appended(None, None, [changed])
        done = append_actions(
            text, name, actions, base_dir=base_dir_of(path), player=player, from_shell=from_shell
        )
        if done.text is not None and done.text != text:
            _save(real, name, done.text)
    return done


def take_back(path: str, count: int = 1, *, expect: str | None = None, waiting=None) -> Undone:
    """`remove_actions` on the record file at `path`, written when accepted, under its lock (`expect`
    as for `record_placements`). Raises MedinaError when the record cannot be read or written, and
    BadArgument when it holds fewer than `count` placements."""
    with locked(path, waiting=waiting) as real:
        name, text = read_text(path)
        changed = _changed(name, text, expect)
        if changed is not None:
            return Undone(name, None, None, [changed])
        done = remove_actions(text, name, count, base_dir=base_dir_of(path))
        if done.text is not None:
            _save(real, name, done.text)
    return done


def keep_key(path: str, key: str, value, *, expect: str) -> str | None:
    """The record at `path` with its top-level `key` (an `x-` key) set to `value`, written under its lock:
    one line of flow YAML in place of the key's own (after everything where it has none); the rest of the
    file as it was. Returns the new text; None, the file untouched, when the record is no longer `expect`
    or its key is written over several lines. Raises MedinaError when it cannot be read or written."""
    with locked(path) as real:
        name, text = read_text(path)
        if _changed(name, text, expect) is not None:
            return None
        line = f"{yaml_flow(key)}: {yaml_flow(value)}"
        root = yaml.compose(text, Loader=LOADER)
        assert root is not None  # the record `expect` said: a YAML mapping
        found = next(((k, v) for k, v in root.value if k.tag == STR_TAG and k.value == key), None)
        if found is None:
            newline = "\r\n" if "\r\n" in text else "\n"
            edited = text + ("" if text.endswith("\n") else newline) + line + newline
        elif found[0].start_mark.line == found[1].end_mark.line and found[0].start_mark.column == 0:
            edited = text[: found[0].start_mark.index] + line + text[found[1].end_mark.index :]
        else:
            return None
        _save(real, name, edited)
    return edited


# --- placements as typed -------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One action to record, as typed (`grey K8`, `tea`, `pass`), and the player it is meant for (None:
    whoever is to move)."""

    token: str
    player: str | None = None


def read_steps(
    args: list[str], record: Record, player: str | None = None, *, from_shell: bool = True
) -> tuple[list[Step], list[Problem]]:
    """The actions of a command line's arguments, each `[PLAYER:] ACTION[, ACTION...]`, for `player` where
    no argument names one. Words the shell split apart (an unquoted `roof C3`, `Ann: roof C3`) are joined
    again; a piece or cell alone is said to want quoting (`from_shell`), else only to want its other half.
    Returns the steps, or the problems that stop them; raises BadArgument (a usage error) when `player` or
    an argument names a player the record does not have, or an argument names another player than `player`."""
    variant = Variant.of(record.rules)
    pieces, geo = variant.spellings, variant.geometry
    if player is not None and player not in record.players:
        raise BadArgument(_unknown_player(player, record))
    problems, steps = [], []
    for arg in _joined(args, pieces, geo):
        named, rest = _named(arg, record)
        if isinstance(named, Problem):
            raise BadArgument(named)
        if named is not None and player is not None and named != player:
            raise fail(
                "usage",
                f"{arg!r} names {named}, and --player {player}: name one player",
                file="--player",
                error=BadArgument,
            )
        for part in rest.split(","):
            words = part.split()
            if len(words) == 1 and (words[0].lower() in pieces or geo.parse(words[0]) is not None):
                lacks = "cell" if words[0].lower() in pieces else "piece"
                advice = (
                    '; quote each one as a single argument, e.g. "roof K8"'
                    if from_shell
                    else ", e.g. `roof K8`"
                )
                problems.append(
                    Problem(
                        "bad-placement",
                        f"{words[0]!r} has no {lacks}: a placement is `<piece> <cell>`{advice}",
                        file=record.file,
                    )
                )
            steps.append(Step(part, named or player))
    return steps, problems


def _joined(args: list[str], pieces: dict, geo) -> list[str]:
    """The arguments with the words the shell split apart joined again: `Ann:` or a trailing comma to
    what follows, a piece without its cell to the cell that follows."""
    out: list[str] = []
    for arg in (a.strip() for a in args):
        if out and (out[-1].endswith((",", ":")) or _piece_then_cell(out[-1], arg, pieces, geo)):
            out[-1] = f"{out[-1]} {arg}"
        else:
            out.append(arg)
    return out


def _piece_then_cell(before: str, after: str, pieces: dict, geo) -> bool:
    last = before.rpartition(",")[2].rpartition(":")[2].split()
    first = after.split(",")[0].split()
    return (
        len(last) == 1
        and last[0].lower() in pieces
        and len(first) == 1
        and geo.parse(first[0]) is not None
    )


def _named(arg: str, record: Record) -> tuple[str | Problem | None, str]:
    """(the player an argument names before a colon, or None, or why that is no player; the rest)."""
    for name in sorted(record.players, key=len, reverse=True):
        if arg.startswith(f"{name}:"):
            return name, arg[len(name) + 1 :]
    head, colon, rest = arg.partition(":")
    if colon and head.strip() and "," not in head:
        return _unknown_player(head.strip(), record), rest
    return None, arg


def named_player(arg: str, record: Record) -> str | None:
    """The player of `record` that an action as typed (`Ann: grey K8`) names before its colon, or None."""
    named, _ = _named(arg.strip(), record)
    return named if isinstance(named, str) else None


def _unknown_player(name: str, record: Record) -> Problem:
    from ..errors import did_you_mean

    return Problem(
        "unknown-player",
        f"{name!r} is not a player of this record ({', '.join(record.players)})"
        f"{did_you_mean(name, record.players)}",
        file=record.file,
    )


# --- appending -----------------------------------------------------------------------------------


@dataclass
class Appended:
    """What `append_actions` did: the new text (None when refused), the replay of it (or of the
    record as it was, when refused) and the problems that refused it."""

    text: str | None
    outcome: Replay | None
    problems: list[Problem] = field(default_factory=list)
    entries: list[int] = field(default_factory=list)  # the numbers of the turns written to
    placed: list[tuple[int, str, str]] = field(
        default_factory=list
    )  # (turn, player, token) of each accepted

    def lines(self) -> list[str]:
        """What was recorded, turn by turn, and who is next: `turn 2, Ben: grey K8` ... `next: ...`."""
        assert self.outcome is not None  # lines tell what a command that replayed the record did
        record = self.outcome.record
        entries = [record.turns[number - 1] for number in self.entries]
        return [f"turn {e.number}, {e.player}: {', '.join(record.tokens(e))}" for e in entries] + [
            next_words(self.outcome)
        ]

    def to_json(self, file: str) -> dict:
        """The medina-add/1 document (without `errors` and `warnings`): each placement written, in order,
        then who is to move and where the next placement stands (as medina-undo/1); nothing when refused."""
        written = self.text is not None
        outcome = self.outcome if written else None  # (written: the replay of the new text)
        turn, placement = (outcome.next_placement() if outcome else None) or (None, None)
        return {
            "format": "medina-add/1",
            "file": file,
            "added": [
                {"turn": turn_, "player": player, "placement": token}
                for turn_, player, token in (self.placed if written else [])
            ],
            "to_move": outcome.game.to_move if outcome and outcome.game else None,
            "turn": turn,
            "placement": placement,
        }

    def refused(self, problems: list[Problem], outcome: Replay | None = None) -> Appended:
        """Refused at this point: no text, the problems, and what had been accepted before (see `unwritten`)."""
        return Appended(None, outcome or self.outcome, problems, placed=self.placed)

    def unwritten(self) -> str | None:
        """When refused after accepting some: that those are not written either, and where they went."""
        if self.text is not None or not self.placed:
            return None
        assert self.outcome is not None  # refused after accepting some: the replay as it was then
        went = "; ".join(f"turn {turn}, {player}: {token}" for turn, player, token in self.placed)
        return f"{self.outcome.record.file}: this command's placements before it are not written either ({went})"


def append_actions(
    text: str,
    name: str,
    actions: list[str],
    *,
    base_dir,
    player: str | None = None,
    from_shell: bool = True,
) -> Appended:
    """`text` with each action (`[PLAYER:] <piece> <cell>`, `tea` or `pass`; see `read_steps`) appended in
    turn: to the turn in progress, else as a new turn of the player to move (`pass`: of the next seat after
    the last turn). An action meant for a player who is not the one it would go to is refused. Refused,
    text unchanged, at the first problem `validate` would report. `from_shell`: as `read_steps`."""
    if is_boardspace(name, text):
        raise fail(
            "bad-format-tag",
            "a boardspace.net record: convert it with `medina import boardspace` first",
            file=name,
            error=UnusableInput,
        )
    record = parse_record(text, name, base_dir=base_dir)
    refuse_board(record)
    outcome = replay(record)
    if outcome.problems or outcome.game is None:
        return Appended(None, outcome, outcome.problems)
    steps, problems = read_steps(actions, record, player, from_shell=from_shell)
    if problems:
        return Appended(None, outcome, problems)
    pieces, geo = outcome.game.variant.spellings, outcome.game.variant.geometry
    done = Appended(text, outcome)
    for step in steps:
        token = _canonical(step.token, pieces, geo)
        if token is None:
            return done.refused(
                [
                    Problem(
                        "bad-placement",
                        f"{step.token.strip()!r} is not `<piece> <cell>`, `tea` or `pass`",
                        file=name,
                    )
                ]
            )
        game, turns = outcome.game, outcome.record.turns
        if game.turn_open():
            player_of_new_turn = None  # goes on with the turn in progress
        elif token == "pass" or game.is_over():
            player_of_new_turn = outcome.record.players[
                (outcome.record.players.index(turns[-1].player) + 1) % len(outcome.record.players)
                if turns
                else 0
            ]
        else:
            player_of_new_turn = game.to_move
        mover = player_of_new_turn or game.to_move
        assert done.text is not None  # refused texts returned above
        edited = _edit(done.text, token, player_of_new_turn)
        extended = None if edited is None else parse_record(edited, name, base_dir=base_dir)
        extends = extended is not None and len(extended.turns) == len(turns) + (
            player_of_new_turn is not None
        )
        if step.player not in (None, mover) and (token == "pass" or not game.is_over()):
            assert (
                step.player is not None and mover is not None
            )  # a pass names the next seat, else the game goes on
            line = extended.turns[-1].line if extended is not None and extends else None
            return done.refused([_not_to_move(outcome, token, step.player, mover, line)])
        if extended is not None:
            record = extended
            outcome = replay(record)
            if outcome.problems:
                return done.refused(outcome.problems, outcome)
        if not extends:
            return done.refused(
                [
                    Problem(
                        "bad-turn",
                        "the turns are written in a layout `medina add` cannot extend (it writes one turn a "
                        "line, `  - Anna: grey K8, black C3`); add this turn by hand",
                        file=name,
                    )
                ]
            )
        done.text, done.outcome = edited, outcome
        done.placed.append((len(record.turns), record.turns[-1].player, token))
        if done.entries[-1:] != [len(record.turns)]:
            done.entries.append(len(record.turns))
    return done


def _not_to_move(
    outcome: Replay, token: str, claimed: str, mover: str, line: int | None
) -> Problem:
    """`token` meant for `claimed` where it would be `mover`'s, at `line` (the line of the turn it would go
    to): whose turn it is, which placement of how many, and what the turn holds so far (`Ann named for
    roof C10, but it is Bob's turn (placement 2 of 2; Bob has placed grey M9)`)."""
    record, game, upcoming = outcome.record, outcome.game, outcome.next_placement()
    if token == "pass" or upcoming is None:
        turn, placement = len(record.turns) + 1, None
        message = f"{claimed} named for pass, but the next turn is {mover}'s"
    else:
        assert game is not None  # a next placement is one of a game
        (turn, placement), left = upcoming, outcome.placements_left()
        open_turn = game.turn_open()
        of = placement - 1 + left
        message = (
            f"{claimed} named for {token}, but it is {mover}'s turn (placement {placement} of {of}"
        )
        if open_turn:
            message += f"; {mover} has placed {', '.join(record.tokens(record.turns[-1]))}"
        message += ")"
        if game.forced:
            message += "; a roof is due this turn"
    return Problem(
        "out-of-turn",
        message,
        file=record.file,
        line=line,
        turn=turn,
        placement=placement,
        player=mover,
    )


def next_words(outcome: Replay) -> str:
    """Who places next, in words: `next: Ben, second placement of turn 4`, or that the game is over."""
    upcoming = outcome.next_placement()
    if upcoming is None:
        return "The game is over."
    turn, placement = upcoming
    assert outcome.game is not None  # a next placement is one of a game
    return f"next: {outcome.game.to_move}, {ordinal(placement)} placement of turn {turn}"


# --- taking back ---------------------------------------------------------------------------------


@dataclass
class Undone:
    """What `remove_actions` did: the new text (None when refused), its replay, the problems that
    refused it, and each placement taken back, the last first, as (turn, player, token)."""

    file: str
    text: str | None
    outcome: Replay | None
    problems: list[Problem] = field(default_factory=list)
    removed: list[tuple[int, str, str]] = field(default_factory=list)

    def lines(self) -> list[str]:
        """`took back turn 5, Ben: roof K8` for each placement taken back, then who is next."""
        assert self.outcome is not None  # lines tell what `remove_actions` did
        return [
            f"took back turn {turn}, {player}: {token}" for turn, player, token in self.removed
        ] + [next_words(self.outcome)]

    def to_json(self) -> dict:
        """The medina-undo/1 document (without `errors` and `warnings`)."""
        next_placement = (
            self.outcome.next_placement() if self.outcome and self.outcome.game else None
        )
        turn, placement = next_placement or (None, None)
        return {
            "format": "medina-undo/1",
            "file": self.file,
            "removed": [
                {"turn": turn_, "player": player, "placement": token}
                for turn_, player, token in (self.removed if self.text is not None else [])
            ],
            "to_move": self.outcome.game.to_move
            if self.text is not None and self.outcome and self.outcome.game
            else None,
            "turn": turn if self.text is not None else None,
            "placement": placement if self.text is not None else None,
        }


def remove_actions(text: str, name: str, count: int, *, base_dir) -> Undone:
    """`text` without its last `count` actions (placements, tea tiles, passes), the last first: a turn's last
    placement is cut from its line, a turn of one from the file (the last one leaves `turns: []`). Refused,
    text unchanged, when the record's header cannot be read, its turns are laid out otherwise than one
    per line, or what is left does not replay as valid; BadArgument when it holds fewer than `count`."""
    if is_boardspace(name, text):
        raise fail(
            "bad-format-tag",
            "a boardspace.net record: it is not changed in place (convert it with "
            "`medina import boardspace` first)",
            file=name,
            error=UnusableInput,
        )
    record = parse_record(text, name, base_dir=base_dir)
    refuse_board(record)
    broken = [problem for problem in record.problems.errors if problem.turn is None]
    if broken or not record.playable:
        return Undone(name, None, replay(record), broken or record.problems.errors)
    variant = Variant.of(record.rules)
    pieces, geo = variant.spellings, variant.geometry
    done = Undone(name, text, None)
    for _ in range(count):
        assert done.text is not None  # refusals returned
        cut = _drop_last(done.text)
        if cut is None:
            return Undone(
                name,
                None,
                replay(record),
                [
                    Problem(
                        "bad-turn",
                        "the turns are written in a layout `medina undo` cannot shorten (it takes back what "
                        "`medina add` writes, one turn a line); edit the file by hand",
                        file=name,
                    )
                ],
            )
        if cut == "empty":
            held = len(done.removed)
            raise fail(
                "usage",
                f"holds {held} placement{'s' * (held != 1)}; cannot take back {count}",
                file=name,
                error=BadArgument,
            )
        done.text, turn, player, token = cut
        done.removed.append((turn, player, _canonical(token, pieces, geo) or token))
    assert done.text is not None  # refusals returned
    done.outcome = replay(parse_record(done.text, name, base_dir=base_dir))
    if done.outcome.problems:
        return Undone(name, None, done.outcome, done.outcome.problems)
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
    turns = _turns_of(root)
    line = f"{yaml_flow(player)}: {token}" if player is not None else None
    if turns is None:
        if player is None:
            return None
        return (
            text
            + ("" if text.endswith("\n") or not text else newline)
            + f"turns:{newline}  - {line}{newline}"
        )
    key, value = turns
    empty = value.tag == "tag:yaml.org,2002:null" or (
        isinstance(value, yaml.SequenceNode) and not value.value
    )
    if empty:
        if player is None:
            return None
        return f"{text[: key.end_mark.index]}:{newline}  - {line}{text[value.end_mark.index :]}"
    if not isinstance(value, yaml.SequenceNode) or value.flow_style:
        return None
    last = value.value[-1].value[-1][
        1
    ]  # the placements of the last turn (the record was read as valid)
    if not isinstance(last, yaml.ScalarNode) or last.style not in (
        None,
        "",
        "'",
        '"',
    ):  # plain ("" in libyaml), quoted
        return None
    end = last.end_mark.index
    if player is None:
        at = end - bool(last.style)  # inside the closing quote
        return f"{text[:at]}, {token}{text[at:]}"
    line_end = text.find("\n", end)
    at = len(text) if line_end < 0 else line_end + 1
    lead = "" if line_end >= 0 else newline
    return f"{text[:at]}{lead}{' ' * value.start_mark.column}- {line}{newline}{text[at:]}"


def _turns_of(root) -> tuple | None:
    """The (key, value) nodes of the top-level `turns`, or None."""
    if not isinstance(root, yaml.MappingNode):
        return None
    return next(
        ((key, value) for key, value in root.value if key.tag == STR_TAG and key.value == "turns"),
        None,
    )


def _drop_last(text: str):
    """`text` without the last action of its last turn, with that turn's number, its player and the action
    as written: (text, turn, player, action); "empty" when there is no turn; None when the turns are
    written in a way this cannot shorten. The inverse of `_edit`: a placement is cut with its comma, a
    turn of one placement with its line, the only turn leaves `turns: []`."""
    try:
        root = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError:
        return None
    turns = _turns_of(root)
    if (
        turns is None
        or turns[1].tag == "tag:yaml.org,2002:null"
        or (isinstance(turns[1], yaml.SequenceNode) and not turns[1].value)
    ):
        return "empty"
    key, value = turns
    if not isinstance(value, yaml.SequenceNode) or value.flow_style:
        return None
    item = value.value[-1]
    if not isinstance(item, yaml.MappingNode) or item.flow_style or len(item.value) != 1:
        return None
    player, last = item.value[0]
    if (
        not isinstance(player, yaml.ScalarNode)
        or not isinstance(last, yaml.ScalarNode)
        or last.style not in (None, "", "'", '"')
    ):
        return None
    quoted = bool(last.style)
    start, end = last.start_mark.index + quoted, last.end_mark.index - quoted
    body, where = text[start:end], (len(value.value), player.value)
    comma = body.rfind(",")
    if comma >= 0:
        return f"{text[: start + comma]}{text[end:]}", *where, body[comma + 1 :].strip()
    line_start = text.rfind("\n", 0, text.rfind("-", 0, item.start_mark.index)) + 1
    line_end = text.find("\n", last.end_mark.index)
    after = len(text) if line_end < 0 else line_end + 1
    if len(value.value) > 1:
        return f"{text[:line_start]}{text[after:]}", *where, body.strip()
    key_line_end = text.find("\n", key.end_mark.index)  # `turns:` and perhaps a comment
    key_line_end -= text[key_line_end - 1] == "\r"
    comment = text[key.end_mark.index : key_line_end].partition("#")
    kept = f" #{comment[2]}" if comment[1] else ""
    return (
        f"{text[: key.end_mark.index]}: []{kept}{text[key_line_end:line_start]}{text[after:]}",
        *where,
        body.strip(),
    )
