"""Shared CLI pieces: options, input expansion, record loading, output helpers."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

from ..errors import BadArgument, MedinaError, UnusableInput
from ..files import write_atomically


class Command(TyperCommand):
    """typer's command with plain argument names in the usage line: `FILE` or `FILE...` (typer writes
    `{FILE}`)."""

    def collect_usage_pieces(self, ctx) -> list[str]:
        return [piece.strip("{}") for piece in super().collect_usage_pieces(ctx)]


JSON_FORMATS = {  # each --json command's document, which then also carries the command line's own usage errors
    "validate": "medina-validate/1",
    "replay": "medina-replay/1",
    "moves": "medina-moves/1",
    "new": "medina-new/1",
    "add": "medina-add/1",
    "undo": "medina-undo/1",
    "status": "medina-status/1",
    "score": "medina-score/1",
    "compare": "medina-compare/1",
    "simulate": "medina-simulate/1",
    "hint": "medina-hint/1",
    "analyse": "medina-analyse/1",
    "import boardspace": "medina-import/1",
    "rules list": "medina-rules/1",
    "rules show": "medina-rules-show/1",
    "rules diff": "medina-rules-diff/1",
    "rules params": "medina-rules-params/2",
    "study": "medina-study-report/1",
}


def _command_name(ctx) -> str:
    """The command a context runs, as in JSON_FORMATS: `validate`, `rules show` (whatever the program is called)."""
    names = []
    while ctx.parent is not None:
        names.append(ctx.info_name)
        ctx = ctx.parent
    return " ".join(reversed(names))


OPTIONAL_VALUE = (
    "--show-completion",
    "--install-completion",
)  # SHELL may be left out: the shell this runs in


class Group(TyperGroup):
    """typer's group, with usage errors (unknown option, missing or bad value) in the one error style
    of every command: a line on stderr, `WHERE: what is wrong` (here `medina COMMAND: ...`), exit 2."""

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        if (
            not args and self.no_args_is_help and not ctx.resilient_parsing
        ):  # the help, exit 2 (as click does)
            typer.echo(ctx.get_help(), err=True)
            raise typer.Exit(2)
        return super().parse_args(ctx, self._optional_values_filled(args))

    def _optional_values_filled(self, args: list[str]) -> list[str]:
        """`args` with "" after an option of OPTIONAL_VALUE given without its value (at the end, or before
        another option): typer's options always take one."""
        names = {
            name
            for param in self.params
            for name in getattr(param, "opts", ())
            if name in OPTIONAL_VALUE
        }
        return [
            filled
            for i, arg in enumerate(args)
            for filled in (
                [arg, ""]
                if arg in names and (i + 1 == len(args) or args[i + 1].startswith("-"))
                else [arg]
            )
        ]

    def invoke(self, ctx):
        """Ctrl-C ends a command with a line saying so and exit 130 (typer would exit 130 without a word)."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            where = " ".join(filter(None, (ctx.command_path, ctx.invoked_subcommand)))
            warn(f"{where}: interrupted")
            raise typer.Exit(130) from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            status = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except (
            typer.TyperException
        ) as exc:  # click's errors: typer vendors click and exports only their base
            if (
                exc.exit_code == 2
            ):  # a usage error, with the context of the command at fault where known
                where, usage, json_format = "medina", "medina COMMAND", None
                ctx = getattr(exc, "ctx", None)
                if ctx is not None:
                    where = ctx.command_path
                    usage = " ".join([where, *ctx.command.collect_usage_pieces(ctx)])
                    if "--json" in (sys.argv[1:] if args is None else args):
                        json_format = JSON_FORMATS.get(_command_name(ctx))
                text = f"{where}: {exc.format_message().rstrip('.')} (usage: {usage}; more: {where} --help)"
                if json_format is None:
                    warn(text)
                else:  # --json promises one document, the command line's own errors too
                    from ..errors import Problem

                    emit_json(
                        {
                            "format": json_format,
                            "errors": [Problem("usage", text).to_json()],
                            "warnings": [],
                        }
                    )
            else:
                warn(f"medina: {exc.format_message()}")
            sys.exit(exc.exit_code)
        except typer.Abort:
            warn("medina: aborted")
            sys.exit(1)
        sys.exit(status if isinstance(status, int) else 0)


def shown_as(word: str):
    """A typer `parser` that keeps an argument as given, so that help names its type `word` (typer's
    help names an argument's type after its parser: `FILE <path>`; a plain `str` shows `<str>`)."""

    def keep(value: str) -> str:
        return value

    keep.__name__ = word
    return keep


def whole_number(minimum: int, below: str | None = None):
    """A typer `parser`: a whole number of at least `minimum`, else a usage error saying so (`below`: what
    to say instead of a number under `minimum`)."""

    def parse(value) -> int:
        try:
            number = int(value)
        except ValueError:
            number = None
        if number is not None and number < minimum and below is not None:
            raise typer.BadParameter(f"{number} {below}")
        if number is None or number < minimum:
            raise typer.BadParameter(f"{str(value)!r} is not a whole number (≥ {minimum}).")
        return number

    return parse


def ruleset_ref(value: str) -> str:
    """A typer `parser` for --ruleset: an empty value is a usage error, not "the file's own ruleset"."""
    if not value.strip():
        raise typer.BadParameter(
            "empty; give a built-in ruleset id (medina rules list) or a ruleset .yaml file, "
            "or leave --ruleset out to play by the file's own"
        )
    return value


def complete_ruleset(incomplete: str) -> list[str]:
    """Shell completion of a ruleset: the built-in ids that start with what is typed."""
    from ..rules.loader import builtin_ids

    return [rid for rid in builtin_ids() if rid.startswith(incomplete)]


def complete_rulesets(incomplete: str) -> list[str]:
    """Shell completion of `A,B,...`: the last entry completed to a built-in id, the others kept."""
    done, comma, last = incomplete.rpartition(",")
    return [done + comma + rid for rid in complete_ruleset(last)]


def complete_set(incomplete: str) -> list[str]:
    """Shell completion of `--set PARAM=VALUE`: the parameter names (each with its `=`), then, after the
    `=`, the values a parameter with a fixed set of them takes."""
    from ..rules.schema import parameter_names, parameters, yaml_flow

    param, equals, value = incomplete.partition("=")
    if not equals:
        return [f"{name}=" for name in parameter_names() if name.startswith(param)]
    spec = dict(parameters()).get(param)
    allowed = spec.allowed_values() if spec is not None else None
    if allowed is None or len(allowed) > 20:
        return []
    words = [yaml_flow(v) for v in allowed]
    return [f"{param}={word}" for word in words if word.startswith(value)]


def _record_for_completion(ctx: typer.Context):
    """The record FILE already typed on the command line being completed (under the --ruleset typed before
    the word being completed, if any), or None when there is none that can be read. (Completing an
    option's value, click leaves the arguments before it unparsed in `ctx.args`.)"""
    from ..records.record import read_record

    path = next(
        (
            word
            for word in (ctx.params.get("file"), *ctx.args)
            if isinstance(word, str) and word != "-" and os.path.isfile(word)
        ),
        None,
    )
    try:
        return read_record(path, ruleset=ctx.params.get("ruleset")) if path else None
    except (MedinaError, OSError):
        return None


def complete_player(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of a player: the players of the record FILE."""
    record = _record_for_completion(ctx)
    return [name for name in (record.players if record else []) if name.startswith(incomplete)]


def complete_piece(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of a piece: those the record FILE's ruleset supplies to its number of players (to
    any number, when the ruleset does not allow the record's), else those of every built-in ruleset."""
    from .. import Variant
    from ..rules.loader import builtin_ids, load_ruleset

    record = _record_for_completion(ctx)
    if record and record.ruleset:
        counts = (
            [len(record.players)] if len(record.players) in record.ruleset.player_counts else None
        )
        rulesets = [(record.ruleset, counts or record.ruleset.player_counts)]
    else:
        rulesets = [
            (ruleset, ruleset.player_counts) for ruleset in map(load_ruleset, builtin_ids())
        ]
    pieces = {
        piece
        for ruleset, counts in rulesets
        for n in counts
        for piece in Variant.of(ruleset.for_players(n)).supplied
    }
    return sorted(piece for piece in pieces if piece.startswith(incomplete.lower()))


def complete_placement(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of `add`'s placements: `PLAYER:` for each player of FILE, and the pieces."""
    record = _record_for_completion(ctx)
    named = [
        f"{name}:" for name in (record.players if record else []) if name.startswith(incomplete)
    ]
    return named + complete_piece(ctx, incomplete)


RulesetOption = Annotated[
    str | None,
    typer.Option(
        "--ruleset",
        "-r",
        metavar="ID|PATH",
        parser=ruleset_ref,
        autocompletion=complete_ruleset,
        help="Play by this ruleset instead of the file's (a built-in id or a ruleset YAML file).",
    ),
]
SetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="PARAM=VALUE",
        autocompletion=complete_set,
        help="Override one ruleset parameter for this run, e.g. towers.reconnect=once_per_palace_arm "
        "(repeatable; `medina rules params` lists them).",
    ),
]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print one JSON document (see docs/format.md).")
]
ToOption = Annotated[
    int | None,
    typer.Option(
        "--to",
        metavar="TURN",
        parser=whole_number(
            0,
            below="is before the start: --to counts the turns replayed from "
            "the start of the record, 0 (none) or more; leave it out for all",
        ),
        help="Stop after this many entries of `turns`, a whole number ≥ 0 (default: all).",
    ),
]
PieceOption = Annotated[
    list[str] | None,
    typer.Option(
        "--piece",
        metavar="PIECE",
        autocompletion=complete_piece,
        help="Only placements of this piece (repeatable: any of them).",
    ),
]
CellOption = Annotated[
    list[str] | None,
    typer.Option(
        "--cell", metavar="CELL", help="Only placements on this cell (repeatable: any of them)."
    ),
]
NoColorOption = Annotated[
    bool,
    typer.Option(
        "--no-color",
        help="Plain text even on a terminal (colour is also off when NO_COLOR is set or output is piped).",
    ),
]


