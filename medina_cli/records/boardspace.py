"""boardspace.net's Medina records, the SGF-like saved game and the one-line "story", read into a
record/1 `Record` under the boardspace profile that the record's variant and engine revision imply.

The action stream (picks, drops, undos, robot moves, `Done`) becomes turns of placements. The
original rules' start merchant, which the starting player places first thing, becomes
`setup.merchant`. The second edition's well and start merchant come from the record's random key,
drawn the way the site draws them (its engine's seeded `java.util.Random`: records/java_random.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.board import geometry_for
from ..engine.placement import PASS_PLACEMENT, TEA_PLACEMENT, Placement
from ..errors import BadArgument, MedinaError, Problem, UnusableInput, fail
from ..rules.loader import Ruleset, builtin_ids, load_ruleset
from .java_random import JavaRandom
from .model import Record, TurnEntry
from .replay import replay

SGF_START = re.compile(r"\s*\(\s*;")
STORY_START = re.compile(r"[^:\n]*?\bstory\s+[^,:\n]*,", re.IGNORECASE)
SGF_TOKEN = re.compile(
    r"\[((?:\\.|[^\\\]])*)\]|([A-Za-z][A-Za-z0-9]*)|(;)|([()])|(\s+)|(.)", re.DOTALL
)
STORY_WORD = re.compile(r"\bstory\b", re.IGNORECASE)
NUMBER = re.compile(
    r"-?\d{1,20}"
)  # a longer one is no number of a record (int() refuses past 4,300 digits)
INDEX = re.compile(r"\d{1,9}")  # a seat or rack index

PROFILES = {"medina": "boardspace-original", "medina-v2": "boardspace-second-edition"}
# (first revision, profile suffix), newest first: the engine revisions at which a rule switch changed
REVISION_PROFILES = ((103, ""), (102, "-r102"), (101, "-r101"), (0, "-r100"))
UNNUMBERED_REVISION = 100  # `SU[Medina 4]` or a story with the player count only
RACK_PIECES = {"d": "roof", "n": "neutral", "m": "merchant", "w": "wall", "s": "stable", "t": "tea"}
BUILDING_RACK = "p"
TEA_DISCARD_RACK = "v"
PLAYER_INFO = ("id", "ranking", "country", "time")  # P<i>[...] values that are not actions


def seat_letter(seat: int) -> str:
    return chr(65 + seat)


def is_boardspace(name: str, text: str) -> bool:
    """Is this a boardspace.net record (an `.sgf` file or a story line) rather than YAML?"""
    return _is_sgf(name, text) or bool(STORY_START.match(text.lstrip()))


def _is_sgf(name: str, text: str) -> bool:
    return name.lower().endswith(".sgf") or bool(SGF_START.match(text))


def profile_id(variant: str, revision: int) -> str:
    """The built-in boardspace profile for a variant (`medina`, `medina-v2`) at an engine revision;
    a revision older than every profile of the variant plays under its oldest one."""
    base, known = PROFILES[variant], set(builtin_ids())
    profiles = [
        (first, base + suffix) for first, suffix in REVISION_PROFILES if base + suffix in known
    ]
    return next((ruleset for first, ruleset in profiles if revision >= first), profiles[-1][1])


def boardspace_setup(geo, key: int) -> tuple[int, int]:
    """(start merchant, well) as boardspace.net draws them from a game's random key: the well first,
    column then row, each uniform over the cells off the edge row; then the merchant the same way,
    redrawn while it would stand on the well."""
    rng = JavaRandom(key)

    def draw() -> int:
        x = 2 + rng.next_int(geo.width - 4)
        y = 2 + rng.next_int(geo.height - 4)
        return y * geo.width + x

    well = draw()
    merchant = draw()
    while merchant == well:
        merchant = draw()
    return merchant, well


# --- the two record forms --------------------------------------------------------------------------


@dataclass
class SiteAction:
    number: int  # the record's sequence number, or the position in the stream
    words: list[str]  # verb and arguments, without the sequence number
    line: int

    @property
    def verb(self) -> str:
        return self.words[0].lower()

    def __str__(self) -> str:
        return " ".join(self.words)


@dataclass
class SiteGame:
    """What a boardspace record says, before it is turned into record/1."""

    variant: str
    revision: int
    players: int
    key: int | None
    line: int  # where the game type stands
    first_seat: int | None = None
    names: dict[int, str] = field(
        default_factory=dict
    )  # seat -> the name the file gives (P<seat>[id ...])
    actions: list[SiteAction] = field(default_factory=list)
    facts: dict = field(
        default_factory=dict
    )  # date, game name, result message, as the file gives them


def read_site_game(text: str, name: str) -> SiteGame:
    """Read either form; raises MedinaError (boardspace-syntax, boardspace-header)."""
    return _read_sgf(text, name) if _is_sgf(name, text) else _read_story(text, name)


def _game_type(words: list[str], name: str, line: int) -> SiteGame:
    """`<variant> <players> [<first seat>]` (old) or `<variant> <revision> <players> <key> [<first seat>]`."""
    shown = " ".join(words)
    if not words or words[0].lower() not in PROFILES:
        raise fail(
            "boardspace-header",
            f"game type {shown!r} names no Medina variant ({' or '.join(PROFILES)})",
            file=name,
            line=line,
        )
    digits = words[1:]
    if not digits or not all(NUMBER.fullmatch(w) for w in digits) or len(digits) > 4:
        raise fail(
            "boardspace-header",
            f"game type {shown!r}: expected `<variant> <players>` or "
            "`<variant> <revision> <players> <random key>`",
            file=name,
            line=line,
        )
    numbers = [int(w) for w in digits]
    variant = words[0].lower()
    if len(numbers) <= 2:
        return SiteGame(
            variant,
            UNNUMBERED_REVISION,
            numbers[0],
            None,
            line,
            first_seat=numbers[1] if len(numbers) == 2 else None,
        )
    return SiteGame(
        variant,
        numbers[0],
        numbers[1],
        numbers[2],
        line,
        first_seat=numbers[3] if len(numbers) == 4 else None,
    )


def _shaped_as_game_type(words: list[str]) -> bool:
    """`<word> <number>...` (up to 4 numbers): a game type, even of another game than Medina."""
    return 2 <= len(words) <= 5 and all(NUMBER.fullmatch(w) for w in words[1:])


def _action(text: str, position: int, line: int) -> SiteAction | None:
    words = text.split()
    number = position
    if words and NUMBER.fullmatch(words[0]):
        number, words = int(words[0]), words[1:]
    return SiteAction(number, words, line) if words else None


def _read_story(text: str, name: str) -> SiteGame:
    match = STORY_WORD.search(text)
    if match is None:
        raise fail(
            "boardspace-header",
            "neither a boardspace.net SGF file nor a story (no `story` word)",
            file=name,
        )
    line = text.count("\n", 0, match.start()) + 1
    body = text[match.end() :].split(".end.", 1)[0]
    header, _, moves = body.partition(",")
    words = header.split()
    if not (words and words[0].lower() in PROFILES) and not _shaped_as_game_type(words):
        found = text[match.start() : match.end() + len(header)].split("\n", 1)[0][:50]
        raise fail(
            "boardspace-header",
            "not a boardspace.net record: expected an SGF file or a story line, whose `story` is followed "
            f"by a game type (`story medina 3 0 , ...`); found {found!r}",
            file=name,
            line=line,
        )
    game = _game_type(words, name, line)
    line += header.count("\n")
    for item in moves.split(","):
        leading = item[: len(item) - len(item.lstrip())]
        action = _action(item, len(game.actions), line + leading.count("\n"))
        if action is not None:
            game.actions.append(action)
        line += item.count("\n")
    return game


def _sgf_properties(text: str, name: str) -> list[tuple[str, str, int]]:
    """(property, value, line) for every property value, in file order."""
    props, ident, line = [], None, 1
    for match in SGF_TOKEN.finditer(text):
        value, word, semicolon, paren, _space, other = match.groups()
        if value is not None:
            if ident is None:
                raise fail(
                    "boardspace-syntax",
                    "a `[...]` value without a property name",
                    file=name,
                    line=line,
                )
            props.append((ident, re.sub(r"\\(.)", r"\1", value, flags=re.DOTALL), line))
        elif word is not None:
            ident = word.upper()
        elif semicolon or paren:
            ident = None
        elif other is not None:
            what = "an unclosed `[`" if other == "[" else f"unexpected {other!r}"
            raise fail("boardspace-syntax", f"{what} in the SGF file", file=name, line=line)
        line += match.group(0).count("\n")
    return props


def _read_sgf(text: str, name: str) -> SiteGame:
    props = _sgf_properties(text, name)
    by_name: dict[str, tuple[str, int]] = {}  # property -> its first value and line
    for ident, value, line in props:
        by_name.setdefault(ident, (value, line))
    if "GM" in by_name and by_name["GM"][0].strip().lower() != "medina":
        raise fail(
            "boardspace-header",
            f"GM[{by_name['GM'][0]}]: not a Medina game",
            file=name,
            line=by_name["GM"][1],
        )
    if "SU" not in by_name:
        raise fail(
            "boardspace-header",
            "no SU[...] setup property (variant, revision, players, random key)",
            file=name,
        )
    setup, setup_line = by_name["SU"]
    game = _game_type(setup.split(), name, setup_line)
    for ident, value, line in props:
        if not (ident[:1] == "P" and INDEX.fullmatch(ident, 1)):
            continue
        words = value.split(None, 1)
        if words and words[0].lower() in PLAYER_INFO:
            if words[0].lower() == "id" and len(words) == 2:
                game.names[int(ident[1:])] = words[1].strip().strip('"')
            continue
        action = _action(value, len(game.actions), line)
        if action is not None:
            game.actions.append(action)
    game.facts = {
        key: by_name[prop][0]
        for key, prop in (("date", "DT"), ("game", "GN"), ("result", "RE"))
        if prop in by_name
    }
    return game


# --- actions into turns ----------------------------------------------------------------------------


class Unreadable(Exception):
    """An action that cannot be read or does not fit; the message names it."""


@dataclass
class Piece:
    name: str  # a piece of the ruleset, or "tea"
    rack: str
    seat: int
    cell: int | None = None


@dataclass
class SiteTurn:
    seat: int
    pieces: list[Piece]
    line: int
    done: bool


class TurnBuilder:
    """Follows the picks and drops of the action stream and cuts it into turns at each `Done`."""

    def __init__(self, game: SiteGame, rules):
        self.colours = rules.colour_names
        self.geo = geometry_for(rules)
        self.players = game.players
        self.first = game.first_seat
        self.turns: list[SiteTurn] = []
        self.pieces: list[Piece] = []
        self.held: Piece | None = None
        self.line = game.line

    @property
    def seat(self) -> int:
        """Whose turn it is: the site plays strictly in seat order, a stuck player confirming a pass."""
        if self.first is None:
            raise Unreadable("no `Start P<n>` says who starts")
        return (self.first + len(self.turns)) % self.players

    def play(self, action: SiteAction) -> bool:
        """Apply one action; True when it ends the game (a resignation)."""
        verb, args = action.verb, action.words[1:]
        if not self.pieces and self.held is None:
            self.line = action.line
        if verb == "start":
            if self.turns or self.pieces or self.held:
                raise Unreadable("`Start` must come before every move")
            self.first = self._seat_word(self._args(args, 1, "Start P<n>")[0])
        elif verb == "pick":
            self._empty_hand(action)
            self.held = self._rack_piece(self._args(args, 3, "Pick <rack> <seat> <index>"))
        elif verb == "drop":
            self._drop(self._args(args, 3, "Drop <rack> <seat> <index>"))
        elif verb == "dropb":
            if self.held is None:
                raise Unreadable("drops a piece on the board without holding one")
            piece, self.held = self.held, None
            self._place(piece, self._args(args, 2, "Dropb <column> <row>"))
        elif verb == "pickb":
            self._empty_hand(action)
            self._pick_back(self._cell(self._args(args, 2, "Pickb <column> <row>")))
        elif verb == "onboard":
            self._empty_hand(action)
            words = self._args(args, 5, "OnBoard <rack> <seat> <index> <column> <row>")
            self._place(self._rack_piece(words[:3]), words[3:5])
        elif verb in ("done", "pass"):
            self._empty_hand(action)
            self.turns.append(SiteTurn(self.seat, self.pieces, self.line, done=True))
            self.pieces = []
        elif verb == "resign" or verb.startswith("gameover"):  # nothing more is played
            return True
        else:
            raise Unreadable(
                f"unknown verb {action.words[0]!r} (Medina records use Start, Pick, Drop, Dropb, "
                "Pickb, OnBoard, Done)"
            )
        return False

    def finish(self) -> None:
        """Keep a turn the record stops in (a held piece was not placed)."""
        if self.pieces:
            self.turns.append(SiteTurn(self.seat, self.pieces, self.line, done=False))
            self.pieces = []

    def _args(self, args: list[str], count: int, form: str) -> list[str]:
        if len(args) < count:
            raise Unreadable(f"expected `{form}`")
        return args[:count]

    def _empty_hand(self, action: SiteAction) -> None:
        if self.held is not None:
            raise Unreadable(f"`{action.words[0]}` while still holding a {self.held.name}")

    def _seat_word(self, word: str) -> int:
        match = re.fullmatch(r"[Pp](\d{1,9})", word)
        if match is None or int(match.group(1)) >= self.players:
            raise Unreadable(f"{word!r} is not a seat P0..P{self.players - 1}")
        return int(match.group(1))

    def _rack_piece(self, words: list[str]) -> Piece:
        rack, letter, index = words[0].lower(), words[1].upper(), words[2]
        seat = ord(letter) - 65 if len(letter) == 1 else -1
        if not 0 <= seat < self.players:
            raise Unreadable(
                f"{words[1]!r} is not a seat letter A..{seat_letter(self.players - 1)}"
            )
        if rack == BUILDING_RACK:
            if not INDEX.fullmatch(index) or int(index) >= len(self.colours):
                raise Unreadable(
                    f"building index {index!r} is not a colour 0..{len(self.colours) - 1}"
                )
            name = self.colours[int(index)]
        elif rack in RACK_PIECES:
            name = RACK_PIECES[rack]
        else:
            raise Unreadable(
                f"rack {words[0]!r} holds no piece of a player (racks: P, D, N, M, W, S, T)"
            )
        if seat != self.seat:
            raise Unreadable(
                f"takes a piece from seat {letter}'s rack during seat {seat_letter(self.seat)}'s turn"
            )
        return Piece(name, rack, seat)

    def _cell(self, words: list[str]) -> int:
        cell = self.geo.parse("".join(words))
        if cell is None:
            raise Unreadable(
                f"{' '.join(words)!r} is not a cell of this board ({self.geo.describe_extent()})"
            )
        return cell

    def _place(self, piece: Piece, where: list[str]) -> None:
        """A piece onto the board; a tea tile goes to the discard pile wherever the move points."""
        if piece.name != "tea":
            piece.cell = self._cell(where)
        self.pieces.append(piece)

    def _drop(self, words: list[str]) -> None:
        piece = self.held
        if piece is None:
            raise Unreadable("drops a piece without holding one")
        rack = words[0].lower()
        if rack == TEA_DISCARD_RACK and piece.name == "tea":
            self.pieces.append(piece)
        elif rack != piece.rack or words[1].upper() != seat_letter(piece.seat):
            raise Unreadable(
                f"puts a {piece.name} from rack {piece.rack.upper()} {seat_letter(piece.seat)} "
                f"into rack {words[0]} {words[1]}"
            )
        self.held = None

    def _pick_back(self, cell: int) -> None:
        for i in range(len(self.pieces) - 1, -1, -1):
            if self.pieces[i].cell == cell:
                self.held = self.pieces.pop(i)
                return
        raise Unreadable(
            f"picks up from {self.geo.name(cell)}, where no piece was dropped this turn"
        )


# --- into record/1 ---------------------------------------------------------------------------------


def parse_boardspace(
    text: str,
    name: str,
    *,
    ruleset: str | Ruleset | None = None,
    overrides=(),
    players: list[str] | None = None,
) -> Record:
    """A boardspace record as a `Record` (under its profile, or under `ruleset`); problems are collected
    like record/1's. `players` renames the seats (stories carry no names)."""
    record = Record(file=name)
    try:
        game = read_site_game(text, name)
        _Converter(record, game, ruleset, overrides, players).convert()
    except (UnusableInput, BadArgument):
        raise
    except MedinaError as exc:
        record.problems.errors.append(exc.problem)
    return record


