"""The fuzzing kit: inputs made from the project's own files (records, boards, rulesets, boardspace.net
records) by structure-aware mutations, or from nothing (bytes, text, YAML documents); the commands
that read each kind, run in-process; and what must hold for any input (`check_run`, `check_reader`).

`tests/test_fuzz.py` runs a short, fixed selection in CI; `benchmarks/fuzz_campaign.py` runs for as
long as it is given. Every generator draws from a `random.Random`, so a case is its seed.
"""

from __future__ import annotations

import random
import re
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

import typer
import yaml
from typer.testing import CliRunner

from medina_cli.cli.app import app
from medina_cli.cli.common import exit_status
from medina_cli.errors import CODES, WARNING_CODES, MedinaError

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"


def _read(paths) -> list[tuple[str, str]]:
    return [(path.name, path.read_text(encoding="utf-8")) for path in sorted(paths)]


SEEDS: dict[str, list[tuple[str, str]]] = {  # kind -> (file name, text) of every starting point
    "record": _read(
        [*(ROOT / "examples").glob("*.yaml"), *(FIXTURES / "tile-examples").glob("*.yaml")]
    ),
    "board": _read((FIXTURES / "boards").glob("*.yaml")),
    "ruleset": _read((ROOT / "rulesets").glob("*.yaml")),
    "boardspace": _read((FIXTURES / "boardspace").glob("*")),
}
KINDS = tuple(SEEDS)
SEED_LINES = [line for seeds in SEEDS.values() for _, text in seeds for line in text.split("\n")]
EXAMPLE = ROOT / "examples" / "original-2001-3p.yaml"

# Commands per kind of input; {in} is the input file, {out} a folder for what the command writes.
COMMANDS: dict[str, list[tuple[str, ...]]] = {
    "record": [
        ("validate", "{in}"),
        ("validate", "--json", "{in}"),
        ("replay", "{in}"),
        ("replay", "--to", "3", "{in}"),
        ("replay", "--final-board", "{in}", "-o", "{out}/final.yaml"),
        ("moves", "{in}"),
        ("moves", "--json", "{in}"),
        ("status", "--json", "{in}"),
        ("score", "{in}"),
        ("score", "--json", "{in}"),
        ("compare", "{in}"),
        ("compare", "--json", "{in}"),
        ("render", "{in}", "-o", "{out}/board.svg"),
        ("view", "{in}", "-o", "{out}/game.html"),
        ("validate", "--ruleset", "second-edition-2014", "{in}"),
        ("validate", "--set", "towers.reconnect=once_per_palace_arm", "{in}"),
    ],
    "board": [
        ("score", "{in}"),
        ("score", "--json", "{in}"),
        ("render", "{in}", "-o", "{out}/board.svg"),
        ("validate", "{in}"),
    ],
    "ruleset": [
        ("rules", "show", "{in}"),
        ("rules", "diff", "original-2001", "{in}"),
        ("validate", "--ruleset", "{in}", str(EXAMPLE)),
        ("compare", "--rulesets", "{in},original-2001", str(EXAMPLE)),
        ("simulate", "--ruleset", "{in}", "--players", "3", "--games", "1"),
        ("validate", "{in}"),
    ],
    "boardspace": [
        ("validate", "{in}"),
        ("import", "boardspace", "{in}"),
        ("import", "boardspace", "{in}", "-o", "{out}/game.yaml"),
        ("replay", "{in}"),
        ("score", "{in}"),
        ("compare", "{in}"),
        ("moves", "--json", "{in}"),
    ],
}
ANY_COMMANDS = [
    ("validate", "{in}"),
    ("score", "{in}"),
    ("rules", "show", "{in}"),
    ("import", "boardspace", "{in}"),
    ("compare", "{in}"),
    ("replay", "{in}"),
]

# --- making inputs -------------------------------------------------------------------------------