def expand_inputs(paths: list[str], *, boards: bool = False) -> list[str]:
    """Files as given; directories become every record below them (*.yaml, *.yml, boardspace *.sgf),
    sorted, leaving out hidden files and folders, and rulesets and (unless `boards`) boards, with a
    note on stderr; `-` is stdin."""
    from ..records.inputs import files_below

    out = []
    for path in paths:
        if path != "-" and os.path.isdir(path):
            for found, skipped in files_below(path, boards=boards):
                if skipped:
                    warn(f"{found}: skipped: {skipped}")
                else:
                    out.append(found)
        else:
            out.append(path)
    return out


def usage_error(where: str | None, message: str, doc: dict | None = None) -> NoReturn:
    """A command line our own checks refuse: `WHERE: message` on stderr (`message` alone, without
    `where`: it names its option itself), or with --json the command's document `doc` carrying it (code
    `usage`); exit 2."""
    text = f"{where}: {message}" if where else message
    if doc is None:
        warn(f"{text} [usage]")
        raise typer.Exit(2)
    from ..errors import Problem

    stop([Problem("usage", text)], 2, doc)


def capped_jobs(jobs: int) -> int:
    """`--jobs`, at most 4 per CPU (more processes only crowd each other): said when it is cut."""
    from ..study.backend import job_limit

    if jobs > job_limit():
        warn(f"warning: --jobs {jobs} is more than 4 per CPU: using {job_limit()}")
        return job_limit()
    return jobs


