"""Game records (`medina: record/1`): a lenient reader that collects every problem with its line,
and a strict canonical writer.
"""

from __future__ import annotations

import datetime
import re
from typing import TYPE_CHECKING

from ..engine.placement import PASS_PLACEMENT, TEA_PLACEMENT, Placement
from ..engine.variant import MOST_SUPPLIED, Variant
from ..errors import MedinaError, Problem, UnusableInput, brief, did_you_mean, in_words
from ..rules.loader import Ruleset
from ..yamlio import LOADER, base_dir_of, parse_or_collect, parse_yaml, read_text, yaml_type
from .boardspace import is_boardspace, parse_boardspace
from .header import HeaderReader
from .model import FORMAT_TAG, Record, TurnEntry
from .replay import replay

if TYPE_CHECKING:
    from ..engine.game import Game

_placement = (
    Placement._make
)  # a placement of a canonical piece on a square of the board: checked by the reader
TOP_KEYS = ("medina", "ruleset", "players", "setup", "turns", "event", "date", "notes", "result")
FORMAT_HINTS = {
    "board/1": " (a finished board: `medina score` and `medina render` take it)",
    "ruleset/1": " (a ruleset: use `medina rules show`)",
}


def refuse_board(record: Record) -> None:
    """A finished board read as a record is no record to use: raises UnusableInput with the reader's words
    (they name the commands that take boards)."""
    if record.other_format == "board/1":
        first, *more = record.problems.errors
        raise UnusableInput(first, more=more)


def read_record(path: str, *, ruleset: str | None = None, overrides=()) -> Record:
    """Read a record file (`-` for stdin). Raises MedinaError only when nothing can be read at all;
    every other problem is collected in `record.problems`."""
    name, text = read_text(path)
    return parse_record(
        text, name, ruleset=ruleset, overrides=overrides, base_dir=base_dir_of(path)
    )


def game_of_record(path: str) -> Game:
    """The `Game` of a record file replayed to its end; MedinaError with every problem where it cannot be
    read or replayed."""
    outcome = replay(read_record(path))
    if not outcome.valid:
        raise MedinaError(outcome.problems[0], more=outcome.problems[1:])
    assert outcome.game is not None  # a valid replay has its game
    return outcome.game


def parse_record(
    text: str,
    name: str,
    *,
    ruleset: str | Ruleset | None = None,
    overrides=(),
    base_dir=None,
    ignore_well: bool = False,
) -> Record:
    """A record/1 text, or a boardspace.net record (`.sgf` or story), which is converted.
    `ignore_well`: set the setup's well aside when the ruleset has none (to compare editions)."""
    if is_boardspace(name, text):
        record = parse_boardspace(text, name, ruleset=ruleset, overrides=overrides)
        record.text = text
        return record
    record = Record(file=name, text=text)
    parsed = _parse_turn_lines(text, name) or parse_or_collect(text, name, record.problems)
    if parsed is None:
        return record
    data, lines = parsed
    _Reader(record, data, lines, ruleset, overrides, base_dir, ignore_well).read()
    return record


# A turn on one line, in plain scalars that YAML reads as the text they show: `  - Anna: orange B5, tea`
# (the writer's layout). The player is a word (shorter than YAML's 1024-character limit for a key);
# the placements hold letters, digits, spaces and commas.
TURN_LINE = r"  - ([^\W\d_]\w{0,99}): ([A-Za-z](?:[A-Za-z0-9 ,]*[A-Za-z0-9,])?)"
TURN_LINE_RE = re.compile(TURN_LINE)
TURN_LINES_RE = re.compile(f"(?:{TURN_LINE}(?:\n|\\Z))+")
NEXT_UNINDENTED_RE = re.compile(r"\n[^ ]")
OTHER_LINE_BREAKS = ("\r", "\x85", "\u2028", "\u2029")  # YAML counts these as line breaks too