HAZARDS = [
    "no",
    "yes",
    "off",
    "on",
    "~",
    "null",
    "true",
    "0x1F",
    "0o17",
    "1e400",
    ".nan",
    "-.inf",
    "2003-01-01",
    "12:30:00",
    "!!python/object:os.system",
    "!!set",
    "!!omap",
    "!!binary",
    "!local",
    "!!str",
    "&a",
    "*a",
    "&a [1]",
    "[",
    "]",
    "{",
    "}",
    ": ",
    "- ",
    "? ",
    "#",
    "'",
    '"',
    "|",
    ">-",
    "\t",
    "%YAML 1.1",
    "---",
    "...",
    "<<: {}",
    ",",
    "\\",
    "\r",
    "\x85",
    "\u2028",
    "\ufeff",
    "\x00",
    '"\\0"',
    '"a\\0.yaml"',
    '"\\ud800"',
    '"\\x85"',
    "é",
    "🙂",
    "\u202e",
    "neutral",
    "tea",
    "pass",
    "roof",
    "merchant",
    "wall",
    "stable",
    "grey",
    "purple",
    "K99",
    "Z1",
    "A0",
    "A1",
    "R13",
    "P12",
    "-1",
    "0",
    "99999999",
    "1" + "0" * 30,
    "9" * 5000,
    "x" * 2000,
    "[" * 300,
    "{a: " * 80,
    "- " * 100,
    "Start P0",
    "Start P9",
    "Done",
    "Pick P A 0",
    "Dropb K 7",
    "OnBoard P A 0 K 7",
    "SU[Medina 104 3 1]",
    "story medina 3 0 ,",
    "P0[",
    "]",
    "(;",
    ")",
]
WORDS = [
    "medina",
    "ruleset",
    "players",
    "setup",
    "merchant",
    "well",
    "turns",
    "result",
    "event",
    "date",
    "notes",
    "grid",
    "roofs",
    "tiles",
    "extends",
    "colours",
    "supply",
    "board",
    "towers",
    "x-note",
    "id",
    "title",
    "record/1",
    "board/1",
    "ruleset/1",
    "original-2001",
    "second-edition-2014",
    "bsw-dm-2003",
    "Anna",
    "Ben",
]
TOKEN_RE = re.compile(r"\w+|[^\w\s]")


def random_scalar(rng: random.Random):
    return rng.choice(
        [None, True, False, 0, -1, 3, 2**64, 1.5, "", rng.choice(HAZARDS), rng.choice(WORDS)]
    )


def random_value(rng: random.Random, depth: int = 0):
    """A random YAML value: scalars, lists and mappings of them, a few levels deep."""
    roll = rng.random()
    if depth > 3 or roll < 0.5:
        return random_scalar(rng)
    if roll < 0.75:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {
        rng.choice([*WORDS, "x", 1, None]): random_value(rng, depth + 1)
        for _ in range(rng.randrange(4))
    }


def random_yaml(rng: random.Random) -> str:
    """A YAML document shaped like one of the formats, with random keys and values."""
    doc = {"medina": rng.choice(["record/1", "board/1", "ruleset/1", "record/2", None])}
    for _ in range(rng.randrange(8)):
        doc[rng.choice(WORDS)] = random_value(rng)
    return _dump(doc, rng)


def _dump(data, rng: random.Random) -> str:
    return yaml.safe_dump(
        data,
        default_flow_style=rng.choice([None, True, False]),
        allow_unicode=rng.random() < 0.5,
        sort_keys=rng.random() < 0.5,
        width=rng.choice([20, 80, 10_000]),
    )


def random_bytes(rng: random.Random) -> bytes:
    return bytes(rng.randrange(256) for _ in range(rng.randrange(200)))


def random_text(rng: random.Random) -> str:
    alphabet = "abcKP0179 :-[]{},#'\"\n\t!&*|>" + "é🙂\u2028\x85"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(300)))


def _numbers(text: str, rng: random.Random) -> str:
    spots = list(re.finditer(r"\d+", text))
    if not spots:
        return text
    spot = rng.choice(spots)
    number = rng.choice(["0", "-1", "99", "99999999", "1" + "0" * 30, "9" * 5000])
    return text[: spot.start()] + number + text[spot.end() :]


def _lines(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    op = rng.randrange(5)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[j])
    elif op == 2:
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        lines[i] = (
            " " * rng.choice([1, 2, 4]) + lines[i] if rng.random() < 0.5 else lines[i].lstrip()
        )
    else:
        lines[i] = rng.choice(SEED_LINES)  # a line of another file, of any kind
    return "\n".join(lines)


