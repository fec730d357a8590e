"""The native core (C, `_core`) beside the Python engine, and which of the two runs.

The Python engine (medina_cli/engine/game.py) is the reference and keeps everything that needs
words (explanations, events, replay). The native core plays what search and studies need: legal
moves, placements, whole playouts, scores, the tree search of agents.mcts (`State.search_samples`);
tests/test_native.py holds the two to identical results.
`MEDINA_ENGINE=python` keeps to the Python engine; `native` requires the native core; unset, the
native core runs where it was built. A variant the core cannot hold (`tables` returns None) plays on
the Python engine, with a one-line warning on stderr.

Moves are the variant's move codes (`Variant.encode`, `Variant.decode`): `piece * cells + cell`
(pieces in `Variant.pieces`: the colours, then roof, neutral, stable, merchant, wall), and
`tables.tea_move` for a tea tile; the core plays no pass (the code after it).

The random generator both engines draw from is CPython's `random.Random`: MT19937 seeded from the
seed's bytes and their SHA-512 digest, `random()` from two 32-bit outputs, `randrange(n)` by
rejection of `n.bit_length()`-bit draws. `Generator` is a `random.Random` whose state lives in the
native core, so that a native playout draws from the same stream as Python code does.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterable
from functools import cache, lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from _hashlib import HASH

    from _typeshed import ReadableBuffer

    from ...rules.typed import Rules
    from ..game import Game
    from ..variant import Variant

# The C core's objects (its module has no stubs): `Tables` for a variant, a position (`State`).
NativeTables = Any
NativeState = Any
Seed = int | float | str | bytes | bytearray | None  # what random.Random takes


class NativeRandom(Protocol):
    """The C core's `Random`: an MT19937 state and CPython's draws from it."""

    def random(self) -> float: ...

    def getrandbits(self, k: int, /) -> int: ...

    def getstate(self) -> tuple[int, ...]: ...

    def setstate(self, words: tuple[int, ...], /) -> None: ...


ENGINE_VARIABLE = "MEDINA_ENGINE"
ENGINES = ("native", "python")
FORCED = {
    "off": 0,
    "only_player_who_can_place": 1,
    "only_player_with_roofs": 2,
    "only_player_with_pieces": 3,
}
RECONNECT = {"once_per_palace_tower": 0, "once_per_palace_arm": 1, "every_new_contact": 2}


class EngineUnavailable(RuntimeError):
    """MEDINA_ENGINE asks for an engine this installation cannot run (or names none)."""


def engine_requested() -> str | None:
    """The engine MEDINA_ENGINE names ("native", "python"), None when unset; EngineUnavailable for another word."""
    value = os.environ.get(ENGINE_VARIABLE, "").strip().lower()
    if not value:
        return None
    if value not in ENGINES:
        raise EngineUnavailable(
            f"{ENGINE_VARIABLE}={os.environ[ENGINE_VARIABLE]!r}: expected native or python"
        )
    return value


@cache
def built() -> ModuleType | None:
    """The native module where it was built from these very sources, else None."""
    return _load("_core")


@cache
def built_wide() -> ModuleType | None:
    """The native module for boards beyond `_core`'s cells where it was built, else None."""
    return _load("_core_wide") if built() is not None else None


def _load(name: str) -> ModuleType | None:
    """The extension `name` beside this file, else (a source checkout run where the package is installed,
    as the tests run) the installed package's; only one built from the C sources beside this file (its
    SOURCE_DIGEST): a core compiled from other sources is never used."""
    import importlib

    module: ModuleType | None
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ImportError:
        module = _installed(name)
    if module is None:
        return None
    digest = source_digest()
    return module if digest is None or getattr(module, "SOURCE_DIGEST", None) == digest else None


