"""Hints (the best placements for the player to move) and whole-game analysis (every placement
rated against the agent's preferred one), with the agent's value: the mover's expected final
margin over the best other player, in points.

With mcts every value is an estimate with its interval: replicated searches at the position
(`replicates.Replicates`) find the moves in contention, the played move among them, and value each by
searches of the position after it; the preferred move is chosen on the first replicates, and the moves
tied with it and the loss (the paired difference between the preferred and the played move) rest on
fresh ones; the placement is a mistake (a blunder) only when the loss's interval's lower end reaches
MISTAKE (BLUNDER)."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

from ..engine import native
from ..engine.placement import TEA
from .base import Rating, UnknownAgent
from .position import SMALL_PALACE, margin, outcome, playout, roof_palace, search_position, stream
from .replicates import TIE_MARGIN, Replicates, Run, tied_series
from .search import MctsAgent
from .specs import make_agent

RATERS = "greedy, mcts, mcts:N or alphabeta"  # the agents that rate placements


def rating_agent(spec: str, seed: int | str = 0):
    """The agent `spec` names, to rate placements for hints and analysis: UnknownAgent for one that does not
    rate, or for `mcts` on a budget of seconds (the replicated searches split a budget of playouts)."""
    agent = make_agent(spec, seed)
    if not agent.rates:
        raise UnknownAgent(f"{spec} does not rate placements; use {RATERS}")
    if isinstance(agent, MctsAgent) and agent.seconds:
        raise UnknownAgent(
            f"agent {spec!r}: hints and analysis take a budget of playouts (mcts:N), not of seconds"
        )
    return agent


MISTAKE = 5.0  # a loss of at least this many points of expected margin is a mistake
BLUNDER = 12.0  # ... and of at least this many a blunder


def hints(game, spec: str, *, seed: int = 0, top: int = 5) -> list[Rating]:
    """The agent's `top` moves for the player to move, in the order `advise` says (its `ranked_by`), a
    roof naming the palace it claims."""
    return advise(game, spec, seed=seed, top=top).hints


@dataclass
class Advice:
    """What the agent advises for the player to move: its best moves (or whole turns), in the order
    `ranked_by` says; for a search, the descents it made in all (`playouts`), whether it was sure of its
    best (`Replicates.sure`) and the points by which the best must be surely better than a move not to be
    tied with it (`tie_margin`)."""

    player: str | None
    ranked_by: str | None
    confidence: float | None
    hints: list
    whole_turn: bool = False
    playouts: int | None = None
    sure: bool | None = None
    tie_margin: float | None = None
    seats: int | None = None  # players in the game (None: it is over)
    even: float | None = None  # with a search: `even_margin` at the position

    def to_json(self) -> dict:
        search = None if self.playouts is None else {"playouts": self.playouts, "sure": self.sure}
        return {
            "player": self.player,
            "ranked_by": self.ranked_by,
            "confidence": self.confidence,
            "whole_turn": self.whole_turn,
            "search": search,
            "tie_margin": self.tie_margin,
            "hints": [h.to_json() for h in self.hints],
        }


def advise(
    game,
    spec: str,
    *,
    seed: int | str = 0,
    top: int = 5,
    whole_turn: bool = False,
    play: Run | None = None,
) -> Advice:
    """The agent's advice for the player to move at `game` (none when the game is over): its `top`
    moves, or with `whole_turn` its `top` best turns (both placements, best value first). `play`: how
    its searches are made (`Replicates`' `run`)."""
    agent = rating_agent(spec, seed)
    ranked_by = "repeats" if agent.estimates else "value" if whole_turn else agent.ranked_by
    if game.is_over():
        return Advice(None, ranked_by, agent.confidence, [], whole_turn)
    if whole_turn:
        advice = turn_hints(game, spec, seed=seed, top=top, play=play)
        advice.seats = len(game.players)
        advice.even = even_margin(game) if agent.estimates else None
        return advice
    if not isinstance(agent, MctsAgent):
        rated, playouts, sure = agent.rate(game)[:top], None, None
    else:
        replicates = replicated(game, agent, seed, top=top, run=play)
        rated = value_first(replicates.ratings(top))
        playouts, sure = replicates.playouts, replicates.sure
    for rating in rated:
        rating.palace = roof_palace(game, rating.placement)
    return Advice(
        game.to_move,
        ranked_by,
        agent.confidence,
        rated,
        False,
        playouts,
        sure,
        TIE_MARGIN if agent.estimates else None,
        len(game.players),
        even_margin(game) if agent.estimates else None,
    )


def replicated(game, agent: MctsAgent, seed: int | str, **options) -> Replicates:
    """The replicated searches at `game` for `agent`'s budget and confidence (`Replicates`' options)."""
    return Replicates(
        game, budget=agent.playouts, confidence=agent.confidence, seed=seed, **options
    )


def value_first(ratings: list[Rating]) -> list[Rating]:
    """`ratings` highest value first (the value printed, so that a list follows what it shows; the first
    of equal values keeps its place), a move whose interval lies wholly below the first's no longer
    tied with it, whatever the paired test said."""
    ordered = sorted(ratings, key=lambda rating: -rating.value)
    if ordered and ordered[0].interval is not None:
        floor = ordered[0].interval[0]
        for rating in ordered[1:]:
            if rating.tied and rating.interval is not None and rating.interval[1] < floor:
                rating.tied = False
    if ordered and ordered[0].tied is not None:
        ordered[0].tied = True
    return ordered


@dataclass
class TurnHint:
    """A whole turn: `first`, rated as the pair is (the best the agent finds after it), and `then`, its best
    second placement (None when the turn allows one placement only)."""

    first: Rating
    then: Rating | None
    either_order: bool = (
        False  # the two placements commute: the other order reaches the same position
    )

    def to_json(self) -> dict:
        then = (
            None
            if self.then is None
            else {
                key: value
                for key, value in self.then.to_json().items()
                if key in ("placement", "palace")
            }
        )
        return {
            **self.first.to_json(),
            "then": then,
            **({"either_order": True} if self.either_order else {}),
        }


def turn_hints(
    game, spec: str, *, seed: int | str = 0, top: int = 5, play: Run | None = None
) -> Advice:
    """The agent's best whole turns for the player to move: the `top` first placements `advise` would
    list, each with the best second placement after it (replicated searches of their own), the pair rated
    on that move's fresh replicates (a first placement that ends the turn on its own), highest value
    first (`value_first`), tied with the best pair (the highest mean on its first replicates) as
    `tied_series` says, the two orders of a turn whose placements commute merged."""
    agent = rating_agent(spec, seed)
    if not isinstance(agent, MctsAgent):
        return Advice(game.to_move, "value", None, _exact_turns(game, agent, spec, seed, top), True)
    assert agent.confidence is not None
    firsts = replicated(game, agent, seed, top=top, run=play)
    # (the pair as a Rating, then or None, its replicates' values)
    pairs: list[tuple[Rating, Rating | None, list[float]]] = []
    playouts, sure = firsts.playouts, firsts.sure
    for first in firsts.listed(top):
        after = _after(game, first)
        if after is None:
            pairs.append((firsts.rating(first), None, firsts.values[first]))
            continue
        seconds = replicated(after, agent, seed, run=play)
        pair = seconds.rating(seconds.best)
        then = Rating(pair.placement, pair.value, palace=roof_palace(after, pair.placement))
        pairs.append(
            (
                Rating(first, pair.value, pair.win, pair.playouts, interval=pair.interval),
                then,
                seconds.values[seconds.best],
            )
        )
        playouts, sure = playouts + seconds.playouts, sure and seconds.sure
    _, tied = tied_series([means for *_, means in pairs], agent.confidence)
    for (rating, _, _), is_tied in zip(pairs, tied, strict=True):
        rating.palace, rating.tied = roof_palace(game, rating.placement), is_tied
    by_first = {id(rating): (rating, then) for rating, then, _ in pairs}
    turns = [
        TurnHint(*by_first[id(rating)]) for rating in value_first([rating for rating, *_ in pairs])
    ]
    turns = merged_orders(game, turns)
    return Advice(
        game.to_move,
        "repeats",
        agent.confidence,
        turns,
        True,
        playouts,
        sure,
        TIE_MARGIN,
    )


def _reached(game, first, then) -> dict:
    """The position after the turn `first`, `then` as the engine gives it (`to_plain`, turn state
    included), the order of the mover's own claims in this turn left out: the tie-break compares a
    player's earliest claim with the other players' claims, and no claim of theirs can fall between two
    claims of one turn, so that order decides nothing."""
    claims_before = game.to_plain()["claims"]
    after = game.copy()
    after.push(first)
    after.push(then)
    plain = after.to_plain()
    plain["palaces"] = tuple(
        palace[:5]
        + ("this turn" if palace[5] is not None and palace[5] >= claims_before else palace[5],)
        + palace[6:]
        for palace in plain["palaces"]
    )
    return plain


def best_line(game, opening: list[str], spec: str, seed: int | str, length: int) -> list[dict]:
    """The line of best play from `game`: the `opening` placements (the move or turn a hint lists first),
    then `length` placements more, each the choice of the agent `spec` (seeded by its place in the line),
    fewer where the game ends; each as {"player", "placement"}."""
    after = game.copy()
    line = []
    for index in range(len(opening) + length):
        if after.is_over():
            break
        player = after.to_move
        placement = (
            opening[index]
            if index < len(opening)
            else rating_agent(spec, f"{seed}/line/{index}").choose(after)
        )
        line.append({"player": player, "placement": str(placement)})
        after.push(placement)
    return line


def _exact_turns(game, agent, spec: str, seed: int | str, top: int) -> list[TurnHint]:
    """Whole turns by an agent whose values are exact (greedy)."""
    out = []
    for index, first in enumerate(agent.rate(game)[:top]):
        after = _after(game, first.placement)
        then = None if after is None else rating_agent(spec, f"{seed}/{index}").rate(after)[0]
        if then is not None:
            then.palace = roof_palace(after, then.placement)
        out.append(
            TurnHint(
                Rating(
                    first.placement,
                    first.value if then is None else then.value,
                    palace=roof_palace(game, first.placement),
                ),
                then,
            )
        )
    out.sort(key=lambda hint: -hint.first.value)
    for hint in out:
        hint.first.tied = hint.first.value == out[0].first.value
    return merged_orders(game, out)


def merged_orders(game, turns: list[TurnHint]) -> list[TurnHint]:
    """`turns` with each turn whose two placements commute listed once: a turn that reaches the same
    position (`_reached`) as one listed before it is left out, and that one is marked `either_order`."""
    kept: list[tuple[TurnHint, dict | None]] = []
    for hint in turns:
        reached = (
            None if hint.then is None else _reached(game, hint.first.placement, hint.then.placement)
        )
        same = next(
            (earlier for earlier, plain in kept if reached is not None and plain == reached), None
        )
        if same is None:
            kept.append((hint, reached))
        else:
            same.either_order = True
    return [hint for hint, _ in kept]


def _after(game, placement):
    """The game after `placement` when the mover's turn goes on (a second placement to choose), else None."""
    mover = game.seat_to_move
    after = game.copy()
    after.push(placement)
    return after if after.seat_to_move == mover and after.turn_open() else None


def verdict(low: float) -> str | None:
    """ "blunder", "mistake" or None for a loss whose interval's lower end is `low` (the loss itself,
    where it is exact)."""
    return "blunder" if low >= BLUNDER else "mistake" if low >= MISTAKE else None


@dataclass
class PlacementReview:
    turn: int
    placement: int  # 1 or 2 within the turn
    player: str
    played: str
    best: str
    loss: float  # expected margin lost by `played` against `best`, in points, >= 0
    played_value: float
    best_value: float
    choices: int  # legal placements there
    loss_interval: tuple[float, float] | None = (
        None  # of the paired difference best − played; None: exact
    )
    paired: int = 0  # samples of each the loss rests on (0: exact)
    best_move: str = (
        ""  # the preferred move as the agent names it (a roof on its palace's lowest cell)
    )
    tied_moves: tuple[str, ...] = ()  # the moves tied with it, so named (it among them)

    @property
    def verdict(self) -> str | None:
        return verdict(self.loss if self.loss_interval is None else self.loss_interval[0])

    def to_json(self) -> dict:
        interval = None if self.loss_interval is None else [round(x, 2) for x in self.loss_interval]
        return {
            "turn": self.turn,
            "placement": self.placement,
            "player": self.player,
            "played": self.played,
            "best": self.best,
            "loss": round(self.loss, 2),
            "played_value": round(self.played_value, 2),
            "best_value": round(self.best_value, 2),
            "choices": self.choices,
            "loss_interval": interval,
            "paired_playouts": self.paired,
            "verdict": self.verdict,
        }


@dataclass
class PlayerSummary:
    player: str
    placements: int
    mean_loss: float
    mistakes: int
    blunders: int
    mean_loss_interval: tuple[float, float] | None = None
    tea_tiles: int = (
        0  # of `placements`, those that are tea tiles (`validate` counts the others as placements)
    )

    def to_json(self) -> dict:
        interval = (
            None
            if self.mean_loss_interval is None
            else [round(x, 2) for x in self.mean_loss_interval]
        )
        return {
            "player": self.player,
            "placements": self.placements,
            "mean_loss": round(self.mean_loss, 2),
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "mean_loss_interval": interval,
            "tea_tiles": self.tea_tiles,
        }


def review_position(game, played, spec: str, seed, where: tuple[int, int, str]) -> PlacementReview:
    """The review of `played` at `game`, placement `where` = (turn, placement within it, player): the
    agent's preferred move (named as played when it is the same move, a roof on the same palace) and
    the loss."""
    turn, placement, player = where
    blank: dict[str, Any] = {
        "turn": turn,
        "placement": placement,
        "player": player,
        "played": str(played),
        "choices": len(game.legal_placements()),
    }
    same = game.equivalent_placements(played)
    if len(game.distinct_placements()) == 1:
        return PlacementReview(
            **blank,
            best=str(played),
            loss=0.0,
            played_value=0.0,
            best_value=0.0,
            best_move=str(same[0]),
            tied_moves=(str(same[0]),),
        )
    agent = rating_agent(spec, seed)
    if not isinstance(agent, MctsAgent):  # greedy: exact values
        ratings = agent.rate(game)
        mine = next(r for r in ratings if r.placement in same)
        best = mine if ratings[0].placement in same else ratings[0]
        return PlacementReview(
            **blank,
            best=str(played if best is mine else best.placement),
            loss=max(0.0, best.value - mine.value),
            played_value=mine.value,
            best_value=best.value,
            best_move=str(best.placement),
            tied_moves=tuple(str(r.placement) for r in ratings if r.tied),
        )
    replicates = replicated(game, agent, seed, include=played)
    own, chosen, tied = replicates.included, replicates.best, replicates.tied()
    named: dict[str, Any] = {
        "best_move": str(chosen),
        "tied_moves": tuple(str(move) for move in replicates.candidates if move in tied),
    }
    if own == chosen:
        value = replicates.value(chosen)
        return PlacementReview(
            **blank,
            best=str(played),
            loss=0.0,
            played_value=value,
            best_value=value,
            loss_interval=(0.0, 0.0),
            paired=replicates.rating(chosen).playouts,
            **named,
        )
    loss = replicates.loss(own)
    return PlacementReview(
        **blank,
        best=str(chosen),
        loss=max(0.0, loss.mean),
        played_value=replicates.value(own),
        best_value=replicates.value(chosen),
        loss_interval=(loss.low, loss.high),
        paired=loss.n,
        **named,
    )


def review_placements(context: tuple, start: int, stop: int) -> list[PlacementReview]:
    """Worker entry: review placements `start..stop-1` of the record in `context` (record, agent spec,
    seed), each seeded by its index, so the result does not depend on how the work is split."""
    record, spec, seed = context
    placements = record.placements()
    game = record.start_game()
    for *_, placement in placements[:start]:
        game.push(placement)
    out = []
    for index in range(start, stop):
        turn, within, player, played = placements[index]
        out.append(review_position(game, played, spec, f"{seed}/{index}", (turn, within, player)))
        game.push(played)
    return out


def summarise(players: list[str], reviews: list[PlacementReview]) -> list[PlayerSummary]:
    """Per player: placements, mean loss (with its interval where the losses are estimates: their
    intervals' half-widths combined as independent errors), mistakes and blunders (by verdict)."""
    out = []
    for player in players:
        mine = [r for r in reviews if r.player == player]
        count = len(mine)
        mean = sum(r.loss for r in mine) / count if count else 0.0
        interval = None
        if any(r.loss_interval is not None for r in mine):
            halves = [
                (r.loss_interval[1] - r.loss_interval[0]) / 2
                for r in mine
                if r.loss_interval is not None
            ]
            half = math.sqrt(sum(h * h for h in halves)) / count
            interval = (max(0.0, mean - half), mean + half)
        verdicts = [r.verdict for r in mine]
        out.append(
            PlayerSummary(
                player,
                count,
                mean,
                verdicts.count("mistake"),
                verdicts.count("blunder"),
                interval,
                sum(r.played == TEA for r in mine),
            )
        )
    return out


VALUE_MEANING = (
    "the final margin the mover can expect (own total minus the best other player's, in points); "
    "win: the estimated chance to win"
)
GREEDY_MEANING = (
    "the mover's margin (own total minus the best other player's) if the game ended right after; a "
    f"roof on a palace smaller than {SMALL_PALACE}: the margin now minus 1 (greedy keeps its roofs for "
    "larger palaces)"
)


def value_meaning(spec: str) -> str:
    return GREEDY_MEANING if spec == "greedy" else VALUE_MEANING


RANKING_MEANING = {  # how `medina hint` words its advice's `ranked_by`
    "value": "the highest first",
    "repeats": "the highest value first (the moves the searches of the position visited most); a value is "
    "the mean of replicated searches of the position after the move, seeded alike for every move, "
    "apart from those the best was chosen on",
}


def hint_document(
    file: str,
    seed: int | str,
    spec: str | None = None,
    where: tuple = (None, None),
    advice: Advice | None = None,
) -> dict:
    """The medina-hint/1 document (without `errors` and `warnings`) of the `advice` the agent `spec` gives
    for the record `file` at `where` (turn, placement); before it, as far as it is known (what an error
    leaves it at)."""
    doc: dict[str, object] = {
        "format": "medina-hint/1",
        "file": file,
        "agent": spec,
        "seed": seed,
        "player": None,
        "turn": None,
        "placement": None,
        "value": None if spec is None else value_meaning(spec),
        "ranked_by": None,
        "hints": [],
    }
    if advice is None:
        return doc
    return {
        **doc,
        "turn": where[0],
        "placement": where[1],
        "engine": native.engine_name(),
        **advice.to_json(),
        "even_win": even_win(advice.seats),
        "even_margin": None if advice.even is None else round(advice.even, 2),
    }


EVEN_PLAYOUTS = 512  # the simulated games behind `even_margin`
EVEN_KEY = 0x6576656E  # their streams: apart from any search's ("even")


def even_margin(game, playouts: int = EVEN_PLAYOUTS) -> float:
    """The margin an even game gives each player at `game`: over `playouts` games played out from it by the
    searches' playout policy, the mean over the seats of each seat's final margin (own total minus the best
    other player's). A move's value minus this reads 0 where it leaves the mover as well placed as an equal
    share would (in a game of three or four players the margin of an equal share is below 0)."""
    seats = len(game.players)
    total = 0.0
    for k in range(playouts):
        rng = stream(EVEN_KEY, k)
        position = search_position(game, rng).copy()
        playout(position, rng)
        scores, _ = outcome(position)
        total += sum(margin(scores, seat) for seat in range(seats)) / seats
    return total / playouts


def even_win(seats: int | None) -> float | None:
    """The chance to win that an even game gives each of `seats` players (None: the game is over)."""
    return None if not seats else round(1 / seats, 4)


def analysis_document_before(file: str, seed: int, spec: str | None = None) -> dict:
    """The medina-analyse/1 document as far as it is known before the analysis (what an error leaves it at)."""
    return {
        "format": "medina-analyse/1",
        "file": file,
        "agent": spec,
        "seed": seed,
        "value": None if spec is None else value_meaning(spec),
        "thresholds": {"mistake": MISTAKE, "blunder": BLUNDER},
        "placements": [],
        "players": [],
    }


def analysis_document(
    record,
    spec: str,
    seed: int,
    reviews: list[PlacementReview],
    selection: dict | None = None,
    selected: int | None = None,
) -> dict:
    """The medina-analyse/1 document of a record's reviews; `selection` the turns and player asked for
    (`select`; its key only when one is given: the players summed up are then those it selects);
    `selected` the placements it selects, where fewer are reviewed yet (a partial document, with what
    `resumed_reviews` needs to go on)."""
    player = (selection or {}).get("player")
    doc = {
        "format": "medina-analyse/1",
        "file": record.file,
        "agent": spec,
        "seed": seed,
        "engine": native.engine_name(),
        "value": value_meaning(spec),
        "thresholds": {"mistake": MISTAKE, "blunder": BLUNDER},
        "confidence": rating_agent(spec).confidence,
        "placements": [r.to_json() for r in reviews],
        "players": [
            p.to_json() for p in summarise(record.players if player is None else [player], reviews)
        ],
    }
    if selection:
        doc["selection"] = selection
    if selected is not None and len(reviews) < selected:
        doc["partial"] = {
            "rated": len(reviews),
            "of": selected,
            "reviews": [[getattr(r, f.name) for f in fields(r)] for r in reviews],
        }
    return doc


def select(
    record, first: int | None = None, last: int | None = None, player: str | None = None
) -> tuple[dict, list[int]]:
    """The selection (its document form, None values left out) and the indices into
    `record.placements()` of the placements of turns `first..last` (inclusive; None: from the start, to
    the end) made by `player` (None: anyone)."""
    selection = {
        key: value
        for key, value in (("from", first), ("to", last), ("player", player))
        if value is not None
    }
    indices = [
        index
        for index, (turn, _, who, _) in enumerate(record.placements())
        if (first is None or turn >= first)
        and (last is None or turn <= last)
        and player in (None, who)
    ]
    return selection, indices


def resumed_reviews(
    doc: dict, record, spec: str, seed: int, selection: dict
) -> list[PlacementReview] | str | None:
    """The reviews a partial medina-analyse/1 document holds (None: it is finished), or why it cannot be
    resumed on `record` with this agent, seed and selection."""
    if not isinstance(doc, dict) or doc.get("format") != "medina-analyse/1":
        return "not a medina-analyse/1 document"
    if not isinstance(doc.get("selection", {}), dict):
        return "its selection is damaged"
    theirs = {"agent": doc.get("agent"), "seed": doc.get("seed"), **doc.get("selection", {})}
    ours = {"agent": spec, "seed": seed, **selection}
    differ = [
        _differing(key, theirs.get(key), ours.get(key))
        for key in dict.fromkeys([*theirs, *ours])
        if theirs.get(key) != ours.get(key)
    ]
    if differ:
        return f"it was written with {'; '.join(differ)}"
    engine = doc.get(
        "engine"
    )  # a document written before engines were recorded: unknown, not different
    if engine is not None and engine != native.engine_name():
        return (
            f"it was written on the {engine} engine, not the {native.engine_name()} engine "
            f"(MEDINA_ENGINE={engine} resumes it)"
        )
    played = {(turn, k): str(placement) for turn, k, _, placement in record.placements()}
    for review in doc.get("placements", []):
        if not isinstance(review, dict) or played.get(
            (review.get("turn"), review.get("placement"))
        ) != review.get("played"):
            return f"it rates {review.get('played')!r} in turn {review.get('turn')}, which {record.file} does not have"
    if "partial" not in doc:
        return None
    try:
        return [_review_from_values(values) for values in doc["partial"]["reviews"]]
    except (KeyError, TypeError, ValueError):
        return "its partial reviews are damaged"


def _differing(key: str, theirs, ours) -> str:
    """How an option of `medina analyse` (agent, seed, from, to, player) a document was written with
    differs from the one given, as a user types them: "--agent mcts:20, not mcts:30"."""
    if theirs is None:
        return f"without --{key}, not --{key} {ours}"
    return f"--{key} {theirs}, not {'without it' if ours is None else ours}"


def _review_from_values(values: list) -> PlacementReview:
    """A review from its fields' values in order (a partial document's `reviews`)."""
    review = PlacementReview(*values)
    if review.loss_interval is not None:
        low, high = review.loss_interval
        review.loss_interval = (low, high)
    review.tied_moves = tuple(review.tied_moves)
    return review
