"""A self-contained HTML replay viewer: every turn's board as inline SVG, the event log and the
running scores, stepped with buttons, the arrow keys or a slider. No network, no external assets.

Each frame's SVG sits in a `<template>` (parsed once, shown by cloning); frames in a row that show
the same picture (passes change nothing) share one, so that the page grows with the turns by their
text alone. The rest of the data is JSON in a `<script>` with every `<` escaped, so no player name
can end the script early.
"""

from __future__ import annotations

import json
import os
import re
from html import escape

from ..engine.scoring import score_game
from ..version import __version__
from . import svg
from .analysis import chart_svg, frame_notes
from .frames import Frame, all_frames, placement_frames
from .text import render_board

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="medina-cli @@VERSION@@">
<title>@@TITLE@@</title>
<style>
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 0; background: #faf6ec; color: #222; }
header { padding: 10px 18px; background: #4a4036; color: #fff; }
header h1 { font-size: 20px; margin: 0 0 4px; }
header p { margin: 0; font-size: 14px; }
#problems { margin: 10px 18px 0; padding: 8px 12px; border: 2px solid #d00000; background: #fff0f0; }
#problems p { margin: 4px 0; }
#problems.none { display: none; }
main { display: flex; flex-wrap: wrap; gap: 18px; padding: 12px 18px; align-items: flex-start; }
#stage { flex: 1 1 640px; max-width: 900px; }
#board svg, #legend svg { width: 100%; height: auto; display: block; }
#controls { display: flex; align-items: center; gap: 6px; margin: 8px 0; }
#controls button { min-width: 44px; padding: 4px 8px; cursor: pointer; }
#controls button svg { fill: currentColor; display: block; margin: auto; }
#controls input { flex: 1; }
#play .when-playing, #play[aria-pressed="true"] .when-paused { display: none; }
#play[aria-pressed="true"] .when-playing { display: block; }
#position { min-width: 90px; text-align: right; font-variant-numeric: tabular-nums; }
#heading { font-weight: bold; margin: 4px 0 8px; min-height: 1.3em; }
#heading.stop { color: #b00000; }
aside { flex: 0 1 340px; min-width: 280px; }
aside h2 { font-size: 16px; margin: 6px 0; }
#scores { border-collapse: collapse; width: 100%; margin-bottom: 12px; }
#scores th, #scores td { padding: 3px 6px; border-bottom: 1px solid #d8cbb5; text-align: left; }
#scores td.points { text-align: right; font-weight: bold; font-variant-numeric: tabular-nums; }
#scores td.delta { color: #00876a; width: 3em; font-variant-numeric: tabular-nums; }
#scores td.tiles { font-size: 12px; color: #555; }
#scores td.name { white-space: nowrap; }
#scores tr.lead td.name { font-weight: bold; }
#scores svg { width: 24px; height: 20px; vertical-align: middle; }
#log { max-height: 60vh; overflow-y: auto; margin: 0; padding: 0 0 0 2.6em; font-size: 13px;
       background: #fff; border: 1px solid #d8cbb5; }
#log li { padding: 2px 4px; cursor: pointer; }
#log li.current { background: #fde9b0; }
#log li ul { margin: 0; padding-left: 1.2em; color: #444; list-style: "\\2022  "; }
#log li.stop { color: #b00000; }
footer { padding: 6px 18px 16px; font-size: 12px; color: #555; }
#analysis svg { width: 100%; height: auto; display: block; background: #fff; border: 1px solid #d8cbb5; }
#advice { font-size: 13px; margin: 4px 0 8px; min-height: 1.3em; }
kbd { border: 1px solid #999; border-radius: 3px; padding: 0 3px; background: #fff; }
</style>
</head>
<body>
<header><h1>@@TITLE@@</h1><p>@@SUBTITLE@@</p></header>
<div id="problems" class="@@PROBLEM_CLASS@@" role="alert">@@PROBLEMS@@</div>
<main>
<section id="stage" aria-label="board">
<div id="heading" aria-live="polite"></div>
<div id="board"></div>
<div id="controls">
<button id="first" type="button" title="First (Home)" aria-label="first turn">\
<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M2 3h3v14H2zM11 3v14L5 10zM18 3v14l-7-7z"/>\
</svg></button>
<button id="prev" type="button" title="Previous (Left arrow)" aria-label="previous turn">\
<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M13 3v14L4 10zM14 3h3v14h-3z"/></svg>\
</button>
<button id="play" type="button" title="Play / pause (Space)" aria-label="play" aria-pressed="false">\
<svg class="when-paused" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M5 3v14l12-7z"/></svg>\
<svg class="when-playing" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">\
<path d="M4 3h4v14H4zM12 3h4v14h-4z"/></svg></button>
<button id="next" type="button" title="Next (Right arrow)" aria-label="next turn">\
<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M3 3h3v14H3zM7 3v14l9-7z"/></svg></button>
<button id="last" type="button" title="Last (End)" aria-label="last turn">\
<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M2 3v14l7-7zM9 3v14l7-7zM15 3h3v14h-3z"/>\
</svg></button>
<select id="speed" title="Playing speed" aria-label="playing speed">
<option value="2000">0.5 turns/s</option><option value="1000" selected>1 turn/s</option>
<option value="500">2 turns/s</option><option value="250">4 turns/s</option><option value="100">10 turns/s</option>
</select>
<input id="slider" type="range" min="0" max="@@LAST@@" value="0" aria-label="turn">
<span id="position"></span>
</div>
@@ANALYSIS@@
<div id="legend">@@LEGEND@@</div>
</section>
<aside>
<h2>Scores</h2>
<table id="scores"><thead><tr><th></th><th>Player</th><th>Points</th><th></th><th>Tiles</th></tr></thead>
<tbody>@@SCORE_ROWS@@</tbody></table>
<h2>Turns and events</h2>
<ol id="log" start="0"></ol>
</aside>
</main>
<footer>Play and pause with the play button or <kbd>Space</kbd> (at the speed chosen beside it);
step with the buttons, the slider or the keys <kbd>&larr;</kbd> <kbd>&rarr;</kbd>
(<kbd>PgUp</kbd> <kbd>PgDn</kbd>: 10 turns, <kbd>Home</kbd> <kbd>End</kbd>: first and last).
Click a turn in the log to jump to it. Made by medina-cli @@VERSION@@.</footer>
@@TEMPLATES@@
<script type="application/json" id="frames">@@FRAMES@@</script>
<script>
"use strict";
const frames = JSON.parse(document.getElementById("frames").textContent);
const $ = (id) => document.getElementById(id);
const board = $("board"), slider = $("slider"), heading = $("heading"), log = $("log");
const rows = Array.from(document.querySelectorAll("#scores tbody tr"));
const items = frames.map((frame, i) => {
  const li = document.createElement("li");
  li.value = frame.turn;
  li.textContent = frame.line;
  if (frame.stop) li.classList.add("stop");
  if (frame.events.length) {
    const ul = document.createElement("ul");
    for (const text of frame.events) {
      const item = document.createElement("li");
      item.textContent = text;
      ul.appendChild(item);
    }
    li.appendChild(ul);
  }
  li.addEventListener("click", () => show(i));
  log.appendChild(li);
  return li;
});
let current = -1;
function show(index) {
  index = Math.max(0, Math.min(frames.length - 1, index));
  if (index === current) return;
  current = index;
  const frame = frames[index];
  board.replaceChildren($("frame-" + frame.board).content.cloneNode(true));
  heading.textContent = frame.heading;
  heading.classList.toggle("stop", Boolean(frame.stop));
  slider.value = String(index);
  $("position").textContent = index + " / " + (frames.length - 1);
  $("first").disabled = $("prev").disabled = index === 0;
  $("next").disabled = $("last").disabled = index === frames.length - 1;
  const best = Math.max(...frame.scores);
  rows.forEach((row, seat) => {
    const before = index > 0 ? frames[index - 1].scores[seat] : frame.scores[seat];
    const delta = frame.scores[seat] - before;
    row.querySelector(".points").textContent = frame.scores[seat];
    row.querySelector(".delta").textContent = delta ? (delta > 0 ? "+" : "") + delta : "";
    row.querySelector(".tiles").textContent = frame.tiles[seat];
    row.classList.toggle("lead", frame.scores[seat] === best && best > 0);
  });
  if ("cursor" in frame) {
    for (const end of ["x1", "x2"]) $("analysis-cursor").setAttribute(end, frame.cursor);
    $("advice").textContent = frame.advice;
  }
  items.forEach((li, i) => { li.hidden = i > index; li.classList.toggle("current", i === index); });
  items[index].scrollIntoView({block: "nearest"});
  history.replaceState(null, "", "#turn-" + index);
}
$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(current - 1));
$("next").addEventListener("click", () => show(current + 1));
const play = $("play"), speed = $("speed");
let timer = null;
function pause() {
  clearInterval(timer);
  timer = null;
  play.setAttribute("aria-pressed", "false");
  play.setAttribute("aria-label", "play");
}
function playOn() {
  if (current === frames.length - 1) show(0);
  clearInterval(timer);
  timer = setInterval(() => { show(current + 1); if (current === frames.length - 1) pause(); },
                      Number(speed.value));
  play.setAttribute("aria-pressed", "true");
  play.setAttribute("aria-label", "pause");
}
play.addEventListener("click", () => (timer ? pause() : playOn()));
speed.addEventListener("change", () => { if (timer) playOn(); });
$("last").addEventListener("click", () => show(frames.length - 1));
slider.addEventListener("input", () => show(Number(slider.value)));
const jump = $("jump-stop");
if (jump) jump.addEventListener("click", () => show(frames.length - 1));
document.addEventListener("keydown", (event) => {
  if (event.target === slider || event.target === speed || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === " " && event.target.tagName !== "BUTTON") {
    timer ? pause() : playOn();
    event.preventDefault();
    return;
  }
  const steps = {ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10};
  if (event.key in steps) show(current + steps[event.key]);
  else if (event.key === "Home") show(0);
  else if (event.key === "End") show(frames.length - 1);
  else return;
  event.preventDefault();
});
const start = /^#turn-(\\d+)$/.exec(location.hash);
show(start ? Number(start[1]) : 0);
</script>
</body>
</html>
"""


def _json_for_script(data) -> str:
    """JSON that cannot close or confuse the surrounding <script> element."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def _tile_words(player, tea: int) -> str:
    words = []
    if player.palace_tiles:
        words.append("palace " + ", ".join(player.palace_tiles))
    if player.tower_tiles:
        words.append("tower " + ", ".join(map(str, player.tower_tiles)))
    if tea:
        words.append(f"{tea} tea")
    return "; ".join(words)


def _frame_data(record, frame: Frame, count: int, sheet) -> dict:
    game = frame.game
    if frame.turn == 0:
        setup = record.setup
        line = (
            "Setup: start merchant "
            + setup["merchant"]
            + (f", well {setup['well']}" if setup["well"] else "")
        )
    else:
        entry = record.turns[frame.turn - 1]
        tokens = record.tokens(entry)
        step = ""
        if frame.placement is not None:
            step = f", placement {frame.placement} of {len(tokens)}"
            tokens = tokens[frame.placement - 1 : frame.placement]
        line = f"{entry.player}: {', '.join(tokens)}"
    if frame.stop is not None:
        heading = f"Turn {frame.turn}, {line}. Replay stopped here: {frame.stop.message} [{frame.stop.code}]"
    else:
        state = (
            f"the game is over: {_result(sheet)}" if game.is_over() else f"{game.to_move} to move"
        )
        heading = (
            f"Turn {frame.turn} of {count}{step}, {line}; {state}"
            if frame.turn
            else f"{line}; {state}"
        )
    return {
        "turn": frame.turn,
        "line": line,
        "heading": heading,
        "stop": frame.stop is not None,
        "events": [str(event) for event in frame.events]
        + (
            [f"replay stopped: {frame.stop.message} [{frame.stop.code}]"]
            if frame.stop is not None
            else []
        ),
        "scores": [p.total for p in sheet.players],
        "tiles": [
            _tile_words(p, tea)
            for p, tea in zip(sheet.players, game.tea or [0] * len(sheet.players), strict=True)
        ],
    }


def _same_pictures(frames: list[Frame], notes: list[dict]) -> list[tuple[int, int]]:
    """The runs (first, last) of frames in a row that show the same picture: the same game object (a
    pass shares the one before it), nothing placed, no stop and the same preferred placement."""
    runs: list[tuple[int, int]] = []
    for index, frame in enumerate(frames):
        if (
            runs
            and not frame.placed
            and frame.stop is None
            and frame.game is frames[index - 1].game
            and not frames[index - 1].placed
            and notes[index].get("preferred") == notes[index - 1].get("preferred")
        ):
            runs[-1] = (runs[-1][0], index)
        else:
            runs.append((index, index))
    return runs


def _result(sheet) -> str:
    """Who won, in words: "Anna wins with 35 points", "Anna and Ben share the win with 30 points"."""
    best = max(sheet.totals.values())
    if len(sheet.winners) == 1:
        return f"{sheet.winners[0]} wins with {best} points"
    return (
        f"{', '.join(sheet.winners[:-1])} and {sheet.winners[-1]} share the win with {best} points"
    )


def viewer_html(outcome, analysis: dict | None = None) -> str:
    """The viewer page for a replayed record (`outcome` from `records.replay.replay`); with `analysis`
    (a medina-analyse/1 document of that record) also its chart and the agent's preferred placements."""
    record = outcome.record
    frames = all_frames(outcome)
    count = len(record.turns)
    keys = [(turn, placement) for turn, placement, *_ in record.placements()]
    if analysis:
        frames = placement_frames(outcome, frames)  # the chart's axis: a step per placement
    notes = (
        frame_notes(analysis, [(f.turn, f.placement) for f in frames], keys)
        if analysis
        else [{} for _ in frames]
    )
    templates, data = [], []
    sheet = None
    for first, last in _same_pictures(frames, notes):
        frame, game = frames[first], frames[first].game
        where = f"after turn {frame.turn}" if frame.turn else "at the start"
        if frame.placement is not None:
            where = f"after placement {frame.placement} of turn {frame.turn}"
        if frame.stop is not None:
            where = f"where replay stopped, in turn {frame.turn}"
        elif last > first:
            where = f"after turns {frame.turn} to {frames[last].turn}"
        preferred = notes[first].get("preferred")
        if preferred is not None:
            preferred = (game.variant.geometry.parse(preferred[0].split()[-1]), preferred[1])
        picture = svg.board_svg(
            game,
            title=f"The board {where}",
            description=render_board(game),
            last=frame.placed,
            illegal=frame.illegal_mark,
            legend=False,
            preferred=preferred,
        )
        templates.append(f'<template id="frame-{first}">{picture}</template>')
        for index in range(first, last + 1):
            if index == 0 or frames[index].game is not frames[index - 1].game:
                sheet = score_game(frames[index].game)
            data.append(
                _frame_data(record, frames[index], count, sheet)
                | {"board": first}
                | {k: v for k, v in notes[index].items() if k != "preferred"}
            )
    opening = frames[0].game
    stopped = frames[-1].stop is not None
    problems = [f"<p>{escape(p.human())}</p>" for p in outcome.problems]
    if stopped:
        problems.insert(
            0,
            f"<p><strong>Replay stopped at turn {frames[-1].turn}.</strong> "
            '<button id="jump-stop" type="button">Show that turn</button></p>',
        )
    problems += [f"<p>Note: {escape(w.human())}</p>" for w in outcome.warnings]
    rows = "".join(
        f'<tr><td>{svg.seat_badge(seat)}</td><td class="name">{seat + 1} {escape(name)}</td>'
        '<td class="points">0</td><td class="delta"></td><td class="tiles"></td></tr>'
        for seat, name in enumerate(record.players)
    )
    title = f"Medina: {os.path.basename(record.file)}"
    subtitle = (
        f"{record.ruleset.title} ({record.ruleset.id}); players in seat order: "
        + ", ".join(record.players)
        + f"; {count} turns recorded"
    )
    meta = [f"{key} {record.meta[key]}" for key in ("event", "date") if key in record.meta]
    replacements = {
        "@@VERSION@@": escape(__version__),
        "@@TITLE@@": escape(title),
        "@@SUBTITLE@@": escape(subtitle + ("; " + ", ".join(meta) if meta else "")),
        "@@PROBLEM_CLASS@@": "" if problems else "none",
        "@@PROBLEMS@@": "".join(problems),
        "@@LAST@@": str(len(frames) - 1),
        "@@LEGEND@@": svg.legend_svg(
            opening, title="Legend", last=True, illegal=stopped, preferred=bool(analysis)
        ),
        "@@ANALYSIS@@": (
            f'<div id="analysis">{chart_svg(analysis, record.players, keys)}'
            '<p id="advice" aria-live="polite">'
            "</p></div>"
        )
        if analysis
        else "",
        "@@SCORE_ROWS@@": rows,
        "@@TEMPLATES@@": "\n".join(templates),
        "@@FRAMES@@": _json_for_script(data),
    }
    return re.sub(
        r"@@[A-Z_]+@@", lambda match: replacements[match.group(0)], PAGE
    )  # one pass: no re-expansion