def names_or_exit(value: str, option: str, doc: dict | None = None) -> list[str]:
    """The comma-separated entries of an `A,B,...` option, stripped; an empty one exits 2 (with --json,
    in `doc`)."""
    names = [name.strip() for name in value.split(",")]
    if not all(names):
        usage_error(
            f"{option} {value!r}",
            f"an entry is empty; give {option} A,B,... (comma-separated names)",
            doc,
        )
    return names


def refuse_directory(path: str, takes: str, doc: dict | None = None) -> None:
    """A single-file command given a directory: say what it `takes` and exit 2 (with --json, in `doc`)."""
    if path != "-" and os.path.isdir(path):
        from ..errors import Problem

        stop(
            [
                Problem(
                    "usage",
                    f"is a directory; {takes} (only validate and score take directories)",
                    file=path,
                )
            ],
            2,
            doc,
        )


def check_suffix(path: str, suffixes: tuple[str, ...], what: str, doc: dict | None = None) -> None:
    """`-o PATH` must name a file of the kind written (or be `-`, standard output); else exit 2 (with
    --json, in `doc`)."""
    if path != "-" and Path(path).suffix.lower() not in suffixes:
        usage_error(
            f"-o {path}",
            f"the output is {what}; name a {' or '.join(suffixes)} file, or - for standard output",
            doc,
        )


