"""`medina compare`: one record replayed under several rulesets, and what the rules change."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import (
    JsonOption,
    SetOption,
    complete_rulesets,
    emit_json,
    exit_status,
    load_or_exit,
    names_or_exit,
    refuse_board,
    refuse_directory,
    say,
    shown_as,
    stop,
    with_problems,
)

FileArgument = Annotated[
    str,
    typer.Argument(
        metavar="FILE", parser=shown_as("path"), help="A record/1 file, or - for stdin."
    ),
]
RulesetsOption = Annotated[
    str | None,
    typer.Option(
        "--rulesets",
        metavar="A,B,...",
        autocompletion=complete_rulesets,
        help="Rulesets to compare (ids or files, comma-separated; default: the record's own, then every built-in "
        "edition for its player count; site profiles only when named).",
    ),
]
VariantOption = Annotated[
    list[str] | None,
    typer.Option(
        "--variant",
        metavar="SPEC",
        help="A column of its own: SPEC is [LABEL:]ID,PARAM=VALUE,... (a ruleset id "
        "or file with overrides; quote it; commas inside brackets or braces stay in the value; see docs/format.md). "
        "Repeatable; added after the --rulesets columns, or after the default ones. Without LABEL the column is "
        "named by its overrides.",
    ),
]
ReadingsOption = Annotated[
    bool,
    typer.Option(
        "--readings",
        help="Replay the record under every other reading of each open rule point of its ruleset "
        "(medina rules params lists them), one at a time: which change the winner, the legality, the scores.",
    ),
]


def compare(
    file: FileArgument,
    rulesets: RulesetsOption = None,
    variants: VariantOption = None,
    readings: ReadingsOption = False,
    set_: SetOption = None,
    json_: JsonOption = False,
) -> None:
    """Replay one record under several rulesets: validity, scores, and what differs (tiles, legality, winner).

    Exit status: 0 when at least one ruleset replays the record without error (with --readings: when
    the record is valid as written), 1 otherwise, 2 unusable input or usage error.
    """
    from ..comparison import document_before_replay
    from ..errors import Problem

    doc = document_before_replay("<stdin>" if file == "-" else file, readings) if json_ else None
    if readings and (rulesets is not None or variants):
        stop(
            [
                Problem(
                    "usage",
                    "plays the record's own ruleset against its open readings; it does not go with "
                    "--rulesets or --variant",
                    file="--readings",
                )
            ],
            2,
            doc,
        )
    refs = names_or_exit(rulesets, "--rulesets", doc) if rulesets is not None else None
    try:
        parsed_variants = [parse_variant(text) for text in variants or ()]
    except ValueError as exc:
        stop([Problem("usage", str(exc), file="--variant")], 2, doc)
    record = _record(file, doc)
    overrides = tuple(set_ or ())
    if readings:
        _readings(record, overrides, doc)
    comparison = _compared(record, refs, parsed_variants, overrides, doc)
    if json_:
        emit_json(with_problems(comparison.to_json(), []))
    else:
        from ..render.comparison import comparison_report

        say("\n".join(comparison_report(comparison)))
    raise typer.Exit(0 if comparison.comparable else 1)


def _record(file: str, doc: dict | None):
    """The record read far enough to know its players; else exit 2 (unusable) or 1 (with --json, in `doc`)."""
    from ..errors import MedinaError
    from ..records.record import parse_record
    from ..yamlio import base_dir_of, read_text

    refuse_directory(file, "compare takes one record file", doc)
    try:
        name, text = read_text(file)
        record = parse_record(text, name, base_dir=base_dir_of(file))
    except MedinaError as exc:
        stop(exc.problems, exit_status(exc), doc)
    refuse_board(record, doc)
    if not record.players:
        stop(record.problems.errors, 1, doc)  # says why the record cannot be read
    return record


def _compared(record, refs, parsed_variants, overrides: tuple, doc: dict | None):
    """The record compared under `refs` (default: the default rulesets) and then the variants; a ruleset that
    cannot be loaded, or a variant's label taken, exits 2."""
    from ..comparison import column_labels, default_rulesets
    from ..comparison import compare as compare_record
    from ..errors import Problem

    option = "--rulesets" if refs else None
    if refs:
        refs = list(dict.fromkeys(refs))
    else:
        refs = default_rulesets(record)
    loaded = [
        load_or_exit(ref, overrides, doc=doc, option=option) for ref in refs
    ]  # unusable ruleset, --set: exit 2
    columns = dict(zip(column_labels(refs, loaded), loaded, strict=True))
    for label, ref, changes in parsed_variants:
        if label in columns:
            stop(
                [
                    Problem(
                        "usage",
                        f"{label!r}: another column has this name; give the variant a label of its own "
                        "(LABEL:ID,...)",
                        file="--variant",
                    )
                ],
                2,
                doc,
            )
        columns[label] = load_or_exit(load_or_exit(ref, overrides, doc=doc), changes, doc=doc)
    return compare_record(record, columns)


def parse_variant(text: str) -> tuple[str, str, tuple[str, ...]]:
    """`[LABEL:]ID,PARAM=VALUE,...` -> (label, ruleset ref, overrides); commas inside brackets, braces or
    quotes belong to a value. Without a label, the column is named by the ruleset and its overrides.
    Raises ValueError (the message says what is expected)."""
    items, depth, quote, start = [], 0, None, 0
    for i, char in enumerate(text):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            items.append(text[start:i].strip())
            start = i + 1
    items.append(text[start:].strip())
    head, changes = items[0], tuple(items[1:])
    label, sep, ref = head.partition(":")
    if not sep or "=" in label:
        label, ref = "", head
    label, ref = label.strip(), ref.strip()
    if not ref or "=" in ref or not all(changes) or not all("=" in change for change in changes):
        raise ValueError(
            f"{text!r}: expected [LABEL:]ID,PARAM=VALUE,..., e.g. "
            "'arm:ID,towers.reconnect=once_per_palace_arm' (ID: a ruleset, `medina rules list`)"
        )
    return label or " ".join((ref, *changes)), ref, changes


# --- the readings sweep ----------------------------------------------------------------------------


def _readings(record, overrides: tuple, doc: dict | None) -> None:
    """Print the record under each other reading of its ruleset's open rule points (with --json, `doc`
    filled), then exit."""
    from ..comparison import sweep_readings

    load_or_exit(record.ruleset, overrides, doc=doc)  # an unusable --set exits 2
    sweep = sweep_readings(record, overrides=overrides)
    if doc is not None:
        emit_json(with_problems(sweep.to_json(), []))
    else:
        from ..render.comparison import readings_report

        say("\n".join(readings_report(sweep)))
    raise typer.Exit(0 if sweep.baseline.comparable else 1)