def import_document(file: str, output: str | None, record: Record | None = None) -> dict:
    """The medina-import/1 document (without `record`, the text added when it goes to standard output) of
    the `record` converted from `file` into `output` (None: standard output); without `record`, as far as
    it is known before the conversion (what an error leaves it at)."""
    doc: dict[str, object] = {
        "format": "medina-import/1",
        "file": file,
        "output": output,
        "ruleset": None,
        "players": None,
        "turns": None,
        "errors": [],
        "warnings": [],
    }
    if record is None:
        return doc
    assert record.ruleset is not None, "a record converted without errors has its ruleset"
    doc.update(
        ruleset=record.ruleset.id,
        players=record.players,
        turns=len(record.turns),
        warnings=[w.to_json() for w in record.problems.warnings],
    )
    return doc


def players_refusal(names: list[str], seats: int) -> str | None:
    """Why player names given for a game do not name every seat of it once, or None."""
    if len(names) != seats:
        return (
            f"{len(names)} name{'s' if len(names) != 1 else ''} for a {seats}-player game; "
            f"give {seats}, comma-separated in seat order"
        )
    if len(set(names)) != len(names):
        return "a name given twice; every player needs a name of his own"
    if "neutral" in names:
        return "`neutral` is reserved for neutral roofs; choose another name"
    return None