def refuse_terminal(path: str, what: str, suffix: str, command: str) -> None:
    """Markup (`what`) is no use on a terminal: with `path` `-` and standard output a terminal, say how
    to write a file instead and exit 2. Piped or redirected output is written as usual."""
    if path == "-" and sys.stdout.isatty():
        command = f"medina {command}"
        usage_error(
            command,
            f"the output is {what}, not for a terminal; give -o FILE{suffix}, or redirect or "
            f"pipe standard output ({command} ... > out{suffix})",
        )


ASCII_SPELLINGS = {
    "→": "->",
    "←": "<-",
    "≥": ">=",
    "≤": "<=",
    "—": "--",
    "–": "-",
    "…": "...",
    "±": "+/-",
    "×": "x",
    "§": "S",
    "·": ".",
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
}


def _ascii_spelling(error: UnicodeError) -> tuple[str, int]:
    """An encoding error handler: the characters the output encoding lacks, in ASCII."""
    if not isinstance(error, UnicodeEncodeError):  # (it is registered for the output streams only)
        raise error
    return "".join(map(_in_ascii, error.object[error.start : error.end])), error.end


def _in_ascii(char: str) -> str:
    """`→` as `->`, a box line as `-`, `|` or `+`, `é` as `e`; else `?`."""
    import unicodedata

    if char in ASCII_SPELLINGS:
        return ASCII_SPELLINGS[char]
    name = unicodedata.name(char, "")
    if name.startswith("BOX DRAWINGS"):
        lines = ("HORIZONTAL" in name, "VERTICAL" in name)
        return {(True, False): "-", (False, True): "|"}.get(lines, "+")
    return unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode() or "?"


def tolerate_output_encoding() -> None:
    """Standard output and error in an encoding without arrows or accents (`PYTHONIOENCODING=ascii`, a
    Latin-1 terminal) get those characters in ASCII instead of failing."""
    import codecs

    codecs.register_error("medina-ascii", _ascii_spelling)
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="medina-ascii")


class OutputUnwritable(OSError):
    """Standard output refused what was written to it (a full disk, /dev/full): not a bug to report."""


class _StandardOutput(io.RawIOBase):
    """The file descriptor of standard output, whose write errors are `OutputUnwritable` (a closed pipe
    and a full non-blocking pipe stay as they are: BrokenPipeError, BlockingIOError). After its first
    refusal what it is given is dropped: the refusal is said once, and the exit meets it no more."""

    def __init__(self, descriptor: int):
        super().__init__()
        self.descriptor = descriptor
        self.refused = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.descriptor

    def isatty(self) -> bool:
        return os.isatty(self.descriptor)

    def write(self, data) -> int:
        if self.refused:
            return len(data)
        try:
            return os.write(self.descriptor, data)
        except (BrokenPipeError, BlockingIOError):
            raise
        except OSError as exc:
            self.refused = True
            raise OutputUnwritable(exc.errno, exc.strerror) from None


