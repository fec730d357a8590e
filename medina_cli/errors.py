"""Typed problems that carry their position: file, line, turn, placement and player.

Every message a user can see is a `Problem` with a stable kebab-case `code` from `CODES`;
`docs/error-codes.md` is generated from that table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# code -> what it means. Grouped: input, record, ruleset, board, placement, turn.
CODES: dict[str, str] = {
    # unusable input, or a command line asking for what cannot be done
    "file-not-found": "The file does not exist or cannot be opened.",
    "not-text": "The file is not UTF-8 text (binary data or a NUL byte).",
    "too-large": "The file is larger than the reader accepts.",
    "usage": "The command line asks for what the command cannot do (a directory where one file is wanted, "
    "an option that does not apply to this input).",
    "file-exists": "The output file exists: give --force to overwrite it (the input itself is never overwritten).",
    "cannot-write": "The output file cannot be written (no such folder, no permission, disk full).",
    "record-busy": "Another command kept changing the record for longer than a change waits (10 s); try again.",
    "record-changed": "The record changed on disk (another command wrote it) between reading it and writing it back; "
    "nothing was written.",
    # malformed YAML
    "yaml-syntax": "The file is not well-formed YAML.",
    "yaml-alias": "YAML aliases (`*name`) are not accepted (they allow alias bombs); an anchor alone is harmless.",
    "yaml-duplicate-key": "A mapping has the same key twice.",
    "yaml-multiple-documents": "The file holds more than one YAML document.",
    "yaml-not-text": "A value YAML reads as a number, boolean, date or null stands where text is expected.",
    "yaml-wrong-type": "A value has the wrong type (e.g. a list where a mapping is expected).",
    # record structure
    "bad-format-tag": "The `medina:` key is missing or names another format.",
    "unknown-key": "A key the format does not define (use an `x-` prefix for your own).",
    "missing-key": "A required key is missing.",
    "bad-players": "The players list is malformed: wrong count, duplicates, or a reserved name.",
    "unsupported-player-count": "The ruleset does not support this number of players.",
    "unknown-ruleset": "The ruleset is not a built-in id (a path that names no file is `file-not-found`).",
    "bad-setup": "The setup is missing a piece, or puts it on a forbidden cell.",
    "bad-turn": "A turn entry is not a one-key mapping `player: placements`.",
    "unknown-player": "A turn names a player who is not in `players`.",
    "bad-placement": "A placement is not of the form `<piece> <cell>`, `tea` or `pass`.",
    "unknown-piece": "The piece name is not one of this ruleset's pieces.",
    "bad-cell": "The cell is not a cell name, or lies off the board.",
    "bad-result": "The `result` mapping does not name every player with a whole number.",
    "result-mismatch": "A claimed final score differs from the replayed score.",
    "bad-notes": "`notes` is neither text nor a list of text.",
    # ruleset files
    "ruleset-invalid": "A ruleset file has an unknown key, a wrong type or a bad value.",
    "ruleset-extends-cycle": "Rulesets extend each other in a cycle.",
    "bad-set": "A `--set PARAM=VALUE` names no parameter (or `id`, `extends` and the like), gives a bad value, "
    "or leaves the ruleset inconsistent.",
    # finished boards (board/1)
    "board-grid": "The grid has the wrong number of rows or cells, or an unknown letter.",
    "board-roof": "A roof is not on a building, is on a stable, or a palace has two roofs.",
    "board-ownership": "A player owns two palaces of one colour, or a roof names an unknown player.",
    "board-spacing": "Two palaces touch (orthogonally or diagonally).",
    "board-merchants": "Merchants form a group the placement rules cannot make: a branch or a loop, as "
    "`merchants.new_chain_max_neighbours` decides.",
    "board-stable": "A stable touches no building, so it belongs to no palace.",
    "board-gate": "A wall run closes a gate or does not start from a tower.",
    "board-supply": "More pieces of a kind than the players' supplies hold.",
    "board-tiles": "A `tiles` entry names an unknown tile or holder, or an impossible holder.",
    # placements
    "not-in-supply": "The player holds no such piece (none left, or never had one).",
    "colour-retired": "The building colour has been retired from the game.",
    "cell-occupied": "The cell already holds a piece.",
    "wrong-square": "The piece cannot stand on that kind of square (interior, ring or tower).",
    "building-not-adjacent": "An unfinished palace of the colour can still grow: the building must extend it.",
    "spacing": "Too close (orthogonally or diagonally) to another palace.",
    "well-zone": "Buildings and stables may not stand on the well or next to it.",
    "roof-not-on-building": "A roof must go on a building.",
    "roof-on-roofed-palace": "That palace already has a roof.",
    "roof-colour-owned": "The player already owns a palace of that colour.",
    "roof-on-blocked-palace": "That palace can take no more buildings, and the ruleset does not let a blocked "
    "palace be roofed.",
    "stable-not-adjacent": "A stable must touch a building orthogonally.",
    "merchant-not-at-chain-end": "A merchant must extend an end of the live merchant chain.",
    "merchant-two-neighbours": "A merchant may not touch two or more merchants (the first of a new chain: more "
    "than `merchants.new_chain_max_neighbours`, where that is 2 or more).",
    "merchant-new-chain": "A new merchant chain may start only when the live chain cannot grow, "
    "and not next to other merchants.",
    "wall-not-connected": "A wall must continue a run from a tower.",
    "wall-gate": "The wall would join two runs: every side keeps a gate.",
    "not-legal": "The placement is not among the legal placements (no simpler reason found).",
    # turns
    "out-of-turn": "The player is not the one to move; a player who could place was left out.",
    "too-many-placements": "The turn has more placements than it may.",
    "too-few-placements": "The turn stops although the player had to place another piece.",
    "pass-while-able": "A player passes although a legal placement exists.",
    "forced-roof": "The player had to place one of his roofs this turn.",
    "tea-not-allowed": "A tea tile cannot be used here (none held, already used, opening turn, "
    "no placement left to replace, a forced roof, or first in a turn where only the second may be replaced).",
    "game-over": "A placement or tea tile after the game has ended (a `pass` there is accepted).",
    # boardspace.net records (.sgf files and stories)
    "boardspace-syntax": "A boardspace.net SGF file is malformed (an unclosed `[`, a value without a property).",
    "boardspace-header": "A boardspace.net record names no Medina variant, or its setup (`SU`, the story's game "
    "type) cannot be read, or lacks the random key the second edition's setup needs.",
    "boardspace-action": "An action of a boardspace.net record cannot be read or does not fit the turn "
    "(unknown verb, a drop without a pick, a piece from another seat's rack, no start merchant).",
}

WARNING_CODES: dict[str, str] = {
    "unfinished": "The record stops before the game ends.",
    "turn-in-progress": "The record's last turn has fewer placements than the turn allows: it is being "
    "transcribed as it is played. Valid; the claimed `result` is not checked.",
    "result-unchecked": "A `result` is given but not checked: the record is unfinished, or it is played under "
    "another ruleset or with `--set` than it names (the result was claimed under its own).",
    "well-set-aside": "The record's setup names a well, and it is played under a ruleset without one (--ruleset, "
    "--set, compare): the well is left out and its cell is free.",
    "boardspace-turn-dropped": "A boardspace.net record stops inside a turn that still needed a placement; "
    "that unfinished turn is left out.",
    "boardspace-mid-turn": "A boardspace.net record ends in the middle of a turn (no final `Done`): the "
    "placements of that unconfirmed turn are kept.",
}


@dataclass
class Problem:
    """One error or warning, with as much position as is known."""

    code: str
    message: str
    file: str | None = None
    line: int | None = None
    turn: int | None = None
    placement: int | None = None
    player: str | None = None

    def where(self) -> str:
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
        return ":".join(parts)

    def human(self) -> str:
        return f"{self.where()}: {self.in_context()}"

    def in_context(self) -> str:
        """The problem without its file and line: `turn 3 placement 2, Cleo: what is wrong [code]`."""
        context = []
        if self.turn is not None:
            context.append(f"turn {self.turn}")
            if self.placement is not None:
                context[-1] += f" placement {self.placement}"
        if self.player is not None:
            context.append(
                as_named(self.player)
            )  # a name from the input: one line, whatever it holds
        return (", ".join(context) + ": " if context else "") + f"{self.message} [{self.code}]"

    def to_json(self) -> dict:
        return {
            "turn": self.turn,
            "placement": self.placement,
            "player": self.player,
            "line": self.line,
            "code": self.code,
            "message": self.message,
        }


def brief(value, limit: int = 60) -> str:
    """`repr(value)` for a message, cut to about `limit` characters ("…" marks the cut)."""
    try:
        text = repr(value)
    except ValueError:  # an integer past Python's digit limit for text
        return "<a number too long to show>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def as_named(name: str) -> str:
    """A file or ruleset name from the input, for a one-line message: as it is, or quoted with escapes
    when it holds a line break or another character that does not print."""
    return name if name.isprintable() else repr(name)


def in_words(items, word: str = "or") -> str:
    """A list in words: "3 or 4", "2, 3 or 4", "Anna and Ben"."""
    words = [str(item) for item in items]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {word} {words[-1]}"


ORDINALS = ("first", "second", "third", "fourth", "fifth")


def ordinal(number: int) -> str:
    """1 -> "first", 2 -> "second"; "6th" past the words."""
    return ORDINALS[number - 1] if 1 <= number <= len(ORDINALS) else f"{number}th"


def did_you_mean(word: str, choices) -> str:
    """ "; did you mean X?" for the choice closest to `word` (a difference of case first), or ""."""
    from difflib import get_close_matches

    choices = list(choices)
    close = [c for c in choices if c.lower() == word.lower()] or get_close_matches(
        word, choices, n=1
    )
    return f"; did you mean {close[0]}?" if close else ""


class MedinaError(Exception):
    """An error that stops the current operation: the input is invalid (it breaks the format or the
    rules). Carries its `Problem` (and in `problems` any further ones found in the same input, e.g.
    every error of a ruleset file). Two kinds say that something else is at fault: `UnusableInput`
    and `BadArgument`."""

    def __init__(self, problem: Problem, *, more=()):
        super().__init__(problem.human())
        self.problem = problem
        self.problems = [problem, *more]

    @classmethod
    def of(cls, error: MedinaError) -> MedinaError:
        """`error`'s problems as this kind of error: whoever catches an error may know better what is at
        fault (a ruleset that cannot be read makes the record naming it unusable)."""
        return cls(error.problem, more=error.problems[1:])

    def human(self) -> str:
        """Every problem, one line each."""
        return "\n".join(problem.human() for problem in self.problems)


class UnusableInput(MedinaError):
    """The input cannot be used at all: the file cannot be read (missing, not UTF-8 text, too large),
    it is not of a kind the operation takes, or a ruleset it depends on is broken."""


class BadArgument(MedinaError):
    """The call asks for what cannot be done, whatever the input: a ruleset or overrides given beside
    the input (`read_record(path, ruleset=..., overrides=...)`) that name no ruleset or parameter."""


def fail(
    code: str, message: str, *, error: type[MedinaError] = MedinaError, **where
) -> MedinaError:
    """Build a `MedinaError` (or the kind `error`) for `code` (which must be documented in CODES)."""
    assert code in CODES, code
    return error(Problem(code, message, **where))


@dataclass
class Collected:
    """Problems gathered while reading one input (python-chess style: keep going, report all)."""

    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    def error(self, code: str, message: str, **where) -> None:
        assert code in CODES, code
        self.errors.append(Problem(code, message, **where))

    def warn(self, code: str, message: str, **where) -> None:
        assert code in WARNING_CODES, code
        self.warnings.append(Problem(code, message, **where))