class _Converter:
    def __init__(self, record: Record, game: SiteGame, ruleset, overrides, players):
        self.r, self.game = record, game
        self.ruleset_ref, self.overrides, self.names = ruleset, overrides, players

    def error(self, code: str, message: str, **where) -> MedinaError:
        return fail(
            code, message, file=self.r.file, line=where.pop("line", self.game.line), **where
        )

    def convert(self) -> None:
        game, r = self.game, self.r
        profile = load_ruleset(profile_id(game.variant, game.revision))
        r.ruleset = self._ruleset(profile.id)
        for ruleset in (profile, r.ruleset):
            refusal = ruleset.players_refusal(game.players)
            if refusal:
                raise self.error("unsupported-player-count", refusal)
        site_rules, rules = profile.for_players(game.players), r.ruleset.for_players(game.players)
        by_seat = self._seat_names()
        builder = TurnBuilder(game, rules)
        problem = self._build(builder, by_seat)
        start = builder.first or 0
        r.players = [by_seat[(start + i) % game.players] for i in range(game.players)]
        turns = builder.turns
        if site_rules.well.enabled:
            self._drawn_setup(geometry_for(site_rules), geometry_for(rules), rules.well.enabled)
        else:
            self._start_merchant(turns, rules, by_seat, problem)
        r.turns = [
            self._entry(number, turn, by_seat, builder.geo) for number, turn in enumerate(turns, 1)
        ]
        r.meta = self._meta(start, by_seat)
        if problem is not None:
            r.problems.errors.append(problem)
        elif turns and not turns[-1].done:
            self._unfinished_turn(builder.held)
        elif builder.held is not None:
            self.r.problems.warn(
                "boardspace-mid-turn",
                f"the record ends in the middle of {by_seat[builder.seat]}'s "
                f"turn, holding a {builder.held.name} that was never placed (no final `Done`)",
                file=self.r.file,
                line=builder.line,
                turn=len(turns) + 1,
                player=by_seat[builder.seat],
            )

    def _ruleset(self, profile: str) -> Ruleset:
        try:
            return load_ruleset(self.ruleset_ref or profile, self.overrides)
        except MedinaError as exc:
            exc.problem.file = exc.problem.file or (
                "--set" if exc.problem.code == "bad-set" else "--ruleset"
            )
            raise BadArgument.of(exc) from exc

    def _build(self, builder: TurnBuilder, by_seat: list[str]) -> Problem | None:
        """Cut the actions into turns; the first unreadable action stops reading (turns before it stay)."""
        for action in self.game.actions:
            try:
                if builder.play(action):
                    break
            except Unreadable as exc:
                return Problem(
                    "boardspace-action",
                    f"action {action.number} `{action}`: {exc}",
                    file=self.r.file,
                    line=action.line,
                    turn=len(builder.turns) + 1,
                    player=None if builder.first is None else by_seat[builder.seat],
                )
        builder.finish()
        return None

    def _seat_names(self) -> list[str]:
        names = self.names or [
            self.game.names.get(seat, f"P{seat}") for seat in range(self.game.players)
        ]
        if (
            len(names) != self.game.players
            or len(set(names)) != len(names)
            or "neutral" in names
            or any(not n or n != n.strip() for n in names)
        ):
            raise self.error(
                "bad-players",
                f"player names {names}: need {self.game.players} distinct names, "
                "none empty or `neutral`",
            )
        return names

    def _drawn_setup(self, site_geo, geo, has_well: bool) -> None:
        if self.game.key is None:
            raise self.error(
                "boardspace-header",
                "the setup names no random key, which places the well and the start merchant",
            )
        merchant, well = boardspace_setup(site_geo, self.game.key)
        merchant, well = site_geo.square_of[merchant], site_geo.square_of[well]
        self.r.merchant = merchant if merchant in geo.cell_of_square else None
        self.r.well = well if has_well and well in geo.cell_of_square else None

    def _start_merchant(self, turns: list[SiteTurn], rules, by_seat, problem) -> None:
        """The starting player's first piece is the start merchant: it becomes `setup.merchant`. The site
        gives seat A one merchant more than the others; when another seat starts, `setup.supply` says so
        (the starter one merchant fewer, seat A one more), so the supplies are the site's."""
        if rules.well.enabled:
            raise self.error(
                "bad-setup", f"{rules.ruleset_id} needs a well; this boardspace game has none"
            )
        if not turns or not turns[0].pieces:
            if problem is None:
                raise self.error(
                    "boardspace-action", "the starting player's first turn places no start merchant"
                )
            return
        first = turns[0].pieces.pop(0)
        geo = geometry_for(rules)
        if first.name != "merchant":
            raise self.error(
                "boardspace-action",
                f"the starting player's first piece is a {first.name}, not the start merchant",
                line=turns[0].line,
                turn=1,
                player=by_seat[first.seat],
            )
        cell = first.cell
        assert cell is not None, "a merchant, unlike a tea tile, is dropped on a cell"
        if not geo.setup_cells >> cell & 1:
            raise self.error(
                "bad-setup",
                f"the start merchant {geo.name(cell)} is not an interior cell off the edge row",
                line=turns[0].line,
                turn=1,
                player=by_seat[first.seat],
            )
        self.r.merchant = geo.square_of[cell]
        if first.seat != 0:  # the starter paid for it, and seat A holds the extra merchant
            merchants = rules.supply.merchants
            self.r.supply = {
                by_seat[first.seat]: {"merchant": merchants - 1},
                by_seat[0]: {"merchant": merchants + 1},
            }

    def _entry(self, number: int, turn: SiteTurn, by_seat, geo) -> TurnEntry:
        square_of = geo.square_of
        actions = [
            TEA_PLACEMENT if p.name == "tea" else Placement(p.name, square_of[p.cell])
            for p in turn.pieces
        ]
        return TurnEntry(number, by_seat[turn.seat], turn.line, actions or [PASS_PLACEMENT])

    def _meta(self, start: int, by_seat) -> dict:
        game = self.game
        source = Path(self.r.file).name
        notes = [
            f"imported from boardspace.net ({source}): {game.variant}, engine revision {game.revision}, "
            f"{game.players} players"
        ]
        if "result" in game.facts:
            notes.append(f"the site's result: {game.facts['result']}")
        site = {
            "variant": game.variant,
            "revision": game.revision,
            "seats": by_seat,
            "start": f"P{start}",
        }
        if game.key is not None:
            site["key"] = game.key
        if "game" in game.facts:
            site["game"] = game.facts["game"]
        meta = {"notes": notes, "x-boardspace": site}
        if "date" in game.facts:
            meta["date"] = game.facts["date"]
        return meta

    def _unfinished_turn(self, held) -> None:
        """A record that ends inside a turn (no final `Done`) says so. A turn still owing a placement is
        left out (after checking its placements): a game abandoned there, unlike one being transcribed,
        goes no further. One that has all its placements is kept."""
        last = self.r.turns[-1]
        where = {"file": self.r.file, "line": last.line, "turn": last.number, "player": last.player}
        outcome = replay(self.r)
        if outcome.in_progress:
            self.r.turns.pop()
            self.r.problems.warn(
                "boardspace-turn-dropped",
                f"the record stops inside {last.player}'s turn, which "
                "still owed a placement; that turn is left out",
                **where,
            )
            return
        if any(p.turn == last.number for p in outcome.errors):
            return  # the turn is illegal: its error says more
        placed = len(last.actions)
        holding = f", holding a {held.name} that was never placed" if held is not None else ""
        self.r.problems.warn(
            "boardspace-mid-turn",
            f"the record ends in the middle of {last.player}'s turn "
            f"(no final `Done`{holding}): its {placed} placement{'s are' if placed != 1 else ' is'} "
            "kept, though the site never confirmed the turn",
            **where,
        )