def guard_standard_output() -> None:
    """`sys.stdout` as it was (encoding, errors, buffering), writing through `_StandardOutput`: a failed
    write to it can be told from any other OSError. A standard output closed at the start (None) is a
    descriptor no write reaches (not 1, which a file opened later may take)."""
    stream = sys.stdout
    if stream is None:
        sys.stdout = io.TextIOWrapper(
            io.BufferedWriter(_StandardOutput(-1)), encoding="utf-8", errors="medina-ascii"
        )
        return
    if not isinstance(stream, io.TextIOWrapper):  # not a file's text stream (a test's capture)
        return
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's capture)
        return
    stream.flush()
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(_StandardOutput(descriptor)),
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
        write_through=stream.write_through,
    )


def stop(problems, status: int, doc: dict | None = None) -> NoReturn:
    """End the command with `status` after `problems`: on stderr, or with --json inside `doc` (the
    document the command prints, as far as it is known), so that --json always prints one document."""
    if doc is None:
        report_problems(problems)
    else:
        emit_json(with_problems(doc, problems))
    raise typer.Exit(status)


def with_problems(doc: dict, errors, warnings=()) -> dict:
    """`doc` with its `errors` and `warnings` as in medina-validate/1."""
    return {
        **doc,
        "errors": [p.to_json() for p in errors],
        "warnings": [w.to_json() for w in warnings],
    }


def emit_json(doc) -> None:
    sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def say(text: str = "") -> None:
    sys.stdout.write(text + "\n")


def warn(text: str) -> None:
    sys.stderr.write(text + "\n")


# How much longer search and simulation take on the Python engine than on the native one, rounded:
# benchmarks/bench_native.py (CPU time of one process) gave 37 (random games), 49 (playouts), 43 (an mcts:300
# decision) and 45 (a default mcts decision) times on the idle machine (README's table), and 49, 72, 57 and 62
# times in a run at load 8 on 2 CPUs (2026-11-28, --games 80 --playouts 60 --positions 3); issue 33 timed
# a hint at turn 12 of the 4-player example at 6 min 30 s against 6 s (65 times).
PYTHON_ENGINE_SLOWER = 50


def note_engine_cost() -> None:
    """One line on stderr where search runs on the Python engine because no native engine was built (not
    where MEDINA_ENGINE=python asks for it): what it costs, and how to get the native one."""
    from .. import engine_name, engine_requested

    if engine_name() == "python" and engine_requested() is None:
        warn(
            f"medina: the Python engine runs (no native engine was built at install): search and simulation take "
            f"about {PYTHON_ENGINE_SLOWER} times as long; for the native one install a C compiler and the Python "
            "headers, then reinstall (pip install .)"
        )


def exit_status(error: MedinaError) -> int:
    """The exit status a library error ends a command with (docs/format.md), for every command: 1 the
    input is invalid; 2 it cannot be used at all, or the command line asks for what cannot be done."""
    return 2 if isinstance(error, (UnusableInput, BadArgument)) else 1


def load_record(path: str, ruleset: str | None, sets: list[str] | None, doc: dict | None = None):
    """Read a record for a single-file command; unusable input exits 2 with the message (with --json,
    in `doc`)."""
    from ..records.record import read_record

    refuse_directory(path, "this command takes one record file", doc)
    try:
        record = read_record(path, ruleset=ruleset, overrides=tuple(sets or ()))
    except MedinaError as exc:
        stop(exc.problems, exit_status(exc), doc)
    refuse_board(record, doc)
    return record


