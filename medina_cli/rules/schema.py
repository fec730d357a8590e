"""The ruleset schema (`medina: ruleset/1`): every parameter with its type, allowed values, default
and meaning. Validation and `docs/rulesets.md` both come from this one table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import brief
from ..yamlio import yaml_flow  # also re-exported: the schema's defaults in words

REQUIRED = object()
CORNERS = ("NW", "NE", "SE", "SW")
RESERVED_LETTERS = set("T#.msw")
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


class SchemaError(Exception):
    """A value that does not fit the schema, with the path where it sits; `every` holds it and any
    further ones found in the same document (path, message), in document order."""

    def __init__(self, path: tuple, message: str):
        super().__init__(message)
        self.path = path
        self.message = message
        self.every = [(path, message)]

    @classmethod
    def of(cls, errors: list[SchemaError]) -> SchemaError:
        """One error standing for all of `errors` (the first's path and message, every one in `every`)."""
        first = errors[0]
        first.every = [item for error in errors for item in error.every]
        return first


class Collect:
    """Check entry after entry, keeping every SchemaError; `done()` raises them together."""

    def __init__(self) -> None:
        self.errors: list[SchemaError] = []

    def __call__(self, check, *args):
        try:
            return check(*args)
        except SchemaError as exc:
            self.errors.append(exc)
            return None

    def done(self) -> None:
        if self.errors:
            raise SchemaError.of(self.errors)


@dataclass
class Spec:
    doc: str
    default: Any = REQUIRED

    type_name = "value"

    def check(self, value, path, partial=False):
        return value

    def allowed(self) -> str:
        return ""

    def allowed_values(self) -> list | None:
        """Every value allowed here (of each entry, for a list or mapping); None: free text."""
        return None


@dataclass
class Int(Spec):
    low: int = 0
    high: int = 99
    type_name = "integer"

    def check(self, value, path, partial=False):
        if isinstance(value, bool) or not isinstance(value, int):
            raise SchemaError(
                path, f"expected an integer from {self.low} to {self.high}, got {brief(value)}"
            )
        if not self.low <= value <= self.high:
            raise SchemaError(path, f"{brief(value)} is outside {self.low}..{self.high}")
        return value

    def allowed(self):
        return f"{self.low}..{self.high}"

    def allowed_values(self):
        return list(range(self.low, self.high + 1))


@dataclass
class Bool(Spec):
    type_name = "boolean"

    def check(self, value, path, partial=False):
        if not isinstance(value, bool):
            raise SchemaError(path, f"expected true or false, got {brief(value)}")
        return value

    def allowed(self):
        return "true, false"

    def allowed_values(self):
        return [True, False]


@dataclass
class Text(Spec):
    type_name = "text"

    def check(self, value, path, partial=False):
        if value is None and self.default is None:
            return None
        if not isinstance(value, str):
            raise SchemaError(path, f"expected text, got {brief(value)}")
        return value


@dataclass
class Choice(Spec):
    """One of `choices`. What a document (a ruleset file, one call's overrides) that writes this parameter
    gives besides (`written_with`): `implies`, values of sibling parameters it does not write itself;
    `former`, spellings ruleset/1 files may still use, each standing for a choice and sibling values."""

    choices: tuple = ()
    nullable: bool = False
    implies: dict | None = None  # sibling -> value
    former: dict | None = None  # spelling -> (choice, {sibling: value})
    type_name = "one of"

    def check(self, value, path, partial=False):
        if value is None and self.nullable:
            return None
        if value not in self.choices:
            raise SchemaError(
                path, f"{brief(value)} is not one of: {', '.join(map(str, self.choices))}"
            )
        return value

    def allowed(self):
        former = f" (formerly also {', '.join(self.former)})" if self.former else ""
        return ", ".join(map(str, self.choices)) + (", null" if self.nullable else "") + former

    def allowed_values(self):
        return [*self.choices, *([None] if self.nullable else [])]

    def written_with(self, value) -> tuple[Any, dict]:
        """A value as a document writes it -> (the value, {sibling: value} the document gives unless it
        writes that sibling itself)."""
        implied, former = dict(self.implies or {}), self.former or {}
        if isinstance(value, str) and value in former:
            value, also = former[value]
            implied.update(also)
        return value, implied


def resolve_written(data, spec: Spec | None = None) -> None:
    """In place, in one ruleset document as written (before it is merged with what it extends): each
    Choice gives what it stands for and implies (`Choice.written_with`)."""
    spec = SCHEMA if spec is None else spec
    if not isinstance(spec, Fields) or not isinstance(data, dict):
        return
    for key, sub in spec.fields.items():
        if key not in data:
            continue
        if isinstance(sub, Choice) and (sub.implies or sub.former):
            data[key], implied = sub.written_with(data[key])
            for sibling, value in implied.items():
                data.setdefault(sibling, value)
        else:
            resolve_written(data[key], sub)


@dataclass
class ListOf(Spec):
    item: Spec = field(kw_only=True)
    unique: bool = False
    type_name = "list"

    def check(self, value, path, partial=False):
        if not isinstance(value, list):
            raise SchemaError(path, f"expected a list, got {brief(value)}")
        collect = Collect()
        items = [collect(self.item.check, v, path + (i,), partial) for i, v in enumerate(value)]
        collect.done()
        if self.unique and len(set(map(repr, items))) != len(items):
            raise SchemaError(path, "list entries must be distinct")
        return items

    def allowed(self):
        return f"list of {self.item.type_name}" + (
            f" ({self.item.allowed()})" if self.item.allowed() else ""
        )

    def allowed_values(self):
        return self.item.allowed_values()


@dataclass
class MapOf(Spec):
    """A mapping with free keys (checked by `key`) to values of one spec."""

    key: Spec = field(kw_only=True)
    value: Spec = field(kw_only=True)
    key_label: str = "key"
    type_name = "mapping"

    def check(self, value, path, partial=False):
        if not isinstance(value, dict):
            raise SchemaError(
                path, f"expected a mapping of {self.key_label} to {self.value.type_name}"
            )
        out, collect = {}, Collect()
        for k, v in value.items():
            key = collect(self.key.check, k, path + (k,))
            checked = collect(self.value.check, v, path + (k,), partial)
            if key is not None:
                out[key] = checked
        collect.done()
        return out

    def allowed(self):
        return f"{self.key_label} ({self.key.allowed()}) → {self.value.type_name}"

    def allowed_values(self):
        return self.value.allowed_values()


@dataclass
class Fields(Spec):
    """A mapping with a fixed set of keys; unknown keys are errors naming the valid ones."""

    fields: dict[str, Spec] = field(kw_only=True)
    type_name = "mapping"

    def check(self, value, path, partial=False):
        if not isinstance(value, dict):
            raise SchemaError(path, f"expected a mapping with keys: {', '.join(self.fields)}")
        out, collect = {}, Collect()
        for key, item in value.items():
            if key not in self.fields:
                collect.errors.append(
                    SchemaError(
                        path + (key,),
                        f"unknown key {brief(key)}; valid keys here: {', '.join(self.fields)}",
                    )
                )
                continue
            spec = self.fields[key]
            out[key] = collect(spec.check, item, path + (key,), partial)
        if not partial:
            for key, spec in self.fields.items():
                if key in value:
                    continue
                if spec.default is REQUIRED:
                    collect.errors.append(SchemaError(path, f"missing required key {key!r}"))
                elif (
                    isinstance(spec, Fields) and spec.default is None
                ):  # a section left out is an empty one
                    out[key] = collect(spec.check, {}, path + (key,), partial)
                else:
                    out[key] = spec.default
        collect.done()
        return out


PLAYER_COUNT = Int("number of players", low=2, high=6)
COLOUR_NAME = Text("colour name")

SUPPLY = Fields(
    "pieces each player starts with",
    fields={
        "per_colour": Int("buildings of each colour", high=40),
        "roofs": Int("own-colour roofs", high=10),
        "neutral_roofs": Int("neutral roofs (belong to nobody when placed)", high=10, default=0),
        "stables": Int("stables", high=20),
        "merchants": Int("merchants", high=40),
        "walls": Int("walls", high=60),
    },
)

COLOUR = Fields(
    "a building colour",
    fields={
        "value": Int("value of this colour's palace tile", high=20),
        "letter": Text("one lower-case letter for this colour in board/1 grids"),
        "aliases": ListOf(
            "other accepted spellings in records (not a piece, `tea`, `pass`, nor another colour's name, "
            "letter or alias)",
            default=[],
            item=Text("alias"),
        ),
    },
)

SCHEMA = Fields(
    "a Medina ruleset",
    fields={
        "medina": Choice("format tag", choices=("ruleset/1",)),
        "id": Text("short id (default: the file name without extension)", default=None),
        "title": Text("one-line title", default=None),
        "extends": Text("id or path of the ruleset this one starts from", default=None),
        "kind": Choice(
            "edition: a rule edition, compared by default; profile: one site's or club's reading, "
            "compared when named",
            choices=("edition", "profile"),
            default="edition",
        ),
        "sources": ListOf("where the rules come from", default=[], item=Text("source")),
        "settled_readings": ListOf(
            "open readings (see below) that this ruleset's own sources settle: --readings "
            "leaves them alone",
            default=[],
            item=Text("parameter"),
            unique=True,
        ),
        "players": ListOf("supported player counts", item=PLAYER_COUNT, unique=True),
        "board": Fields(
            "board geometry",
            default=None,
            fields={
                "interior": MapOf(
                    "interior size [columns, rows] per player count (the wall ring is added around it)",
                    key=PLAYER_COUNT,
                    key_label="players",
                    value=ListOf("[columns, rows]", item=Int("cells", low=4, high=24)),
                ),
                "towers": MapOf(
                    "tower number at each corner",
                    key=Choice("corner", choices=CORNERS),
                    key_label="corner",
                    value=Int("tower number", low=1, high=4),
                    default={"NW": 1, "SE": 2, "NE": 3, "SW": 4},
                ),
            },
        ),
        "colours": MapOf(
            "building colours, in order", key=COLOUR_NAME, key_label="colour", value=COLOUR
        ),
        "supply": MapOf(
            "per-player supply for each player count",
            key=PLAYER_COUNT,
            key_label="players",
            value=SUPPLY,
        ),
        "well": Fields(
            "the well (placed at setup)",
            default=None,
            fields={
                "enabled": Bool("the game has a well", default=False),
                "bonus": Int(
                    "points per owned building or stable two cells straight from the well",
                    high=20,
                    default=4,
                ),
            },
        ),
        "turns": Fields(
            "turn structure",
            default=None,
            fields={
                "placements": Int("placements in a normal turn", low=1, high=4, default=2),
                "opening_single": MapOf(
                    "how many opening turns (counted from the first) have one placement only",
                    key=PLAYER_COUNT,
                    key_label="players",
                    value=Int("turns", high=6, default=0),
                    default={},
                ),
                "forced_roof": Choice(
                    "who must place one of his roofs near the end of the game, checked when "
                    "`forced_roof_check` says",
                    choices=(
                        "off",
                        "only_player_who_can_place",
                        "only_player_with_roofs",
                        "only_player_with_pieces",
                    ),
                    default="off",
                    implies={"forced_roof_check": "turn_start"},
                    former={
                        "second_placement_only_player_who_can_place": (
                            "only_player_who_can_place",
                            {"forced_roof_check": "after_first_placement"},
                        )
                    },
                ),
                "forced_roof_check": Choice(
                    "when the forced roof is checked: turn_start (as the turn starts: the turn must "
                    "include one of his roofs, where one can be reached), after_first_placement (only "
                    "after a first piece that was not his roof: the second must be his roof if one is "
                    "legal then); a file or --set that gives forced_roof but not this gives turn_start",
                    choices=("turn_start", "after_first_placement"),
                    default="turn_start",
                ),
                "neutral_spares_forced_roof": Bool(
                    "with forced_roof_check: after_first_placement: a neutral roof as the "
                    "turn's first piece spares the player the forced roof, as his own roof does",
                    default=False,
                ),
            },
        ),
        "roofs": Fields(
            "roofs",
            default=None,
            fields={
                "on_blocked_palace": Bool(
                    "a roof may go on an unroofed palace that can take no more buildings (blocked)",
                    default=True,
                ),
            },
        ),
        "merchants": Fields(
            "merchant chains",
            default=None,
            fields={
                "new_chain_max_neighbours": Int(
                    "most orthogonal merchant neighbours the first merchant of a new chain "
                    "may have (4: no limit)",
                    high=4,
                    default=0,
                ),
            },
        ),
        "towers": Fields(
            "tower tiles",
            default=None,
            fields={
                "reconnect": Choice(
                    "which repeated connections of a palace to a tower move the tile",
                    choices=("once_per_palace_tower", "once_per_palace_arm", "every_new_contact"),
                    default="every_new_contact",
                ),
                "stable_contact": Choice(
                    "which walls a stable next to two walls (an inner corner cell) connects its "
                    "claimed palace through: every_wall, or only the first of them in the order north, "
                    "west, south, east, the other arm counting as touched without a connection "
                    "(boardspace.net's engine)",
                    choices=("every_wall", "first_north_west_south_east"),
                    default="every_wall",
                ),
                "merchants": MapOf(
                    "merchants waiting on each tower tile for its first holder",
                    key=Int("tower", low=1, high=4),
                    key_label="tower",
                    value=Int("merchants", high=10),
                    default={},
                ),
            },
        ),
        "tea": Fields(
            "tea tiles",
            default=None,
            fields={
                "colour": Text(
                    "claiming a palace of this colour earns tea (null: no tea)", default=None
                ),
                "awards": ListOf(
                    "tea tiles for the 1st, 2nd, … claim; later claims get none",
                    default=[],
                    item=Int("tiles", high=10),
                ),
                "replaces": Choice(
                    "which placement of a turn a tea tile may replace",
                    choices=("either_placement", "second_placement"),
                    default="either_placement",
                ),
                "keeps_turn_open": Bool(
                    "a tea tile held counts as something left to do after the turn's first placement: "
                    "when no piece fits any more the turn goes on and the tile must be used "
                    "(false: the turn ends there)",
                    default=False,
                ),
                "blocks_forced_roof": Bool(
                    "another player holding a tea tile counts as able to move, so the forced roof "
                    "does not apply",
                    default=False,
                ),
            },
        ),
        "retirement": ListOf(
            "when a building colour leaves the game (any trigger suffices)",
            item=Choice("trigger", choices=("all_players_own", "no_building_fits")),
            unique=True,
            default=["all_players_own"],
        ),
        "scoring": Fields(
            "scoring",
            default=None,
            fields={
                "merchants_touching_stables": Bool(
                    "a merchant next to a palace's stable (not its buildings) scores", default=True
                ),
                "tiebreak": Choice(
                    "how a tie for the highest total is settled",
                    choices=("shared", "largest_palace_then_earliest_claim"),
                    default="shared",
                ),
            },
        ),
    },
)


def spec_at(path: tuple) -> Spec | None:
    """The spec of the value at `path` (keys and list indices) in a ruleset document; None: no such place."""
    spec: Spec = SCHEMA
    for key in path:
        if isinstance(spec, Fields) and key in spec.fields:
            spec = spec.fields[key]
        elif isinstance(spec, (MapOf, ListOf)):
            spec = spec.value if isinstance(spec, MapOf) else spec.item
        else:
            return None
    return spec


def words_back(data, written: dict) -> None:
    """Put back, in place, the text as `written` where YAML read another type (`off` and `no` as booleans,
    `2003` as a number) but the schema wants words (one of a Choice's, or any Text), null apart."""
    for path, text in written.items():
        if isinstance(spec_at(path), (Choice, Text)) and _value_at(data, path) is not None:
            _value_at(data, path[:-1])[path[-1]] = text


def _value_at(data, path: tuple):
    for key in path:
        data = data[key]
    return data


# name and describe a ruleset; `--set` refuses them
NOT_PLAY = ("medina", "id", "title", "extends", "kind", "sources", "settled_readings")


def parameters(spec: Spec = SCHEMA, prefix: str = "") -> list[tuple[str, Spec]]:
    """(dotted path, spec) of every parameter; `<players>`-style parts stand for a mapping's keys."""
    if isinstance(spec, Fields):
        return [
            row
            for key, sub in spec.fields.items()
            for row in parameters(sub, f"{prefix}.{key}" if prefix else key)
        ]
    if isinstance(spec, MapOf) and isinstance(spec.value, Fields):
        return [
            row
            for key, sub in spec.value.fields.items()
            for row in parameters(sub, f"{prefix}.<{spec.key_label}>.{key}")
        ]
    return [(prefix, spec)]


def parameter_rows() -> list[tuple[str, str, str, str, str]]:
    """(path, type, allowed, default, meaning) for every parameter, as text for docs and tables; the
    meaning of a parameter that encodes an open reading says so."""
    return [
        (
            path,
            spec.type_name,
            spec.allowed(),
            "required" if spec.default is REQUIRED else yaml_flow(spec.default),
            spec.doc
            + "".join(
                " [open reading]" if r.param == path else f" [open reading: {r.param}]"
                for r in readings_of(path)
            ),
        )
        for path, spec in parameters()
    ]


def reading_lines() -> list[str]:
    """The open readings in words: each point, then each competing value with its source."""
    lines = []
    for reading in READINGS:
        lines.append(f"{reading.param}: {reading.point}")
        for v in reading.values:
            also = f" (with {', '.join(v.also)})" if v.also else ""
            lines.append(f"  {yaml_flow(v.value)}{also}: {v.source}")
    return lines


def parameter_names() -> list[str]:
    """The dotted names `--set` accepts: every parameter that changes play."""
    return [path for path, _ in parameters() if path.split(".")[0] not in NOT_PLAY]


# --- open readings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReadingValue:
    """One way to read an unsettled rule point: the parameter's value, who reads it so, and any other
    parameters that must change with it (`PARAM=VALUE`)."""

    value: Any
    source: str
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reading:
    """A parameter that encodes a rule point no rules text we have settles (docs/rulings.md), with the
    competing readings. It applies to a ruleset whose value is one of them and that does not list it
    in `settled_readings`; the others are its alternatives."""

    param: str  # dotted path, concrete (`colours.purple.value`)
    point: str
    values: tuple[ReadingValue, ...]

    @property
    def pattern(self) -> str:
        """The parameter as `rules params` lists it (`colours.<colour>.value`)."""
        return next(path for path, _ in parameters() if _matches(path, self.param))


def _matches(pattern: str, path: str) -> bool:
    parts, wanted = pattern.split("."), path.split(".")
    return len(parts) == len(wanted) and all(
        p == w or p.startswith("<") for p, w in zip(parts, wanted, strict=True)
    )


READINGS = (
    Reading(
        "towers.reconnect",
        "tower re-connection in DM 2003 and in 2014 (R-12)",
        (
            ReadingValue(
                "every_new_contact",
                'ES14 has no once-only clause; BSW: "each side of the wall counts as a '
                'new connection", read as each contact',
            ),
            ReadingValue(
                "once_per_palace_arm",
                "BSW's \"each side\" read as each side of the city; boardspace.net's "
                "engine for both editions",
            ),
        ),
    ),
    Reading(
        "scoring.tiebreak",
        "the 2014 tie-break (R-23)",
        (
            ReadingValue(
                "shared", "ES14 says only that the highest total wins (FI: ties share the victory)"
            ),
            ReadingValue(
                "largest_palace_then_earliest_claim",
                "Board Game Arena: largest palace, then the earliest claimed",
            ),
        ),
    ),
    Reading(
        "roofs.on_blocked_palace",
        "roofing a blocked palace in 2001 (R-4)",
        (
            ReadingValue(
                True,
                "DORRA roofs a small blocked palace late in the game; ABJC, BSW and boardspace.net "
                "allow it",
            ),
            ReadingValue(
                False, 'FI calls a blocked palace "completed, owned by nobody", read literally'
            ),
        ),
    ),
    Reading(
        "merchants.new_chain_max_neighbours",
        "merchants next to a new chain's first merchant (R-8)",
        (
            ReadingValue(0, 'JA states it; BSW: "the same rules as for the first figure"'),
            ReadingValue(
                1, 'FI and ES14 say only "never next to two"; boardspace.net from rule revision 102'
            ),
        ),
    ),
    Reading(
        "turns.forced_roof",
        "who is forced to roof in 2001 (R-15)",
        (
            ReadingValue(
                "only_player_who_can_place", "BS-RULES: the only player with playable pieces"
            ),
            ReadingValue(
                "only_player_with_pieces", "FI, twice: the only player who still has pieces"
            ),
        ),
    ),
    Reading(
        "board.towers",
        "tower numbering (R-1)",
        (
            ReadingValue(
                {"NW": 1, "SE": 2, "NE": 3, "SW": 4},
                "boardspace.net, placed where the original artwork "
                "has the numbers: 1, 3, 2, 4 round the board",
            ),
            ReadingValue(
                {"NW": 1, "NE": 2, "SW": 3, "SE": 4}, "MALT's reading order; it cites no artwork"
            ),
        ),
    ),
    Reading(
        "colours.purple.value",
        "the 2014 palace-tile values (R-26)",
        (
            ReadingValue(
                2,
                "boardspace.net and MALT: purple takes black's place (grey 1, purple 2, brown 3, orange 4)",
            ),
            ReadingValue(
                1, 'ES14 says only "1-4 points": purple and grey swapped', ("colours.grey.value=2",)
            ),
            ReadingValue(
                3,
                'ES14 says only "1-4 points": purple and brown swapped',
                ("colours.brown.value=2",),
            ),
            ReadingValue(
                4,
                'ES14 says only "1-4 points": purple and orange swapped',
                ("colours.orange.value=2",),
            ),
        ),
    ),
)


def readings_of(pattern: str) -> list[Reading]:
    """The open readings on the parameter `rules params` lists as `pattern`."""
    return [r for r in READINGS if _matches(pattern, r.param)]
