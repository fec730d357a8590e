"""Fixed anchors of the engines, and the script that writes them (tests/test_anchors.py checks them).

Perft (tests/fixtures/perft/RULESET.json): for every built-in ruleset and player count it allows, the
start of a seeded setup and a position halfway through a seeded random game, each with the number of
placement sequences of `depth` placements the legal-placement generator allows (tea tiles included)
and how many of the last placements are of each piece.
Golden playthroughs (tests/fixtures/golden/RULESET.log): one seeded random game per ruleset, every
placement with the events it made, and the final scores, byte for byte.

Regenerate both after a rule change that is meant to change them, then read the diff:
    python tests/anchorkit.py
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from medina_cli.engine import native
from medina_cli.engine.game import Game
from medina_cli.engine.playout import TEA_CHANCE, play_random_game, random_setup
from medina_cli.engine.scoring import score_game
from medina_cli.rules.loader import builtin_ids, load_ruleset

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PERFT = FIXTURES / "perft"
GOLDEN = FIXTURES / "golden"
NAMES = ["Anna", "Ben", "Cleo", "Dan"]
SEED = 2026
MAX_DEPTH = 3
DEEPEST_CALLS = (
    2000  # a position goes MAX_DEPTH deep where its generator is called at most this often there
)


# --- perft ----------------------------------------------------------------------------------------
def perft(game: Game, depth: int) -> Counter:
    """The last placements of every legal sequence of `depth` placements from `game`, counted by piece,
    found through `Game.legal_placements` and push/pop (the game is left as it was)."""
    if depth == 1:
        return Counter(placement.piece for placement in game.legal_placements())
    counts: Counter = Counter()
    for placement in game.legal_placements():
        game.push(placement)
        counts += perft(game, depth - 1)
        game.pop()
    return counts


def native_perft(game: Game, depth: int) -> Counter | None:
    """`perft` of the same position on the native core (its `State.legal_moves` and push/pop); None where
    the Python engine must play these rules."""
    state = native.state_of(game)
    if state is None:
        return None
    piece_and_cell = game.variant.piece_and_cell

    def walk(depth: int) -> Counter:
        if depth == 1:
            return Counter(piece_and_cell(move)[0] for move in state.legal_moves())
        counts: Counter = Counter()
        for move in state.legal_moves():
            state.push(move)
            counts += walk(depth - 1)
            state.pop()
        return counts

    return walk(depth)


def game_at(ruleset: str, position: dict) -> Game:
    """The game of a perft fixture's position: its setup, then its placements."""
    game = Game(
        load_ruleset(ruleset), NAMES[: position["players"]], position["merchant"], position["well"]
    )
    for placement in position["placements"]:
        game.push(placement)
    return game


def perft_positions(ruleset: str) -> list[dict]:
    """A ruleset's perft positions, counted: per player count, the start and halfway through a seeded game."""
    out = []
    for players in load_ruleset(ruleset).player_counts:
        rules = load_ruleset(ruleset).for_players(players)
        played = play_random_game(
            rules, NAMES[:players], random.Random(f"{SEED} {ruleset} {players}")
        )
        stack = [str(p) for p in played.move_stack]
        for placements in ([], stack[: len(stack) // 2]):
            position = {"players": players, **played.setup, "placements": placements}
            game = game_at(ruleset, position)
            depth = (
                MAX_DEPTH
                if placements and sum(perft(game, MAX_DEPTH - 1).values()) <= DEEPEST_CALLS
                else 2
            )
            counts = perft(game, depth)
            out.append(
                {
                    **position,
                    "depth": depth,
                    "count": sum(counts.values()),
                    "pieces": dict(sorted(counts.items())),
                }
            )
    return out


def write_perft(ruleset: str) -> None:
    lines = ",\n".join(f"  {json.dumps(p)}" for p in perft_positions(ruleset))
    (PERFT / f"{ruleset}.json").write_text(
        f'{{"ruleset": "{ruleset}", "positions": [\n{lines}\n]}}\n'
    )


# --- golden playthroughs --------------------------------------------------------------------------
def golden_players(ruleset: str) -> list[str]:
    """The golden game's players: as many as the ruleset allows at most."""
    return NAMES[: max(load_ruleset(ruleset).player_counts)]


def golden_game(ruleset: str) -> Game:
    """The golden game: uniform random play (`medina simulate`'s) from a setup drawn from the same seed."""
    return play_random_game(
        load_ruleset(ruleset).for_players(len(golden_players(ruleset))),
        golden_players(ruleset),
        random.Random(f"{SEED} {ruleset}"),
        tea_chance=TEA_CHANCE,
    )


def golden_text(ruleset: str) -> str:
    """The golden game as text: its setup, each placement (numbered, with its player) and the events it
    made, then the scores and the winners."""
    played = golden_game(ruleset)
    setup = played.setup
    game = Game(played.rules, played.players, setup["merchant"], setup["well"])
    lines = [
        f"ruleset {ruleset}, players {', '.join(game.players)}, merchant {setup['merchant']}"
        + ("" if setup["well"] is None else f", well {setup['well']}"),
        *(f"  {e}" for e in game.events),
    ]
    for number, placement in enumerate(played.move_stack, 1):
        before, player = len(game.events), game.to_move
        game.push(placement)
        lines.append(f"{number} {player}: {placement}")
        lines.extend(f"  {event}" for event in game.events[before:])
    sheet = score_game(game)
    lines.append(
        "scores "
        + ", ".join(f"{p.name} {p.total}" for p in sheet.players)
        + "; winners "
        + ", ".join(sheet.winners)
    )
    return "\n".join(lines) + "\n"


def golden_placements(text: str) -> list[str]:
    """The placements of a golden text, in order."""
    return [line.split(": ", 1)[1] for line in text.splitlines() if line[:1].isdigit()]


def native_golden_placements(ruleset: str) -> list[str] | None:
    """The golden game's placements played by the native core's own playout from the same seed; None where
    the native core is not in use."""
    if native.core() is None:
        return None
    rules = load_ruleset(ruleset).for_players(len(golden_players(ruleset)))
    rng = native.Generator(f"{SEED} {ruleset}")
    played = native.play_random(rules, random_setup(rules, rng), rng, tea_chance=TEA_CHANCE)
    return None if played is None else [token for _, tokens in played[1] for token in tokens]


def main() -> None:
    PERFT.mkdir(exist_ok=True)
    GOLDEN.mkdir(exist_ok=True)
    for ruleset in builtin_ids():
        write_perft(ruleset)
        (GOLDEN / f"{ruleset}.log").write_text(golden_text(ruleset))
        print(
            f"{ruleset}: tests/fixtures/perft/{ruleset}.json, tests/fixtures/golden/{ruleset}.log"
        )


if __name__ == "__main__":
    main()