def refuse_board(record, doc: dict | None = None) -> None:
    """A finished board read as a record (`records.record.refuse_board`): exit 2 with the reader's words."""
    from ..records.record import refuse_board as refused

    try:
        refused(record)
    except MedinaError as exc:
        stop(exc.problems, exit_status(exc), doc)


def load_record_or_board(
    path: str, ruleset: str | None, sets: list[str] | None, doc: dict | None = None
):
    """`read_record_or_board` for a single-file command; unusable input exits 2 with the message
    (with --json, in `doc`)."""
    from ..records.inputs import read_record_or_board

    refuse_directory(path, "this command takes one record or board file", doc)
    try:
        return read_record_or_board(path, ruleset, tuple(sets or ()))
    except MedinaError as exc:
        stop(exc.problems, exit_status(exc), doc)


def write_output(path: str, text: str, source: str) -> None:
    """Write `text` to `path` (`-`: stdout), never over the input file `source`; failure exits 2."""
    if path == "-":
        sys.stdout.write(text)
        return
    target = Path(path)
    if (
        source != "-" and os.path.exists(path) and target.resolve() == Path(source).resolve()
    ):  # never raises
        usage_error(path, "refusing to overwrite the input file; choose another output file")
    try:
        write_atomically(target, text)
    except OSError as exc:
        cannot_write(path, exc)
    warn(f"wrote {path}")


def cannot_write(path: str, exc: OSError, doc: dict | None = None) -> NoReturn:
    """`PATH: cannot write: why [cannot-write]`, exit 2 (with --json, in `doc`)."""
    from ..errors import Problem

    stop([Problem("cannot-write", f"cannot write: {exc.strerror or exc}", file=path)], 2, doc)


def report_problems(problems) -> None:
    for problem in problems:
        warn(problem.human())


def report_replay(outcome) -> None:
    """A replay's errors, then its warnings."""
    report_problems(outcome.problems)
    for problem in warnings_to_show(outcome):
        warn("warning: " + problem.human())


def warnings_to_show(outcome) -> list:
    """A replay's warnings but `unfinished`: every command says where the game stands its own way."""
    return [problem for problem in outcome.warnings if problem.code != "unfinished"]


def load_or_exit(
    ref, overrides=(), *, base_dir=None, doc: dict | None = None, option: str | None = None
):
    """The ruleset `ref` (an id, a path or a loaded ruleset, then `overrides` applied), or exit 2 with its
    errors (unknown id, unreadable or invalid file; with --json, in `doc`), each named by its file, else
    by the `option` that gave `ref` (else `ref` itself)."""
    from ..rules.loader import load_ruleset

    try:
        return load_ruleset(ref, tuple(overrides or ()), base_dir=base_dir)
    except MedinaError as exc:
        for problem in exc.problems:
            problem.file = problem.file or option or (ref if isinstance(ref, str) else ref.id)
        stop(exc.problems, 2, doc)


def replay_to(record, to: int | None, *, quiet: bool = False):
    """Replay `record` through `to` turns (all: None), saying so (unless `quiet`) when `to` is past its end."""
    from ..records.replay import replay

    if to is not None and to > len(record.turns) and not quiet:
        warn(
            f"warning: {record.file}: --to {to}: the record has {len(record.turns)} turns; "
            "showing where it ends"
        )
    return replay(record, to_turn=to)


def replayed_or_exit(file: str, ruleset, set_, to, doc: dict | None = None):
    """The record replayed through `to` turns. Its problems go to stderr, unless --json gives `doc`
    (the command's document, to print alone if the record cannot be replayed at all)."""
    if doc is not None:
        doc["file"] = "<stdin>" if file == "-" else file
    record = load_record(file, ruleset, set_, doc)
    outcome = replay_to(record, to, quiet=doc is not None)
    if doc is None:
        report_replay(outcome)
    if outcome.game is None:
        if doc is None:
            raise typer.Exit(1)  # its problems are already said
        stop(outcome.problems, 1, doc)
    return record, outcome