def _token(text: str, rng: random.Random) -> str:
    spots = list(TOKEN_RE.finditer(text))
    if not spots:
        return text + rng.choice(HAZARDS)
    spot = rng.choice(spots)
    other = rng.choice(spots).group() if rng.random() < 0.4 else rng.choice(HAZARDS + WORDS)
    return text[: spot.start()] + other + text[spot.end() :]


def _insert(text: str, rng: random.Random) -> str:
    at = rng.randrange(len(text) + 1)
    return text[:at] + rng.choice(HAZARDS) + text[at:]


def _truncate(text: str, rng: random.Random) -> str:
    return text[: rng.randrange(len(text) + 1)]


def _data(text: str, rng: random.Random) -> str:
    """A change to the parsed document (a value replaced, a key dropped or added, a list reordered), written
    back as YAML in a random style."""
    try:
        data = yaml.safe_load(text)
    except (
        yaml.YAMLError,
        ValueError,
        RecursionError,
    ):  # not YAML, or a number past int()'s limit, or deep
        return _token(text, rng)
    if not isinstance(data, (dict, list)) or not data:
        return _dump(random_value(rng), rng)
    parent, key = _random_spot(data, rng)
    op = rng.randrange(4)
    if op == 0:
        parent[key] = random_value(rng)
    elif op == 1:
        del parent[key]
    elif op == 2 and isinstance(parent, dict):
        parent[rng.choice([*WORDS, "x-fuzz"])] = random_value(rng)
    elif isinstance(parent[key], list):
        rng.shuffle(parent[key])
    else:
        parent[key] = [parent[key], random_scalar(rng)]
    return _dump(data, rng)


def _random_spot(node, rng: random.Random):
    """A (mapping or list, key) somewhere in a non-empty tree, reached by descending at random."""
    while True:
        key = rng.choice(list(node) if isinstance(node, dict) else range(len(node)))
        child = node[key]
        if not isinstance(child, (dict, list)) or not child or rng.random() < 0.4:
            return node, key
        node = child


MUTATIONS = (_lines, _token, _insert, _numbers, _truncate, _data)


def mutate(text: str, rng: random.Random) -> str:
    """One to four (mostly one) structure-aware changes (lines, tokens, numbers, the parsed data, hazards) to `text`."""
    for _ in range(rng.choice([1, 1, 1, 2, 2, 4])):
        text = rng.choice(MUTATIONS)(text, rng)
    return text


@dataclass
class Case:
    """One input: what to write, under which name, and the commands to run on it."""

    kind: str
    name: str
    content: bytes

    @property
    def commands(self) -> list[tuple[str, ...]]:
        return COMMANDS.get(self.kind, ANY_COMMANDS)


def make_case(rng: random.Random) -> Case:
    """An input of any sort: mostly a mutated seed file, sometimes bytes, text or a YAML document."""
    roll = rng.random()
    if roll < 0.05:
        return Case("any", rng.choice(["junk.yaml", "junk.sgf", "junk.txt"]), random_bytes(rng))
    if roll < 0.1:
        return Case("any", rng.choice(["text.yaml", "text.sgf"]), random_text(rng).encode())
    if roll < 0.2:
        return Case("any", "doc.yaml", random_yaml(rng).encode())
    kind = rng.choice(KINDS)
    name, text = rng.choice(SEEDS[kind])
    return Case(kind, name, mutate(text, rng).encode("utf-8", "surrogatepass"))


# --- running and checking ----------------------------------------------------------------------

COMMAND = typer.main.get_command(
    app
)  # built once: typer's CliRunner would build it again for every run
PROBLEM_LINE = re.compile(r"^(?:warning: )?(.*?)(?::\d+)?: .*\[([a-z0-9-]+)\]$")


class Broken(AssertionError):
    """An input the tool mishandled; the message says how."""


