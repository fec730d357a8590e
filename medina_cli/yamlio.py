"""Safe YAML reading with line numbers: no aliases, no duplicate keys, size and text checks.

`parse_yaml` returns the plain data together with a `Lines` map from each value's path (a tuple of
keys and list indices) to its 1-based line, so every later check can name the line it is about.
"""

from __future__ import annotations

import bisect
import errno
import os
import re
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from .errors import BadArgument, MedinaError, UnusableInput, brief, fail

MAX_BYTES = 1 << 20  # records and boards are a few kB; refuse anything past 1 MiB


class Lines(dict):
    """Path tuple -> 1-based line of the value (for mappings: the line of the key). `written` and
    `written_keys` keep, by path, the text as written of each scalar value or key YAML read as
    another type than text (a number, boolean, null, date…), for messages."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.written: dict[tuple, str] = {}
        self.written_keys: dict[tuple, str] = {}

    def of(self, *path, default: int | None = None) -> int | None:
        while path:
            if path in self:
                return self[path]
            path = path[:-1]
        return self.get((), default)

    def shown(self, value, *path) -> str:
        """The value at `path` for a message: text quoted, another scalar as written in the file."""
        return shown(value, self.written.get(path))

    def shown_key(self, *path) -> str:
        """The last key of `path` for a message, the same way."""
        return shown(path[-1], self.written_keys.get(path))


def shown(value, written: str | None) -> str:
    """`value` for a message: text quoted, a scalar YAML read as another type as `written` in the file
    ("nothing" for a value that is not in the file at all)."""
    if written is None:
        return "nothing" if value is None else repr(value)
    return repr(value) if isinstance(value, str) else f"`{written}`" if written else "(empty)"


def read_text(path: str) -> tuple[str, str]:
    """Read a file (or `-` for stdin) as text; returns (display name, text). Never modifies it."""
    name = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            raw = sys.stdin.buffer.read(MAX_BYTES + 1)
        else:
            descriptor = os.open(
                path, os.O_RDONLY | os.O_NONBLOCK
            )  # a pipe without a writer does not block
            with open(descriptor, "rb") as handle:
                mode = os.fstat(descriptor).st_mode
                if stat.S_ISDIR(mode):
                    raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
                if not stat.S_ISREG(mode):
                    raise fail(
                        "file-not-found",
                        "not a regular file (a pipe, socket or device: reading it could "
                        "wait for ever)",
                        file=name,
                        error=UnusableInput,
                    )
                raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise fail(
            "file-not-found", f"cannot read: {exc.strerror or exc}", file=name, error=UnusableInput
        ) from exc
    if len(raw) > MAX_BYTES:
        raise fail(
            "too-large",
            f"larger than {MAX_BYTES // 1024} KiB; not read",
            file=name,
            error=UnusableInput,
        )
    if b"\0" in raw:
        raise fail(
            "not-text", "binary data (NUL byte), not a text file", file=name, error=UnusableInput
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise fail(
            "not-text",
            f"not UTF-8 text (bad byte at offset {exc.start})",
            file=name,
            error=UnusableInput,
        ) from exc
    return name, text


LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when the wheel has it


MAX_DEPTH = 64  # libyaml recurses in C: refuse absurd nesting before it can overflow the stack
# Block nesting can only deepen through a line's leading run of indentation and `- ` / `? ` indicators.
DEEP_BLOCK_RE = re.compile(rf"^[ \t?:-]{{{4 * MAX_DEPTH}}}", re.M)


def _too_deep(text: str) -> int | None:
    """The line where nesting goes past MAX_DEPTH, if any. A quick look at the text (flow brackets,
    block indentation) clears almost every file; only one it cannot clear (brackets inside quoted
    text or comments count there too) is walked through YAML's parser, which is not recursive."""
    if not DEEP_BLOCK_RE.search(text) and not _deep_brackets(text):
        return None
    return _deep_events(text)


def _deep_brackets(text: str) -> bool:
    depth = 0
    for match in re.finditer(r"[\[\]{}]", text):
        depth = depth + 1 if match.group() in "[{" else max(depth - 1, 0)
        if depth > MAX_DEPTH:
            return True
    return False


OTHER_BREAK_RE = re.compile(
    "[\r\x85\u2028\u2029]"
)  # line breaks to YAML, not to an editor's line numbers


def row_counter(text: str):
    """`row(mark)`: the 1-based line of a YAML mark in `text`, counting "\n" as the rest of the tool does
    (YAML also breaks lines at a lone \r, U+0085, U+2028 and U+2029: an error's line would shift)."""
    if not OTHER_BREAK_RE.search(text):
        return lambda mark: mark.line + 1
    starts = [match.end() for match in re.finditer("\n", text)]
    return lambda mark: bisect.bisect_right(starts, mark.index) + 1