def _installed(name: str) -> ModuleType | None:
    import importlib.machinery
    import importlib.util
    import sys
    from pathlib import Path

    here = Path(__file__).resolve().parent
    for entry in sys.path:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = Path(entry or ".", *__name__.split("."), name + suffix)
            if path.is_file() and path.resolve().parent != here:
                spec = importlib.util.spec_from_file_location(f"{__name__}.{name}", path)
                if spec is None or spec.loader is None:  # (an extension's path always has both)
                    continue
                module = importlib.util.module_from_spec(spec)
                sys.modules[spec.name] = module
                try:
                    spec.loader.exec_module(module)
                except ImportError:
                    del sys.modules[spec.name]
                    continue
                return module
    return None


SOURCES = (
    "core.h",
    "core.c",
    "_core.c",
    "search.h",
    "search.c",
)  # what setup.py digests into SOURCE_DIGEST


@cache
def source_digest() -> str | None:
    """The SHA-256 of the C sources beside this file, as setup.py gives it to the extensions it builds;
    None where they are not there to read (an installed package: its wheel carries the compiled core
    alone, so that a start neither reads them nor imports hashlib)."""
    from pathlib import Path

    here = Path(__file__).resolve().parent
    try:
        texts = [(here / name).read_bytes().replace(b"\r\n", b"\n") for name in SOURCES]
    except OSError:
        return None
    from hashlib import sha256

    return sha256(b"".join(texts)).hexdigest()


def core() -> ModuleType | None:
    """The native module, or None where the Python engine runs (not built, or MEDINA_ENGINE=python).
    Raises EngineUnavailable for MEDINA_ENGINE=native without a native core."""
    return _core_for(os.environ.get(ENGINE_VARIABLE))


@lru_cache(maxsize=8)
def _core_for(setting: str | None) -> ModuleType | None:
    wanted = engine_requested()
    if wanted == "python":
        return None
    module = built()
    if module is None and wanted == "native":
        raise EngineUnavailable(
            f"{ENGINE_VARIABLE}=native: this installation has no native engine built from its "
            "sources (installed without a C compiler, or the C sources changed since: reinstall); "
            "unset it to use the Python engine"
        )
    return module


def engine_name() -> str:
    """The engine in use: "native" or "python"."""
    return "native" if core() is not None else "python"


def _mask(value: int, size: int) -> bytes:
    return value.to_bytes(size, "little")


def tables(rules: Rules) -> NativeTables | None:
    """The native core's tables for `rules` (a `Rules`), or None where the Python engine must play them
    (no native core in use, or a board, colour or player count beyond it)."""
    if core() is None:
        return None
    return _known(rules)[1]


def _known(rules: Rules) -> tuple[Rules, NativeTables | None, Variant]:
    """(rules, tables, variant) of `rules`, found by identity first: hashing a Rules costs more than a
    game's setup."""
    known = _BY_RULES.get(id(rules))
    if known is None or known[0] is not rules:
        from ..variant import Variant

        variant = Variant.of(rules)
        known = _BY_RULES[id(rules)] = (rules, _tables(variant), variant)
        if len(_BY_RULES) > 64:
            _BY_RULES.pop(next(iter(_BY_RULES)))
    return known


_BY_RULES: dict[int, tuple[Rules, NativeTables | None, Variant]] = {}


@lru_cache(maxsize=64)
def _tables(variant: Variant) -> NativeTables | None:
    """The one place the native core's tables are made: from the variant compiled from the rules. None
    where the core cannot hold them (its `Unsupported`: the core's limits are its own, its MAX_
    constants): the Python engine plays that variant, and says so once on stderr."""
    narrow = built()
    assert narrow is not None  # tables are made only where the native core is in use
    native = narrow if variant.size <= narrow.MAX_CELLS else built_wide()
    if native is None:
        return None
    try:
        return _made_tables(native, variant)
    except native.Unsupported as refusal:
        sys.stderr.write(
            f"warning: {variant.rules.ruleset_id}: beyond the native engine ({refusal}): "
            "playing on the Python engine (slower)\n"
        )
        return None


