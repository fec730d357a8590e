"""The checks record/1 and board/1 files share: the ruleset they name and their players."""

from __future__ import annotations

from ..errors import BadArgument, MedinaError, Problem, UnusableInput
from ..rules.loader import Ruleset, load_ruleset
from ..yamlio import Lines, yaml_type

RESERVED_PLAYER = "neutral"


def other_rules_words(own, ruleset_ref: str | Ruleset | None, overrides) -> str | None:
    """How a record named `own` is played otherwise than it says (`--ruleset`, `--set`), in words; None: as it says."""
    if isinstance(ruleset_ref, Ruleset):
        ruleset_ref = ruleset_ref.id
    how = []
    if ruleset_ref is not None and ruleset_ref != own:
        how.append(f"under {ruleset_ref}")
    if overrides:
        how.append("with --set " + ", ".join(overrides))
    return " ".join(how) or None


class HeaderReader:
    """Reads a parsed file into `record` (a `Record` or a `Board`), collecting problems with their lines;
    subclasses read the rest of their format."""

    def __init__(
        self, record, data, lines: Lines, ruleset_ref, overrides, base_dir, ignore_well=False
    ):
        self.r, self.data, self.lines = record, data, lines
        self.ruleset_ref, self.overrides, self.base_dir = ruleset_ref, overrides, base_dir
        self.ignore_well = ignore_well

    def error(self, code, message, path=(), **where):
        self.r.problems.error(
            code,
            message,
            file=self.r.file,
            line=where.pop("line", None) or self.lines.of(*path),
            **where,
        )

    def _ruleset(self) -> bool:
        ref = self.ruleset_ref or self.data.get("ruleset")
        if ref is None:
            self.error("missing-key", "missing `ruleset:` (a built-in id or a path)", ())
            return False
        if not isinstance(ref, (str, Ruleset)):
            self.error(
                "yaml-not-text",
                f"`ruleset`: {self.lines.shown(ref, 'ruleset')} is read by YAML as "
                f"{yaml_type(ref)}; quote it to make it text",
                ("ruleset",),
            )
            return False
        try:
            self.r.ruleset = load_ruleset(
                ref, self.overrides, base_dir=None if self.ruleset_ref else self.base_dir
            )
            self.r.other_rules = other_rules_words(
                self.data.get("ruleset"), self.ruleset_ref, self.overrides
            )
        except MedinaError as exc:
            problem = exc.problem
            if self.ruleset_ref is not None or problem.code == "bad-set":
                problem.file = problem.file or (
                    "--set" if problem.code == "bad-set" else "--ruleset"
                )
                raise BadArgument.of(exc) from exc
            where = {"file": self.r.file, "line": self.lines.of("ruleset")}
            if (
                problem.file is None
            ):  # the id or path names no ruleset: the record cannot be read either
                problem.file, problem.line = where["file"], where["line"]
                raise UnusableInput.of(exc) from exc
            count = len(
                exc.problems
            )  # the ruleset file itself is broken: the record cannot be read
            raise UnusableInput(
                Problem(
                    problem.code,
                    f"the ruleset {ref} cannot be used ({count} error"
                    f"{'s' if count != 1 else ''} in it, below); the record cannot be read",
                    **where,
                ),
                more=exc.problems,
            ) from exc
        return True

    def _players(self) -> bool:
        players = self.data.get("players")
        if not isinstance(players, list) or not players:
            self.error(
                "bad-players" if players is not None else "missing-key",
                "`players` must be a list of player names in seat order",
                ("players",),
            )
            return False
        names, seen = [], set()
        for i, name in enumerate(players):
            if not isinstance(name, str):
                self.error(
                    "yaml-not-text",
                    f"player {self.lines.shown(name, 'players', i)} is read by YAML as "
                    f"{yaml_type(name)}; quote the name",
                    ("players", i),
                )
                return False
            if name.strip() != name or not name:
                self.error(
                    "bad-players",
                    f"player name {name!r} is empty or has surrounding spaces",
                    ("players", i),
                )
                return False
            if name == RESERVED_PLAYER:
                self.error("bad-players", "the player name `neutral` is reserved", ("players", i))
                return False
            if name in seen:
                self.error("bad-players", f"player {name!r} is listed twice", ("players", i))
                return False
            names.append(name)
            seen.add(name)
        refusal = self.r.ruleset.players_refusal(len(names))
        if refusal:
            self.error("unsupported-player-count", refusal, ("players",))
            return False
        self.r.players = names
        return True