def _deep_events(text: str) -> int | None:
    """The line of the first mapping or list nested deeper than MAX_DEPTH, by YAML's own events (a
    syntax error before that is left for the full parse to report). libyaml is asked first; where it
    stops with an error (some releases cap nesting themselves, in their own words), PyYAML's pure-Python
    parser, which has no such cap and is not recursive, walks the text again, so the answer does not
    depend on the installed release."""
    for loader_class in (
        (LOADER, yaml.SafeLoader) if LOADER is not yaml.SafeLoader else (yaml.SafeLoader,)
    ):
        loader = loader_class(text)
        depth = 0
        try:
            while loader.check_event():
                event = loader.get_event()
                if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                    depth += 1
                    if depth > MAX_DEPTH:
                        return row_counter(text)(event.start_mark)
                elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                    depth -= 1
            return None
        except yaml.YAMLError:
            continue
        finally:
            loader.dispose()
    return None


def parse_yaml(text: str, name: str):
    """Parse one YAML document into (data, Lines); raises MedinaError on any hazard."""
    deep = _too_deep(text)
    if deep is not None:
        raise fail(
            "yaml-syntax", f"YAML nested deeper than {MAX_DEPTH} levels", file=name, line=deep
        )
    loader, row = LOADER(text), row_counter(text)
    try:
        root = loader.get_single_node()
    except yaml.composer.ComposerError as exc:
        if "expected a single document" in str(exc.context or ""):
            raise fail(
                "yaml-multiple-documents",
                "more than one YAML document",
                file=name,
                line=row(exc.problem_mark) if exc.problem_mark else None,
            ) from exc
        raise _syntax(exc, name, text) from exc
    except yaml.MarkedYAMLError as exc:
        raise _syntax(exc, name, text) from exc
    except yaml.YAMLError as exc:
        raise fail("yaml-syntax", f"YAML error: {exc}", file=name) from exc
    except RecursionError:
        raise fail("yaml-syntax", "YAML nesting too deep", file=name) from None
    finally:
        loader.dispose()
    lines = Lines()
    if root is None:
        return None, lines
    try:
        data = _convert(root, (), lines, loader, name, set(), row)
    except RecursionError:
        raise fail("yaml-syntax", "YAML nesting too deep", file=name) from None
    return data, lines


UNCLOSED = {
    "while parsing a flow sequence": "`[`",
    "while parsing a flow mapping": "`{`",
    "while scanning a quoted scalar": "quote",
    "while parsing a flow node": None,
}
BRACKET_OR_SKIPPED_RE = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^']|'')*'|#[^\n]*|[\[\]{}]")


@dataclass
class _Opened:
    line: int  # 0-based, as libyaml's marks
    bracket: str


def _last_unclosed_bracket(text: str) -> _Opened | None:
    """The innermost `[` or `{` left open in `text` (quoted text and comments aside), if any."""
    stack = []
    for match in BRACKET_OR_SKIPPED_RE.finditer(text):
        token = match.group()
        if token in "[{":
            stack.append(match.start())
        elif token in "]}" and stack:
            stack.pop()
    if not stack:
        return None
    return _Opened(text.count("\n", 0, stack[-1]), f"`{text[stack[-1]]}`")


DASH_WITHOUT_SPACE_RE = re.compile(r"\s*-[^\s-]")


def _syntax(exc, name, text: str):
    mark, row = exc.problem_mark or exc.context_mark, row_counter(text)
    rows = text.split("\n")  # libyaml may point one line past the end
    line = min(row(mark), len(rows)) if mark else None
    message = f"YAML syntax error: {exc.problem or exc.context}"
    opened = exc.context_mark
    if (
        exc.context == "while parsing a flow node"
    ):  # libyaml marks only where it gave up: find the bracket
        opened = _last_unclosed_bracket(text[: mark.index] if mark else text)
    opened_line = (
        None if opened is None else opened.line + 1 if isinstance(opened, _Opened) else row(opened)
    )
    if (
        exc.context in UNCLOSED
        and opened is not None
        and mark is not None
        and row(mark) > opened_line
    ):
        line = (
            opened_line  # the error shows only where the text goes on: name the line that opened it
        )
        message = f"YAML syntax error: the {UNCLOSED[exc.context] or opened.bracket} opened here is not closed"
    elif line is not None and "\t" in rows[line - 1][: mark.column + 1]:
        message += " (a tab: YAML indents with spaces only)"
    elif line is not None and exc.problem == "did not find expected '-' indicator":
        item = rows[line - 1].strip()
        message += (
            f" (a list item is a dash and a space: `- {item[1:]}`, not `{item}`)"
            if DASH_WITHOUT_SPACE_RE.match(item)
            else f" (each item of the list above begins with a dash and a space: `- {item}`)"
        )
    return fail("yaml-syntax", message, file=name, line=line)