def _made_tables(native: ModuleType, variant: Variant) -> NativeTables:
    """`native.Tables` for `variant`."""
    p = variant.params()
    colours = variant.colours
    width = native.MASK_BYTES

    def cells(masks: Iterable[int]) -> bytes:
        return b"".join(_mask(m, width) for m in masks)

    return native.Tables(
        width=variant.width,
        height=variant.height,
        ring=_mask(variant.ring, width),
        interior=_mask(variant.interior, width),
        towers=_mask(variant.towers, width),
        orth_of=cells(variant.orth_of),
        king_of=cells(variant.king_of),
        tower_cells=[
            x for cell, number in sorted(variant.tower_of_cell.items()) for x in (cell, number)
        ],
        colour_values=[c["value"] for c in p["colours"]],
        supply=[variant.supply[piece] for piece in variant.pieces],
        players=variant.rules.players,
        placements=p["turns.placements"],
        opening_single=p["turns.opening_single"],
        forced_rule=FORCED[p["turns.forced_roof"]],
        check_after_first=p["turns.forced_roof_check"] == "after_first_placement",
        neutral_spares=p["turns.neutral_spares_forced_roof"],
        on_blocked_palace=p["roofs.on_blocked_palace"],
        new_chain_max=p["merchants.new_chain_max_neighbours"],
        reconnect=RECONNECT[p["towers.reconnect"]],
        stable_first_nwse=p["towers.stable_contact"] == "first_north_west_south_east",
        tower_merchants=[p["towers.merchants"].get(t, -1) for t in range(5)],
        tea_colour=colours.index(p["tea.colour"]) if p["tea.colour"] else -1,
        tea_awards=list(p["tea.awards"]),
        tea_either=p["tea.replaces"] == "either_placement",
        tea_keeps_open=p["tea.keeps_turn_open"],
        tea_blocks_forced=p["tea.blocks_forced_roof"],
        retire_all_own="all_players_own" in p["retirement"],
        retire_no_fit="no_building_fits" in p["retirement"],
        merchants_touch_stables=p["scoring.merchants_touching_stables"],
        tiebreak_largest=p["scoring.tiebreak"] == "largest_palace_then_earliest_claim",
        well_enabled=p["well.enabled"],
        well_bonus=p["well.bonus"],
    )


def start_state(
    rules: Rules,
    merchant: int,
    well: int | None,
    supply: dict[str, dict[str, int]] | None = None,
    players: list[str] | None = None,
) -> NativeState | None:
    """A native position at the start of a game (None where the Python engine must play `rules`);
    `supply`: player -> {piece: count} where a player starts otherwise than the ruleset says."""
    table = tables(rules)
    if table is None:
        return None
    state = table.State  # the State type of the module that made the tables
    if not supply:
        return state(table, merchant, -1 if well is None else well)
    from ..variant import Variant

    variant = Variant.of(rules)
    assert players is not None, "a start supply names its players"
    start = [
        [{**variant.supply, **supply.get(name, {})}[piece] for piece in variant.pieces]
        for name in players
    ]
    return state(table, merchant, -1 if well is None else well, start)


def state_of(game: Game) -> NativeState | None:
    """A native position equal to a Python `Game`'s (its moves replayed through the native core), or
    None where the Python engine must play its rules."""
    state = start_state(
        game.rules, game._start_merchant, game.well, game.start_supply, game.players
    )
    if state is None:
        return None
    for placement in game.move_stack:
        state.play(game.variant.encode(placement))
    return state


