"""`medina compare`: one record replayed under several rulesets, and what the rules change."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Optional

import typer

from .common import (JsonOption, SetOption, emit_json, load_or_exit, names_or_exit, refuse_directory, report_problems,
                     say, warn)


@dataclass
class Outcome:
    """The record under one ruleset: not applicable (`reason`), invalid (`error`) or valid."""

    name: str  # column name: the ruleset id (or the ref when two ids clash)
    reason: str | None = None
    without_well: bool = False  # the record's well was set aside: this ruleset has none
    error: object = None  # the first Problem
    game: object = None
    turns_played: int = 0

    @property
    def status(self) -> str:
        return "not-applicable" if self.reason else "invalid" if self.error else "valid"

    @property
    def comparable(self) -> bool:
        return self.status == "valid"


def compare(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A record/1 file, or - for stdin.")],
    rulesets: Annotated[Optional[str], typer.Option(
        "--rulesets", metavar="A,B,...", help="Rulesets to compare (ids or files, comma-separated; default: the "
        "record's own, then every built-in edition for its player count; site profiles only when named).")] = None,
    set_: SetOption = None,
    json_: JsonOption = False,
) -> None:
    """Replay one record under several rulesets: validity, scores, and what differs (tiles, legality, winner).

    Exit status: 0 when at least one ruleset replays the record without error, 1 otherwise,
    2 unusable input or usage error.
    """
    from ..errors import MedinaError
    from ..records.record import parse_record
    from ..yamlio import base_dir_of, parse_yaml, read_text

    refs = names_or_exit(rulesets, "--rulesets") if rulesets is not None else None
    refuse_directory(file, "compare takes one record file")
    try:
        name, text = read_text(file)
        data, _ = parse_yaml(text, name)
    except MedinaError as exc:
        warn(exc.problem.human())
        raise typer.Exit(2 if exc.unusable else 1)
    base_dir = base_dir_of(file)
    if not isinstance(data, dict):
        data = {}
    players = data.get("players")
    if data.get("medina") != "record/1" or not isinstance(players, list) or not isinstance(data.get("ruleset"), str):
        report_problems(parse_record(text, name, base_dir=base_dir).problems.errors)  # says what is wrong
        raise typer.Exit(1)
    refs = list(dict.fromkeys(refs)) if refs else _default_refs(data["ruleset"], len(players), base_dir)
    outcomes = _replay_all(text, name, data, refs, tuple(set_ or ()))
    diffs = _differences(outcomes, players)
    if json_:
        emit_json({"format": "medina-compare/1", "file": name, "players": players,
                   "results": [_result_json(o) for o in outcomes], "differences": diffs})
    else:
        _print(name, players, data, outcomes, diffs)
    raise typer.Exit(0 if any(o.comparable for o in outcomes) else 1)


def _default_refs(own: str, players: int, base_dir) -> list[str]:
    """The record's own ruleset first (a path taken from the record's folder), then every built-in
    edition (`kind: edition`; site profiles only when named) that supports its player count."""
    from ..rules.loader import builtin_ids, is_path
    editions = (load_or_exit(rid) for rid in builtin_ids() if rid != own)
    others = [r.id for r in editions if r.params["kind"] == "edition" and players in r.player_counts]
    return [str(base_dir / own) if is_path(own) else own, *others]


def _replay_all(text, name, data, refs, overrides) -> list[Outcome]:
    from ..records.record import parse_record
    from ..records.replay import replay

    loaded = [load_or_exit(ref, overrides) for ref in refs]
    ids = [r.id for r in loaded]
    names = ids if len(set(ids)) == len(ids) else refs
    setup = data.get("setup") if isinstance(data.get("setup"), dict) else {}
    outcomes = []
    for ref, ruleset, column in zip(refs, loaded, names):
        outcome = Outcome(column, reason=_not_applicable(ruleset, len(data["players"]), "well" in setup))
        outcomes.append(outcome)
        if outcome.reason:
            continue
        outcome.without_well = "well" in setup and not ruleset.for_players(len(data["players"])).well
        record = parse_record(text, name, ruleset=ref, overrides=overrides, ignore_well=True)
        played = replay(record, check_result=False)
        problems = sorted(played.problems, key=lambda p: (p.turn or 0, p.placement or 0))
        outcome.error = problems[0] if problems else None
        outcome.game, outcome.turns_played = played.game, played.turns_played
    return outcomes


def _not_applicable(ruleset, players: int, has_well: bool) -> str | None:
    """Why the record cannot be played under `ruleset` at all (None: it can)."""
    if players not in ruleset.player_counts:
        return f"not for {players} players"
    well = ruleset.for_players(players).well
    if well and not has_well:
        return "the ruleset needs a well; the record's setup has none"
    return None


# --- what differs ----------------------------------------------------------------------------------

def _differences(outcomes: list[Outcome], players: list[str]) -> dict:
    return {"legality": _legality(outcomes), "tiles": _tiles(outcomes, players), "winners": _winners(outcomes)}


def _legality(outcomes: list[Outcome]) -> list[dict]:
    """Each point where some ruleset stops the record: who rejects the placement there and who accepts it."""
    applicable = [o for o in outcomes if o.status != "not-applicable"]
    spots = sorted({(o.error.turn, o.error.placement) for o in applicable if o.error and o.error.turn},
                   key=lambda s: (s[0], s[1] or 0))
    out = []
    for turn, placement in spots:
        rejecting = [o for o in applicable if o.error and (o.error.turn, o.error.placement) == (turn, placement)]
        passing = [o.name for o in applicable if o.error is None or _later(o.error, turn, placement)]
        first = rejecting[0].error
        out.append({"turn": turn, "placement": placement, "player": first.player, "line": first.line,
                    "illegal_under": {o.name: {"code": o.error.code, "message": o.error.message} for o in rejecting},
                    "legal_under": passing})
    return out


def _later(problem, turn: int, placement: int | None) -> bool:
    return problem.turn is not None and (problem.turn, problem.placement or 0) > (turn, placement or 0)


def _tile_holders(game) -> dict:
    """(kind, colour or tower) -> holder name (a player, neutral or none) at the end of the game."""
    from ..engine.scoring import tile_holders
    from ..records.boardfile import holder_name

    palaces, towers = tile_holders(game)
    return {**{("palace", c): holder_name(game.players, o) for c, o in palaces.items()},
            **{("tower", t): holder_name(game.players, o) for t, o in towers.items()}}


def _tiles(outcomes: list[Outcome], players: list[str]) -> list[dict]:
    """Tiles whose holder at the end differs between the rulesets that replay the record."""
    holders = {o.name: _tile_holders(o.game) for o in outcomes if o.comparable}
    keys = list(dict.fromkeys(key for table in holders.values() for key in table))
    out = []
    for kind, key in keys:
        by_ruleset = {name: table[(kind, key)] for name, table in holders.items() if (kind, key) in table}
        if len(set(by_ruleset.values())) > 1:
            out.append({"tile": kind, ("colour" if kind == "palace" else "tower"): key, "holders": by_ruleset})
    return out


def _winners(outcomes: list[Outcome]) -> dict:
    from ..engine.scoring import score_game
    by_ruleset = {o.name: score_game(o.game).winners for o in outcomes if o.comparable}
    return {"changes": len({tuple(w) for w in by_ruleset.values()}) > 1, "by_ruleset": by_ruleset}


def _result_json(outcome: Outcome) -> dict:
    from ..engine.scoring import score_game
    return {"ruleset": outcome.name, "status": outcome.status, "reason": outcome.reason, "without_well": outcome.without_well,
            "finished": outcome.comparable and outcome.game.finished, "turns_played": outcome.turns_played,
            "error": outcome.error.to_json() if outcome.error else None,
            "score": score_game(outcome.game).to_json() if outcome.comparable else None}


# --- the table for people --------------------------------------------------------------------------

def _print(name: str, players: list[str], data, outcomes: list[Outcome], diffs: dict) -> None:
    from tabulate import tabulate

    from ..engine.scoring import score_game

    turns = data.get("turns") if isinstance(data.get("turns"), list) else []
    say(f"{name}: {len(players)} players ({', '.join(players)}), {len(turns)} turns")
    say()
    applicable = [o for o in outcomes if not o.reason]
    if applicable:
        say(tabulate([[o.name, _status_words(o)] for o in applicable], headers=["ruleset", "outcome"],
                     tablefmt="simple", maxcolwidths=[None, 90]))
    for reason in dict.fromkeys(o.reason for o in outcomes if o.reason):
        say(f"Not applicable ({reason}): {', '.join(o.name for o in outcomes if o.reason == reason)}")
    dry = [o.name for o in outcomes if o.without_well]
    if dry:
        say(f"Played without the record's well (these rulesets have none; its cell is free): {', '.join(dry)}")
    comparable = [o for o in outcomes if o.comparable]
    if not comparable:
        say()
        say("No ruleset replays the record without error: there are no scores to compare.")
        return
    sheets = {o.name: score_game(o.game) for o in comparable}
    unfinished = any(not o.game.finished for o in comparable)
    rows = [[player, *(sheets[o.name].totals[player] for o in comparable)] for player in players]
    rows.append(["leading" if unfinished else "winner", *(" and ".join(sheets[o.name].winners) for o in comparable)])
    say()
    say("Scores" + (" (standings where the record stops: it is unfinished)" if unfinished else "") + ":")
    say(tabulate(rows, headers=["player", *(o.name for o in comparable)], tablefmt="simple"))
    say()
    say("What differs:")
    for line in _difference_lines(outcomes, diffs):
        say(line)


def _status_words(outcome: Outcome) -> str:
    if outcome.error:
        e = outcome.error
        where = (f"turn {e.turn}" + (f", placement {e.placement}" if e.placement else "") + f" ({e.player})"
                 if e.turn else "the record")
        return f"invalid at {where}: {e.message} [{e.code}]"
    finished = outcome.game.finished
    return "valid, finished" if finished else f"valid, unfinished (stops after turn {outcome.turns_played})"


def _difference_lines(outcomes: list[Outcome], diffs: dict) -> list[str]:
    from tabulate import tabulate

    lines = []
    for spot in diffs["legality"]:
        where = f"turn {spot['turn']}" + (f" placement {spot['placement']}" if spot["placement"] else "")
        illegal = ", ".join(spot["illegal_under"])
        legal = f"legal under {', '.join(spot['legal_under'])}, " if spot["legal_under"] else ""
        lines.append(f"  - legality: {where} ({spot['player']}) is {legal}illegal under {illegal}")
    if not diffs["legality"]:
        lines.append("  - legality: every placement is legal under every ruleset that applies")
    comparable = [o.name for o in outcomes if o.comparable]
    if len(comparable) < 2:
        lines.append("  - tiles and winner: only one ruleset replays the record without error; nothing to compare")
        return lines
    if diffs["tiles"]:
        lines.append("  - tiles that end with someone else:")
        rows = [[f"{t['colour']} palace tile" if t["tile"] == "palace" else f"tower tile {t['tower']}",
                 *(t["holders"].get(name, "—") for name in comparable)] for t in diffs["tiles"]]
        table = tabulate(rows, headers=["tile", *comparable], tablefmt="simple")
        lines.extend("      " + row for row in table.splitlines())
    else:
        lines.append("  - tiles: every tile ends with the same holder")
    winners = diffs["winners"]["by_ruleset"]
    if diffs["winners"]["changes"]:
        by_ruleset = "; ".join(f"{' and '.join(w)} under {name}" for name, w in winners.items())
        lines.append(f"  - winner changes: {by_ruleset}")
    else:
        lines.append(f"  - winner: {' and '.join(next(iter(winners.values())))} under every ruleset compared")
    return lines