def base_dir_of(path: str) -> Path:
    """Where paths written inside the file (a ruleset file, say) are resolved from."""
    return Path.cwd() if path == "-" else Path(path).parent


def parse_or_collect(text: str, name: str, problems):
    """`parse_yaml`, except that a malformed file becomes an error in `problems` (a `Collected`)
    and None is returned; unusable input still raises."""
    try:
        return parse_yaml(text, name)
    except (UnusableInput, BadArgument):
        raise
    except MedinaError as exc:
        problems.errors.append(exc.problem)
        return None


def _convert(node, path, lines: Lines, constructor, name, seen: set, row):
    node_id = id(node)
    if node_id in seen:  # a node met twice is an alias: refuse before an alias bomb can expand
        line = row(node.start_mark)
        raise fail(
            "yaml-alias",
            f"the value anchored at line {line} is used again by an alias (`*name`): YAML "
            "aliases are not accepted (an anchor alone is harmless); write the value out",
            file=name,
            line=line,
        )
    seen.add(node_id)
    lines[path] = row(node.start_mark)
    if node.tag not in PLAIN_TAGS:
        raise fail(
            "yaml-syntax",
            f"the YAML tag `{node.tag.replace(STANDARD_TAG, '!!')}` is not accepted: "
            "write the value without a tag",
            file=name,
            line=row(node.start_mark),
        )
    if isinstance(node, yaml.ScalarNode):
        if node.tag == STR_TAG:
            return node.value
        lines.written[path] = node.value
        return _construct(node, constructor, name, row)
    if isinstance(node, yaml.MappingNode):
        result = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise fail(
                    "yaml-wrong-type",
                    "a mapping key must be a plain value",
                    file=name,
                    line=row(key_node.start_mark),
                )
            key = (
                key_node.value
                if key_node.tag == STR_TAG
                else _construct(key_node, constructor, name, row)
            )
            try:
                duplicate = key in result
            except TypeError:
                raise fail(
                    "yaml-wrong-type",
                    "unusable mapping key",
                    file=name,
                    line=row(key_node.start_mark),
                ) from None
            if duplicate:
                raise fail(
                    "yaml-duplicate-key",
                    f"duplicate key {shown(key, key_node.value)}",
                    file=name,
                    line=row(key_node.start_mark),
                )
            key_path = path + (key,)
            if key_node.tag != STR_TAG:
                lines.written_keys[key_path] = key_node.value
            result[key] = _convert(value_node, key_path, lines, constructor, name, seen, row)
            lines[key_path] = row(key_node.start_mark)
        return result
    return [
        _convert(item, path + (i,), lines, constructor, name, seen, row)
        for i, item in enumerate(node.value)
    ]


STR_TAG = (
    "tag:yaml.org,2002:str"  # text: the node's value as is, exactly what the constructor returns
)
STANDARD_TAG = "tag:yaml.org,2002:"
# What a tag may make of a value: the types YAML gives untagged values (`!!str 2003` is fine). Any other
# tag, on any node (the root too), is refused: `!!python/object`, `!local`, or `!!set` and `!!binary`.
PLAIN_TAGS = {
    STANDARD_TAG + kind
    for kind in ("str", "int", "float", "bool", "null", "timestamp", "map", "seq")
}


LARGEST_INT = (
    2**63
)  # no count, cell or score comes near; beyond it Python's own limits begin to bite


def _construct(node, constructor, name, row):
    """A scalar of another type than text (number, boolean, null, date…), by YAML's safe constructor."""
    try:
        value = constructor.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, OverflowError) as exc:
        reason = (
            "too many digits" if "int_max_str_digits" in str(exc) else exc
        )  # Python's own limit, not ours
        value, error = None, reason
    else:
        too_large = (
            isinstance(value, int) and not isinstance(value, bool) and abs(value) >= LARGEST_INT
        )
        error = "a number this large is not read (64 bits at most)" if too_large else None
    if error is not None:
        raise fail(
            "yaml-syntax",
            f"unreadable value {brief(node.value)}: {error}",
            file=name,
            line=row(node.start_mark),
        )
    return value


def yaml_flow(value) -> str:
    """A value as one line of YAML flow text that reads back as exactly this value (`true`, `'12'`,
    `{NW: 1, SE: 2}`): how records, boards and rulesets write a scalar."""
    text = yaml.safe_dump(
        value, default_flow_style=True, allow_unicode=True, sort_keys=False, width=10_000
    ).strip()
    return text[:-4].rstrip() if text.endswith("\n...") else text.removesuffix("...").rstrip()


def yaml_type(value) -> str:
    """How YAML read a value, in words, for messages about values that should have been text."""
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"a {type(value).__name__}"