def run(args: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    """`medina ARGS` in-process, as the console entry point runs it (a MedinaError that reaches the top
    becomes its one-line message); any other exception is a Broken with its traceback."""
    runner = CliRunner()
    with runner.isolation(input=stdin) as (out, err, _):
        try:
            COMMAND.main(args=args, prog_name="medina")
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except MedinaError as exc:
            sys.stderr.write(exc.problem.human() + "\n")
            code = exit_status(exc)
        except Exception as exc:  # what the entry point would call an internal error
            raise Broken(
                f"internal error {type(exc).__name__}: {exc}\nmedina {' '.join(args)}\n"
                f"{traceback.format_exc()}"
            ) from exc
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        return (
            code,
            out.getvalue().decode("utf-8", "replace"),
            err.getvalue().decode("utf-8", "replace"),
        )


def check_run(
    args: list[str], inputs: dict[Path, bytes], names: set[str], stdin: bytes | None = None
) -> int:
    """Run `medina ARGS` and check what must hold for any input: exit 0, 1 or 2, no internal error,
    the inputs (`inputs`: path -> bytes before) left as they were, and an error message naming the
    file (one of `names`). Returns the exit status."""
    code, out, err = run(args, stdin)
    shown = f"medina {' '.join(args)} -> exit {code}\nstdout: {out[-1500:]}\nstderr: {err[-1500:]}"
    if code not in (0, 1, 2):
        raise Broken(f"exit status outside 0-2: {shown}")
    if "internal error" in out + err or "Traceback" in out + err:
        raise Broken(f"internal error: {shown}")
    for path, before in inputs.items():
        if path.read_bytes() != before:
            raise Broken(f"{path} was modified: {shown}")
    if code != 0 and not any(name in out + err for name in names):
        raise Broken(f"no message names the file ({', '.join(sorted(names))}): {shown}")
    problem_lines = err + (
        out if args[0] == "validate" and "--json" not in args else ""
    )  # others print tables
    for line in problem_lines.split(
        "\n"
    ):  # not splitlines(): a message may hold a NEL or U+2028 of the input
        match = PROBLEM_LINE.match(line)
        if (
            match
            and match.group(2) in {**CODES, **WARNING_CODES}
            and not match.group(1).startswith(tuple(names) + ("--set", "--ruleset"))
        ):
            raise Broken(f"a message names no file: {line!r}\n{shown}")
    return code


def run_case(case: Case, folder: Path, commands: list[tuple[str, ...]]) -> list[int]:
    """Write `case` into `folder` and run each command on it (with a fresh output folder); returns the
    exit statuses. Raises Broken on the first run that mishandles it."""
    inputs_dir, out_dir = folder / "in", folder / "out"
    inputs_dir.mkdir(exist_ok=True)
    out_dir.mkdir(exist_ok=True)
    path = inputs_dir / case.name
    path.write_bytes(case.content)
    inputs = {path: case.content, EXAMPLE: EXAMPLE.read_bytes()}
    codes = []
    for template in commands:
        args = [part.replace("{in}", str(path)).replace("{out}", str(out_dir)) for part in template]
        codes.append(check_run(args, inputs, {str(path), str(EXAMPLE)}))
    if sorted(p.name for p in inputs_dir.iterdir()) != [case.name]:
        raise Broken(
            f"files appeared beside the input: {sorted(p.name for p in inputs_dir.iterdir())}"
        )
    return codes


def check_reader(case: Case) -> None:
    """The library readers on `case` as text: only MedinaError may escape, and every problem they
    collect names the input."""
    from medina_cli.records.boardfile import looks_like_board, parse_board
    from medina_cli.records.record import parse_record
    from medina_cli.records.replay import replay
    from medina_cli.yamlio import parse_yaml

    name = f"fuzz/{case.name}"
    text = case.content.decode("utf-8", "replace")
    for read in (
        lambda: parse_yaml(text, name),
        lambda: _record_problems(parse_record(text, name), replay),
        lambda: looks_like_board(text) and parse_board(text, name).problems.errors,
    ):
        try:
            problems = read()
        except MedinaError as exc:
            problems = [exc.problem]
        except Exception as exc:
            raise Broken(
                f"reader failed {type(exc).__name__}: {exc}\n{traceback.format_exc()}\n"
                f"input: {text[:2000]!r}"
            ) from exc
        for problem in problems if isinstance(problems, list) else ():
            if problem.file is None:
                raise Broken(f"a problem without a file: {problem.human()}\ninput: {text[:2000]!r}")


def _record_problems(record, replay) -> list:
    problems = list(record.problems.errors)
    if record.playable and not problems:
        problems += replay(record).problems
    return problems