def _parse_turn_lines(text: str, name: str):
    """`parse_yaml` for the usual layout, faster: when the top-level `turns:` block is made of
    TURN_LINE lines only, they are read by the expression and only the rest by YAML. Returns None
    (the caller then parses everything with YAML) whenever the layout is anything else or the rest
    does not parse; in every other case the data and lines are exactly what YAML gives."""
    head = text.find("\nturns:\n")
    if head < 0 or any(brk in text for brk in OTHER_LINE_BREAKS):
        return None
    turns_line = text.count("\n", 0, head + 1) + 1
    start = head + len("\nturns:\n")
    after = NEXT_UNINDENTED_RE.search(text, start - 1)
    end = after.start() + 1 if after else len(text)
    if end < len(text) and not text[end].isalpha():
        return None  # the block is not followed by the next top-level key
    if not TURN_LINES_RE.fullmatch(text, start, end):
        return None
    pairs = TURN_LINE_RE.findall(text, start, end)
    if not all(map(_reads_as_text, {player for player, _ in pairs})) or not all(
        _reads_as_text(tokens) for _, tokens in pairs if " " not in tokens
    ):
        return None
    try:  # the same text with the turn lines blanked: the line of everything else is unchanged
        data, lines = parse_yaml(text[:start] + "\n" * len(pairs) + text[end:], name)
    except MedinaError:
        return None
    if lines.get(("turns",)) != turns_line or data["turns"] is not None:
        return None  # that `turns:` line was not a top-level key of its own (inside a quoted text, say)
    data["turns"] = [{player: tokens} for player, tokens in pairs]
    lines.written.pop(("turns",), None)  # the blanked block read as null
    for i, (player, _) in enumerate(pairs):
        lines[("turns", i)] = lines[("turns", i, player)] = turns_line + 1 + i
    return data, lines


def _reads_as_text(plain: str) -> bool:
    """Does YAML read this plain scalar as text (rather than a boolean, null, number or date)?"""
    return not any(
        regexp.match(plain) for _, regexp in LOADER.yaml_implicit_resolvers.get(plain[:1], ())
    )


