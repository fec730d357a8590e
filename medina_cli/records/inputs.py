"""Which files hold records: below a folder, every record (*.yaml, *.yml, boardspace.net *.sgf) but
hidden files and folders, rulesets and finished boards; the boardspace.net records to import; and
reading a file that holds a record or a finished board, as its `medina:` tag says."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

RECORD_SUFFIXES = (".yaml", ".yml", ".sgf")
OTHER_FORMAT_RE = re.compile(r"^medina:\s*[\"']?(ruleset|board)/1[\"']?\s*(#.*)?$", re.M)
SKIPPED = {
    "ruleset": "a ruleset, not a record",
    "board": "a finished board, not a record (use medina score)",
    "special": "not a regular file (a pipe, socket or device: reading it could wait for ever)",
}


def visible_files_below(top: str) -> list[str]:
    """Every file below the folder `top`, sorted, hidden files and folders left out."""
    found: list[str] = []
    for folder, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found.extend(str(Path(folder, f)) for f in files if not f.startswith("."))
    return sorted(found)


def files_below(top: str, *, boards: bool = False) -> Iterator[tuple[str, str | None]]:
    """Every file with a record's suffix below the folder `top`, sorted, hidden files and folders left out,
    each with why it is no record to read (a ruleset, a finished board unless `boards`, not a regular
    file) or None."""
    for path in visible_files_below(top):
        if os.path.splitext(path)[1].lower() not in RECORD_SUFFIXES:
            continue
        kind = other_format(path)
        yield path, (SKIPPED[kind] if kind and not (boards and kind == "board") else None)


def site_records_below(top: str) -> tuple[list[str], list[str]]:
    """(the boardspace.net records, every other file) below the folder `top`, each sorted, hidden files and
    folders left out: a record is an `.sgf` file, or a regular file that begins as an SGF record or a story."""
    records: list[str] = []
    others: list[str] = []
    for path in visible_files_below(top):
        (
            records if path.lower().endswith(".sgf") or _begins_as_site_record(path) else others
        ).append(path)
    return records, others


def _begins_as_site_record(path: str) -> bool:
    """Do the first 4 KiB of the file at `path` begin a boardspace.net record? (What is not a regular file
    is never opened: a pipe could block.)"""
    from .boardspace import is_boardspace

    if not os.path.isfile(path):
        return False
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    return is_boardspace(path, head)


def other_format(path: str) -> str | None:
    """The other format ("ruleset" or "board") the file's first lines declare, or "special" for what is no
    regular file; None: read it as a record."""
    if os.path.exists(path) and not os.path.isfile(path):
        return "special"
    if not path.lower().endswith((".yaml", ".yml")):
        return None
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return None  # reading it as a record reports it
    match = OTHER_FORMAT_RE.search(head)
    return match.group(1) if match else None


def read_record_or_board(path: str, ruleset: str | None = None, overrides=()):
    """A record/1 (or boardspace.net) or a board/1 file, as its `medina:` tag decides: a Record or a Board.
    Raises MedinaError when it cannot be read at all."""
    from ..yamlio import base_dir_of, read_text
    from .boardfile import looks_like_board, parse_board
    from .record import parse_record

    name, text = read_text(path)
    parse = parse_board if looks_like_board(text) else parse_record
    return parse(
        text, name, ruleset=ruleset, overrides=tuple(overrides), base_dir=base_dir_of(path)
    )