def play_random(
    rules: Rules,
    setup: tuple[int, int | None],
    rng: random.Random,
    *,
    tea_chance: float,
    turns: bool = True,
) -> tuple[NativeState, list[tuple[int, list[str]]] | None] | None:
    """One complete game of uniform random play (engine.playout.play_out's) from `setup` (start merchant
    and well as squares) in the native core, drawing from `rng` (a `Generator`): (the final State, each
    turn's (seat, [token]) as a record writes them, or None without `turns`); None where the Python
    engine must play it."""
    native_rng = rng_core(rng)
    if native_rng is None:  # (a generator gets a native state only while the native core is in use)
        return None
    _, table, variant = _known(rules)
    if table is None:
        return None
    cell = variant.geometry.cell_of_square
    state = table.State(table, cell[setup[0]], -1 if setup[1] is None else cell[setup[1]])
    if not turns:
        state.playout(native_rng, tea_chance)
        return state, None
    played: list[tuple[int, list[str]]] = []
    texts = _move_texts(variant)
    for move, seat, opens in state.playout(native_rng, tea_chance, log=True):
        if opens or not played:
            played.append((seat, []))
        played[-1][1].append(texts[move])
    return state, played


@lru_cache(maxsize=64)
def _move_texts(variant: Variant) -> tuple[str, ...]:
    """Every move code's placement as a record writes it (`grey K8`, `tea`), by code."""
    return tuple(str(variant.decode(code)) for code in range(variant.encode("tea") + 1))


def sha512(data: ReadableBuffer) -> HASH:
    from hashlib import sha512 as digest  # imported on first use: hashlib costs a cold start

    globals()["sha512"] = digest
    return digest(data)


def _seed_key(seed: Seed) -> bytes:
    """The 32-bit words CPython's `random.seed(seed)` feeds MT19937 (version 2), as little-endian bytes:
    for text or bytes `b`, the integer `int.from_bytes(b + sha512(b).digest(), "big")`, whose
    little-endian bytes are those reversed (without the zero bytes of its top)."""
    if isinstance(seed, str):
        seed = seed.encode()
    if isinstance(seed, (bytes, bytearray)):
        key = (bytes(seed) + sha512(seed).digest())[::-1].rstrip(b"\0")
    elif isinstance(seed, int):
        seed = abs(seed)
        key = seed.to_bytes((seed.bit_length() + 7) // 8, "little")
    else:
        raise TypeError(f"seed {seed!r}: a str, bytes or int")
    return key + b"\0" * (-len(key) % 4 if key else 4)


class Generator(random.Random):
    """`random.Random(seed)`, the same stream, with its MT19937 state held by the native core (`core`),
    which native playouts draw from. Every method of random.Random works on it."""

    def __init__(self, seed: Seed = 0) -> None:  # (unpickling calls it with no seed, then setstate)
        self.seed(seed)  # all random.Random.__init__ does, with gauss_next

    # (typeshed's random.Random.seed takes `version`, which its base _random.Random's does not: it ignores that too)
    def seed(self, a: Seed = None, version: int = 2) -> None:  # type: ignore[override]
        native = built()  # (not core(): it reads the environment, and a seed is hot)
        assert native is not None, (
            "a Generator is made where the native core is in use (`generator`)"
        )
        self.core: NativeRandom = native.Random(_seed_key(a))
        # instance attributes: a draw costs what random.Random's does (mypy: a method is not to be replaced)
        self.random = self.core.random  # type: ignore[method-assign]
        self.getrandbits = self.core.getrandbits  # type: ignore[method-assign]
        self.gauss_next = None

    def random(self) -> float:
        return self.core.random()

    def getrandbits(self, k: int) -> int:
        return self.core.getrandbits(k)

    def getstate(
        self,
    ) -> tuple[Any, ...]:  # (version 3, the MT19937 words, gauss_next), as random.Random's
        return 3, self.core.getstate(), self.gauss_next

    def setstate(self, state: tuple[Any, ...]) -> None:
        _version, words, self.gauss_next = state
        self.core.setstate(tuple(words))


def generator(seed: Seed) -> random.Random:
    """The seeded generator every random choice draws from: a `Generator` where the native core is in
    use, else `random.Random(seed)` (the same stream)."""
    return Generator(seed) if core() is not None else random.Random(seed)


def rng_core(rng: random.Random) -> NativeRandom | None:
    """The native state of a generator made by `generator` (None for any other generator)."""
    return getattr(rng, "core", None) if isinstance(rng, Generator) else None