class _Reader(HeaderReader):
    """Everything of a record/1 file but the ruleset and the players."""

    def read(self) -> None:
        data = self.data
        if not isinstance(data, dict):
            self.error(
                "bad-format-tag",
                "the file is empty"
                if data is None
                else "not a Medina record: expected a mapping starting with `medina: record/1`",
            )
            return
        tag = data.get("medina")
        if tag != FORMAT_TAG:
            hint = FORMAT_HINTS.get(tag, "") if isinstance(tag, str) else ""
            self.r.other_format = tag if isinstance(tag, str) and tag in FORMAT_HINTS else None
            self.error(
                "bad-format-tag",
                f"`medina:` must be {FORMAT_TAG!r}, found {self.lines.shown(tag, 'medina')}{hint}",
                ("medina",),
            )
            return
        for key in data:
            if not isinstance(key, str):
                self.error(
                    "yaml-not-text",
                    f"top-level key {self.lines.shown_key(key)} is read by YAML as "
                    f"{yaml_type(key)}, not text",
                    (key,),
                )
            elif key.startswith("x-"):
                self.r.meta[key] = data[key]
            elif key not in TOP_KEYS:
                self.error(
                    "unknown-key",
                    f"unknown key {key!r}{did_you_mean(key, TOP_KEYS)} "
                    f"(valid: {', '.join(TOP_KEYS)}; prefix your own keys with x-)",
                    (key,),
                )
        self._meta()
        if not self._ruleset() or not self._players():
            return
        self._setup()
        self._turns()
        self._result()

    def _meta(self):
        for key in ("event", "date"):
            if key in self.data:
                value = self.data[key]
                if key == "date" and isinstance(
                    value, datetime.date
                ):  # an unquoted date: the text as written
                    value = self.lines.written[(key,)]
                if not isinstance(value, str):
                    self.error(
                        "yaml-not-text",
                        f"`{key}`: {self.lines.shown(value, key)} is read by YAML as "
                        f"{yaml_type(value)}; quote it to make it text",
                        (key,),
                    )
                else:
                    self.r.meta[key] = value
        if "notes" in self.data:
            notes = self.data["notes"]
            if isinstance(notes, str) or (
                isinstance(notes, list) and all(isinstance(n, str) for n in notes)
            ):
                self.r.meta["notes"] = notes
            else:
                self.error("bad-notes", "`notes` must be text or a list of text", ("notes",))

    def _setup(self):
        setup = self.data.get("setup")
        rules = self.r.rules
        if not isinstance(setup, dict):
            self.error(
                "bad-setup" if setup is not None else "missing-key",
                "`setup` must be a mapping with the start merchant"
                + (" and the well" if rules.well.enabled else ""),
                ("setup",),
            )
            return
        wanted = ("merchant", "well") if rules.well.enabled else ("merchant",)
        for key in setup:
            if (isinstance(key, str) and key.startswith("x-")) or key == "supply":
                continue
            if (
                key == "well"
                and (self.ignore_well or self.r.other_rules)
                and not rules.well.enabled
            ):
                # as compare says
                self.r.well_set_aside = Problem(
                    "well-set-aside",
                    f"played without the record's well "
                    f"{brief(setup[key])} ({self.r.ruleset.id} has none; its cell is free)",
                    file=self.r.file,
                    line=self.lines.of("setup", "well"),
                )
                continue
            if key not in wanted:
                extra = " (this ruleset has no well)" if key == "well" else ""
                hint = (
                    did_you_mean(key, wanted + ("supply",))
                    if isinstance(key, str) and not extra
                    else ""
                )
                self.error(
                    "unknown-key",
                    f"unknown setup key {self.lines.shown_key('setup', key)}{extra}; "
                    f"valid: {', '.join(wanted + ('supply',))}{hint}",
                    ("setup", key),
                )
        geo = Variant.of(rules).geometry
        cells = {}
        for key in wanted:
            if key not in setup:
                self.error(
                    "bad-setup",
                    f"setup has no {key}: this ruleset needs `{key}: CELL` under setup "
                    "(an interior cell off the edge row)",
                    ("setup",),
                )
                continue
            value = setup[key]
            cell = geo.parse(value) if isinstance(value, str) else None
            if cell is None:
                self.error(
                    "bad-cell",
                    f"setup {key}: {self.lines.shown(value, 'setup', key)} is not a cell of "
                    f"this board ({geo.describe_extent()})",
                    ("setup", key),
                )
            else:
                cells[key] = cell
        for key, words in geo.setup_refusals(cells):
            self.error("bad-setup", words, ("setup", key))
            if cells.pop(key) == cells.get(
                "merchant"
            ):  # the well on the merchant's cell: no setup to go on with
                return
        self.r.merchant, self.r.well = (
            None if key not in cells else geo.square_of[cells[key]] for key in ("merchant", "well")
        )
        if "supply" in setup:
            self._supply(setup["supply"])

    def _supply(self, supply) -> None:
        """`setup.supply`: what a player starts with where it differs from the ruleset, e.g.
        `{Ben: {merchant: 7}}` (a site's seating, a handicap)."""
        path = ("setup", "supply")
        if not isinstance(supply, dict):
            self.error(
                "bad-setup",
                "setup supply must map players to {piece: count}, e.g. `{Ben: {merchant: 7}}`",
                path,
            )
            return
        pieces = self._supplied(
            Variant.of(self.r.rules).spellings
        )  # as in turns: no neutral where none is supplied
        for name, counts in supply.items():
            where = path + (name,)
            if name not in self.r.players:
                self.error(
                    "bad-setup",
                    f"setup supply names {self.lines.shown_key(*where)}, who is not a player "
                    f"({', '.join(self.r.players)})",
                    where,
                )
                continue
            if not isinstance(counts, dict):
                self.error(
                    "bad-setup",
                    f"setup supply for {name}: expected {{piece: count}}, e.g. `{{merchant: 7}}`",
                    where,
                )
                continue
            clean = {}
            for piece, count in counts.items():
                canonical = pieces.get(piece.lower()) if isinstance(piece, str) else None
                if canonical is None:
                    self.error(
                        "bad-setup",
                        f"setup supply for {name}: {self.lines.shown_key(*where, piece)} is not a "
                        f"piece of {self.r.ruleset.id} ({', '.join(sorted(set(pieces.values())))})",
                        where + (piece,),
                    )
                elif (
                    isinstance(count, bool)
                    or not isinstance(count, int)
                    or not 0 <= count <= MOST_SUPPLIED
                ):
                    self.error(
                        "bad-setup",
                        f"setup supply for {name}: {piece} "
                        f"{self.lines.shown(count, *where, piece)} is not a whole number "
                        f"from 0 to {MOST_SUPPLIED}",
                        where + (piece,),
                    )
                else:
                    clean[canonical] = count
            self.r.supply[name] = clean

    def _turns(self):
        turns = self.data.get("turns")
        if turns is None:
            turns = []
        if not isinstance(turns, list):
            self._turns_not_a_list(turns)
            return
        variant = Variant.of(self.r.rules)
        pieces, geo = variant.spellings, variant.geometry
        self.unknown_pieces = {}  # a word that is no piece -> [its error, the later turns that use it]
        for i, item in enumerate(turns):
            self.r.turns.append(self._turn(i, item, pieces, geo))
        for error, *later in self.unknown_pieces.values():
            turns = sorted(set(later) - {error.turn})
            if turns:
                error.message += (
                    f"; also in turn{'s' if len(turns) > 1 else ''} {in_words(turns, 'and')}"
                )

    def _turns_not_a_list(self, turns):
        message = "`turns` must be a list of `- player: placements`"
        path = ("turns",)
        if isinstance(turns, dict) and turns:
            key = next(iter(turns))
            path = ("turns", key)
            if isinstance(key, str) and key.startswith("-"):
                message += (
                    f": a dash and a space begin each turn, `- {key[1:].lstrip()}:`, not `{key}:`"
                )
            else:
                message += f": begin each turn with a dash and a space, `- {key}:`"
        self.error("yaml-wrong-type", message, path)

    def _turn(self, i, item, pieces, geo) -> TurnEntry:
        number, path = i + 1, ("turns", i)
        line = self.lines.of(*path)
        if not isinstance(item, dict) or len(item) != 1:
            message = "a turn must be a one-key mapping `player: placements`"
            if isinstance(
                item, str
            ):  # `Anna grey K8` or `Anna:grey K8`, which YAML reads as one text
                name, _, rest = item.partition(":" if item.split(":")[0] in self.r.players else " ")
                if name in self.r.players:
                    message += (
                        f"; put a colon and a space after the player: `{name}: {rest.strip()}`"
                    )
            self.error("bad-turn", message, path, turn=number)
            return TurnEntry(number, "?", line, [], readable=False)
        ((player, text),) = item.items()
        if not isinstance(player, str):
            shown = self.lines.shown_key(*path, player)
            self.error(
                "yaml-not-text",
                f"player {shown} is read by YAML as {yaml_type(player)}; quote the name",
                path,
                turn=number,
            )
            return TurnEntry(number, shown, line, [], readable=False)
        entry = TurnEntry(number, player, line, [])
        if player not in self.r.players:
            self.error(
                "unknown-player",
                f"{player!r} is not in players ({', '.join(self.r.players)})"
                f"{did_you_mean(player, self.r.players)}",
                path,
                turn=number,
                player=player,
            )
            entry.readable = False
        if isinstance(text, list) and text and all(isinstance(t, str) for t in text):
            self.error(
                "bad-turn",
                f"the placements are written as a list in brackets; write them without: "
                f"`{player}: {', '.join(text)}`",
                path,
                turn=number,
                player=player,
            )
            entry.readable = False
            return entry
        if not isinstance(text, str) or not text.strip():
            written = self.lines.written.get(path + (player,))
            found = (
                "nothing"
                if isinstance(text, str) or written == ""
                else yaml_type(text)
                if written is None
                else f"`{written}`, read by YAML as {yaml_type(text)}"
            )
            self.error(
                "bad-turn",
                f"the turn lists no placements (found {found}); write them after the colon, "
                "e.g. `Anna: grey K8, wall A12`, or `pass`",
                path,
                turn=number,
                player=player,
            )
            entry.readable = False
            return entry
        tokens = text.split(",")
        has_pass = False
        cell_of_name, square_of = geo.cell_of_name, geo.square_of
        for k, token in enumerate(tokens, 1):
            words = token.split()
            if len(words) == 2:  # the common case: `<piece> <cell>`, the cell spelt like K7 or k7
                piece, cell = pieces.get(words[0].lower()), cell_of_name.get(words[1])
                if piece is not None and cell is not None:
                    entry.actions.append(_placement((piece, square_of[cell])))
                    continue
            action = self._other_action(
                token, words, pieces, geo, path, number, k, player, last=k == len(tokens)
            )
            if action is None:
                if (
                    entry.readable
                ):  # the first placement that cannot be read: the replay stops before it
                    entry.read_before_problem = len(entry.actions)
                entry.readable = False
            else:
                entry.actions.append(action)
                has_pass = has_pass or action == PASS_PLACEMENT
        if has_pass and len(tokens) > 1:
            self.error(
                "bad-turn",
                "`pass` is the whole turn; it cannot be combined with placements",
                path,
                turn=number,
                player=player,
            )
            entry.readable, entry.read_before_problem = False, None
        return entry

    def _other_action(
        self, token, words, pieces, geo, path, turn, k, player, last
    ) -> Placement | None:
        """Any other token: a cell spelt otherwise (K07), `tea` or `pass`; else report why (first failing part)."""
        if len(words) == 1 and words[0].lower() in ("tea", "pass"):
            return TEA_PLACEMENT if words[0].lower() == "tea" else PASS_PLACEMENT
        where = {"turn": turn, "placement": k, "player": player}
        if len(words) != 2:
            self.error(
                "bad-placement",
                _slip(words, k, last, pieces, geo)
                or f"{token.strip()!r} is not `<piece> <cell>`, `tea` or `pass`",
                path,
                **where,
            )
            return None
        piece_word, cell_word = words
        cell = geo.parse(cell_word)
        if piece_word.lower() in pieces and cell is not None:
            return _placement((pieces[piece_word.lower()], geo.square_of[cell]))
        if (
            cell is None
            and piece_word.lower() not in pieces
            and cell_word.lower() in pieces
            and geo.parse(piece_word) is not None
        ):
            self.error(
                "bad-placement",
                f"{token.strip()!r}: the piece comes first, then the cell: "
                f"`{cell_word} {piece_word}`",
                path,
                **where,
            )
            return None
        if piece_word.lower() not in pieces:
            if piece_word.lower() in self.unknown_pieces:  # said once, at its first use
                self.unknown_pieces[piece_word.lower()].append(turn)
                return None
            from difflib import get_close_matches

            supplied = self._supplied(pieces)
            valid = Variant.of(self.r.rules).piece_list
            guess = get_close_matches(piece_word.lower(), supplied, n=1)
            hint = f"; did you mean {supplied[guess[0]]!r}?" if guess else ""
            self.error(
                "unknown-piece",
                f"{piece_word!r} is not a piece of {self.r.ruleset.id}{hint} (pieces: {valid})",
                path,
                **where,
            )
            self.unknown_pieces[piece_word.lower()] = [self.r.problems.errors[-1]]
        else:
            self.error(
                "bad-cell",
                f"{cell_word!r} is not a cell of this board ({geo.describe_extent()})",
                path,
                **where,
            )
        return None

    def _supplied(self, pieces: dict) -> dict:
        """The spellings in `pieces` of the pieces players of this count are given (`Variant.supplied`)."""
        supplied = Variant.of(self.r.rules).supplied
        return {word: piece for word, piece in pieces.items() if piece in supplied}

    def _result(self):
        if "result" not in self.data:
            return
        result = self.data["result"]
        path = ("result",)
        if not isinstance(result, dict):
            self.error("bad-result", "`result` must map every player to a whole number", path)
            return
        clean = {}
        for name, value in result.items():
            if name not in self.r.players:
                hint = did_you_mean(name, self.r.players) if isinstance(name, str) else ""
                self.error(
                    "bad-result",
                    f"result names {self.lines.shown_key(*path, name)}, who is not a player{hint}",
                    path + (name,),
                )
            elif isinstance(value, bool) or not isinstance(value, int):
                self.error(
                    "bad-result",
                    f"result for {name}: {self.lines.shown(value, *path, name)} is not a whole "
                    "number",
                    path + (name,),
                )
            else:
                clean[name] = value
                self.r.result_lines[name] = self.lines.of(*path, name)
        missing = [p for p in self.r.players if p not in result]
        if missing:
            self.error("bad-result", f"result does not name {', '.join(missing)}", path)
        self.r.result = clean


def _slip(words, k, last, pieces, geo) -> str | None:
    """What went wrong, in plain words, with a placement that is not two words: an empty one (a comma
    too many) or several placements without the commas between them."""
    if not words:
        return (
            "a comma after the last placement: remove it"
            if last and k > 1
            else "an empty placement (two commas in a row, or one at the start): remove the extra comma"
        )
    placements, rest = [], list(words)
    while rest:
        if rest[0].lower() in ("tea", "pass"):
            placements.append(rest.pop(0))
        elif len(rest) >= 2 and rest[0].lower() in pieces and geo.parse(rest[1]) is not None:
            placements.append(f"{rest.pop(0)} {rest.pop(0)}")
        else:
            return None
    return f"{' '.join(words)!r}: a comma is missing between placements: `{', '.join(placements)}`"
