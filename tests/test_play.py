"""`medina play`: a game in the terminal against the agents, the record written after every placement.
A person is played by a test typing at a pseudo-terminal and reading what it shows."""

from __future__ import annotations

import random
import re
import subprocess
import sys

import pytest
from scorekit import run
from terminal import Session

import medina_cli as medina

PROMPT = r"(\S+), turn (\d+), placement (\d+) of (\d+)(?: \(a roof is due\))?> "


def listed(screen: str) -> list[str]:
    """The placements a `moves` answer lists: `  grey   4: C4 D3 D5 E4` lines."""
    return [
        f"{piece} {cell}"
        for piece, cells in re.findall(r"^  (\w+) +\d+: (.+)$", screen, re.M)
        for cell in cells.split()
    ]


@pytest.mark.slow
def test_a_person_plays_a_whole_game_against_greedy_through_the_terminal(tmp_path):
    """The second edition, Ann at the terminal against `greedy`: Ann asks for her legal placements and
    types one of them, asks for a hint once and plays it, types an illegal placement once and takes a
    placement back once; the game goes to its end, and the record then validates and scores."""
    rng = random.Random(24)
    path = tmp_path / "game.yaml"
    with Session(
        "play",
        path,
        "--ruleset",
        "second-edition-2014",
        "--seat",
        "Ann",
        "--seat",
        "greedy",
        "--hint-agent",
        "greedy",
        "--no-color",
        cwd=tmp_path,
    ) as screen:
        screen.expect(r"Ann \(at this terminal\) and greedy \(agent greedy\)")
        screen.expect(r"Buildings: .*1 Ann, 2 greedy")
        turns = set()
        tried = {"hint": False, "undo": False, "illegal": False}
        while True:
            prompt = screen.expect(f"{PROMPT}|Final score: .*")
            if prompt.group(0).startswith("Final score"):
                break
            player, turn = prompt.group(1), int(prompt.group(2))
            assert player == "Ann"
            turns.add(turn)
            if not tried["illegal"]:
                tried["illegal"] = True
                screen.type("roof B2")
                screen.expect(
                    r"roof B2: a roof must go on a building \[roof-not-on-building\]\nNot recorded"
                )
                continue
            if turn >= 5 and not tried["hint"]:
                tried["hint"] = True
                screen.type("hint")
                shown = screen.expect(r"agent greedy\n\(.*\)\n  1\. (\w+ \w+)")
                assert "--explain" not in shown.group(0)  # not a command of play
                best = shown.group(1)
                screen.expect(PROMPT)
                screen.type(best)
                screen.expect(f"turn {turn}, Ann: {best}\n")
                continue
            screen.type("moves")
            answer = screen.expect(r"(\d+) legal placements?:\n((?:  .*\n)*)" + PROMPT)
            choices = listed(answer.group(2))
            assert len(choices) == int(answer.group(1))
            choice = rng.choice(choices)
            screen.type(choice)
            screen.expect(f"turn {turn}, Ann: {choice}\n")
            if turn >= 9 and not tried["undo"]:
                tried["undo"] = True
                screen.expect(PROMPT)
                screen.type("undo")
                screen.expect(f"took back turn {turn}, Ann: {choice}\nnext: Ann, ")
        screen.expect(f"The game is recorded in {re.escape(str(path))}")
        assert screen.wait() == 0
    assert all(tried.values()) and len(turns) > 20
    code, out, _ = run("validate", path)
    assert code == 0 and "valid (finished; second-edition-2014, 2 players" in out
    record = medina.read_record(str(path))
    totals = medina.score(medina.replay(record).game).totals
    assert f"Final score: Ann {totals['Ann']}, greedy {totals['greedy']}" in screen.screen
    code, out, _ = run("score", path)
    assert code == 0 and "Winner" in out


@pytest.mark.slow
def test_ctrl_c_and_end_of_input_leave_a_valid_record_and_say_how_to_go_on(tmp_path):
    path = tmp_path / "game.yaml"
    with Session(
        "play",
        path,
        "-r",
        "original-2001",
        "--seat",
        "greedy",
        "--seat",
        "Ann",
        "--seat",
        "random",
        "--no-color",
        cwd=tmp_path,
    ) as screen:
        screen.expect(r"turn 1, greedy: \w+ \w+\n")
        screen.expect(PROMPT)
        screen.type("orange K9")
        screen.expect(r"turn 2, Ann: orange K9\n")
        screen.expect(PROMPT)
        screen.press(b"\x03")
        screen.expect(
            f"Stopped after turn 1 and 1 placement of turn 2; {re.escape(str(path))} holds the game so far. "
            f"Go on with: medina play {re.escape(str(path))} --continue"
        )
        assert screen.wait() == 130
    assert run("validate", path)[0] == 0
    before = path.read_text()
    assert (
        "  - Ann: orange K9\n" in before
        and "x-play: {agents: {greedy: greedy, random: random}, seed: 0}" in before
    )
    with Session("play", path, "--continue", "--no-color", cwd=tmp_path) as screen:
        screen.expect(r"Ann, turn 2, placement 2 of 2> ")
        screen.press(b"\x04")
        screen.expect("Stopped after turn 1 and 1 placement of turn 2;")
        assert screen.wait() == 0
    assert path.read_text() == before


@pytest.mark.slow
def test_every_seat_an_agent_plays_to_the_end_without_a_terminal(tmp_path):
    path = tmp_path / "demo.yaml"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "medina_cli",
            "play",
            path,
            "-r",
            "second-edition-2014",
            "--seat",
            "greedy",
            "--seat",
            "random",
            "--seat",
            "Cleo=greedy",
            "--seed",
            "7",
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert "greedy (agent greedy), random (agent random) and Cleo (agent greedy)" in done.stdout
    assert re.search(
        r"^Final score: greedy \d+, random \d+, Cleo \d+; .* wins?\.$", done.stdout, re.M
    )
    code, out, _ = run("validate", path)
    assert code == 0 and "valid (finished; second-edition-2014, 3 players" in out
    assert run("score", path)[0] == 0


@pytest.mark.slow
def test_a_game_stopped_and_continued_plays_as_one_played_at_once(tmp_path):
    from medina_cli.session.table import Table, read_seats
    from medina_cli.session.table import run as play

    seats = read_seats(["greedy", "random", "greedy"])
    assert [(s.name, s.agent) for s in seats] == [
        ("greedy", "greedy"),
        ("random", "random"),
        ("greedy2", "greedy"),
    ]
    quiet = {"ask": None, "tell": lambda line: None, "draw": lambda game, key: ""}
    whole = Table.start(str(tmp_path / "whole.yaml"), "original-2001", seats, seed=5)
    assert play(whole, **quiet)
    halves = Table.start(str(tmp_path / "halves.yaml"), "original-2001", seats, seed=5)
    for _ in range(20):
        halves.play_agent()
    assert play(Table.resume(str(tmp_path / "halves.yaml")), **quiet)
    assert (tmp_path / "halves.yaml").read_text() == (tmp_path / "whole.yaml").read_text()


def seen_at_the_table(
    tmp_path, seats: list[str], *, board_always: bool = False, prompts: int = 4
) -> list[str]:
    """What a game at the table tells, the board as `BOARD n [key]` (n placements made): the person takes the
    first legal placement at each prompt, and quits at the prompt after `prompts` of them."""
    from medina_cli.session.table import Table, read_seats
    from medina_cli.session.table import run as play

    tmp_path.mkdir(exist_ok=True)
    table = Table.start(str(tmp_path / "game.yaml"), "original-2001", read_seats(seats), seed=3)
    told = []

    def ask(prompt: str) -> str:
        told.append(f"PROMPT {len(table.game.move_stack)}")
        asked = sum(line.startswith("PROMPT") for line in told)
        return "quit" if asked > prompts else str(table.game.legal_placements()[0])

    play(
        table,
        ask=ask,
        tell=told.append,
        draw=lambda game, key: f"BOARD {len(game.move_stack)}{' key' * key}",
        board_always=board_always,
    )
    return told


def test_the_agents_placements_are_lines_and_the_board_is_drawn_once_before_a_persons_turn(
    tmp_path,
):
    told = seen_at_the_table(tmp_path, ["greedy", "Ann", "random"])
    prompts = [at for at, line in enumerate(told) if line.startswith("PROMPT")]
    boards = [at for at, line in enumerate(told) if line.startswith("BOARD")]
    assert told[boards[0]] == "BOARD 0 key" and len(prompts) == 5
    assert boards[1:] == [
        at - 1 for at in prompts
    ]  # the board, as it stands, right before each prompt, only there
    assert all(told[at - 1] == f"BOARD {told[at].split()[1]}" for at in prompts)
    assert re.fullmatch(
        r"turn 1, greedy: \w+ \w+", told[boards[0] + 1]
    )  # the agents' placements as lines
    placed = sum(line.startswith("turn ") for line in told)
    always = seen_at_the_table(tmp_path / "always", ["greedy", "Ann", "random"], board_always=True)
    assert sum(line.startswith("turn ") for line in always) == placed
    assert [line for line in always if line.startswith("BOARD")] == [
        "BOARD 0 key",
        *(f"BOARD {n}" for n in range(1, placed + 1)),
    ]  # --board always: after every placement


@pytest.mark.slow
def test_a_game_of_agents_draws_the_board_at_its_start_and_its_end(tmp_path):
    told = seen_at_the_table(tmp_path, ["greedy", "random", "greedy"])
    boards = [line for line in told if line.startswith("BOARD")]
    assert boards == ["BOARD 0 key", f"BOARD {sum(line.startswith('turn ') for line in told)}"]
    assert told[-2].startswith("Final score:") and told.index(boards[1]) == len(told) - 3


def test_play_marks_the_last_placement_on_the_board_and_takes_board_turn_or_always(tmp_path):
    code, out, _ = run(
        "play",
        tmp_path / "game.yaml",
        "-r",
        "original-2001",
        "--seat",
        "greedy",
        "--seat",
        "Ann",
        "--seat",
        "random",
        "--no-color",
        stdin="quit\n",
    )
    (last,) = re.findall(r"^turn 1, greedy: \w+ (\w+)$", out, re.M)[-1:]
    column, row = ord(last[0]) - ord("A"), int(last[1:])
    board = out.split("     A  B")[
        -2
    ]  # the rows of the board drawn before Ann's turn, after greedy's placements
    row_line = next(line for line in board.splitlines() if line.startswith(f"{row:>3} "))
    assert code == 0 and row_line[4 + 3 * column] == ">" and board.count(">") == 1
    code, _, err = run(
        "play",
        tmp_path / "other.yaml",
        "-r",
        "original-2001",
        "--seat",
        "A",
        "--seat",
        "B",
        "--seat",
        "C",
        "--board",
        "sometimes",
    )
    assert code == 2 and "--board" in err and "'sometimes' is not turn or always" in err


@pytest.mark.parametrize(
    "args, status, message",
    [
        (
            ("--seat", "Ann", "--seat", "greedy"),
            2,
            "a new game needs --ruleset and a --seat for each player",
        ),
        (
            ("-r", "original-2001", "--seat", "Ann", "--seat", "greedy"),
            2,
            "--seat: original-2001 is for 3 or 4 players, not 2 [unsupported-player-count]",
        ),
        (
            ("-r", "original-2001", "--seat", "Ann", "--seat", "mcts:x", "--seat", "Ben"),
            2,
            "--seat mcts:x: agent 'mcts:x': the playout budget of mcts must be a whole number ≥ 1",
        ),
        (
            ("-r", "original-2001", "--seat", "Ann", "--seat", "Ann", "--seat", "Ben"),
            2,
            "player 'Ann' is listed twice",
        ),
        (
            (
                "-r",
                "original-2001",
                "--seat",
                "A",
                "--seat",
                "B",
                "--seat",
                "C",
                "--hint-agent",
                "random",
            ),
            2,
            "--hint-agent: random does not rate placements",
        ),
        (("--continue", "-r", "original-2001"), 2, "--ruleset: only for a new game"),
        (("--continue",), 2, "cannot read"),
    ],
)
def test_play_says_what_is_wrong_with_its_options(tmp_path, args, status, message):
    path = tmp_path / "game.yaml"
    code, out, err = run("play", path, *args)
    assert (code, out) == (status, "") and message in err and len(err.splitlines()) == 1
    assert not path.exists()


@pytest.mark.slow
def test_play_never_starts_over_a_game_and_continues_only_a_valid_one(tmp_path):
    path = tmp_path / "game.yaml"
    assert (
        run("new", path, "-r", "original-2001", "--players", "Anna,Ben,Cleo", "--merchant", "J7")[0]
        == 0
    )
    before = path.read_text()
    code, _, err = run(
        "play", path, "-r", "original-2001", "--seat", "A", "--seat", "B", "--seat", "C"
    )
    assert (
        code == 2
        and "exists; go on with that game (medina play" in err
        and path.read_text() == before
    )
    code, _, err = run(
        "play", path, "--continue", "--seat", "Anna", "--seat", "Bob", "--seat", "Cleo"
    )
    assert code == 2 and "--seat: Bob is not among the record's players, Anna, Ben and Cleo" in err
    code, out, _ = run(
        "play",
        path,
        "--continue",
        "--seat",
        "Anna=greedy",
        "--seat",
        "Ben=random",
        "--seat",
        "Cleo=greedy",
    )  # a record made by `medina new`: its seats given
    assert code == 0 and "Final score:" in out and run("validate", path)[0] == 0
    path.write_text(before.replace("turns: []", "turns:\n  - Ben: grey K8"))
    code, _, err = run(
        "play", path, "--continue", "--seat", "Anna=greedy", "--seat", "Ben", "--seat", "Cleo"
    )
    assert code == 1 and "[out-of-turn]" in err


def test_continue_with_a_seat_changes_that_seat_only_and_the_record_keeps_it(tmp_path):
    """A record made with new/add: `--seat Bob=greedy` makes Bob an agent, the others stay at the terminal,
    and the record keeps the seats (`x-play`) for the next --continue, which needs no --seat."""
    path = tmp_path / "game.yaml"
    assert (
        run("new", path, "-r", "original-2001", "--players", "Ann,Bob,Cy", "--merchant", "K7")[0]
        == 0
    )
    assert run("add", path, "grey K8", "black C3")[0] == 0
    code, out, _ = run(
        "play", path, "--continue", "--seat", "Bob=greedy", "--no-color", stdin="quit\n"
    )
    assert (
        code == 0 and "Ann (at this terminal), Bob (agent greedy) and Cy (at this terminal)." in out
    )
    assert (
        re.search(r"^turn 2, Bob: \w+ \w+$", out, re.M) and "Cy, turn 3, placement 1 of 2> " in out
    )
    assert path.read_text().endswith("\nx-play: {agents: {Bob: greedy}, seed: 0}\n")
    code, out, _ = run("play", path, "--continue", "--no-color", stdin="quit\n")
    assert code == 0 and "Bob (agent greedy)" in out
    code, out, _ = run(
        "play",
        path,
        "--continue",
        "--seat",
        "Bob",
        "--seat",
        "Cy=random",
        "--no-color",
        stdin="quit\n",
    )
    assert (
        code == 0 and "Ann (at this terminal), Bob (at this terminal) and Cy (agent random)." in out
    )
    assert "\nx-play: {agents: {Cy: random}, seed: 0}\n" in path.read_text()
    path.write_text(
        path.read_text().replace(
            "x-play: {agents: {Cy: random}, seed: 0}", "x-play:\n  agents: {Cy: random}\n  seed: 0"
        )
    )
    code, out, _ = run(
        "play", path, "--continue", "--seat", "Ann=greedy", "--no-color", stdin="quit\n"
    )
    assert code == 0 and f"The seats are not kept in {path} (its x-play is laid out by hand" in out
    assert (
        "\nx-play:\n  agents: {Cy: random}\n  seed: 0\n" in path.read_text()
        and "Ann (agent greedy)" in out
    )


def test_a_placement_typed_for_another_player_is_refused_and_the_game_goes_on(tmp_path):
    """A line naming a player whose turn it is not is bad input like any other: one line says whose turn it
    is, the prompt comes back, and the commands after it are read."""
    path = tmp_path / "p4.yaml"
    code, out, err = run(
        "play",
        path,
        "--ruleset",
        "original-2001",
        "--seat",
        "Ann",
        "--seat",
        "Ben",
        "--seat",
        "Cy",
        "--merchant",
        "K7",
        stdin="Cy: grey K8\nstatus\nAnn: grey K8\nquit\n",
    )
    assert (code, err) == (0, "")
    assert (
        "Cy named for grey K8, but it is Ann's turn (placement 1 of 2) [out-of-turn]\nNot recorded."
        in out
    )
    assert "turn 1, Ann: grey K8" in out and "Stopped after 1 placement of turn 1; " in out
    assert "  - Ann: grey K8\n" in path.read_text()


@pytest.mark.parametrize("ruleset, tea", [("original-2001", False), ("second-edition-2014", True)])
def test_help_offers_tea_only_under_rules_with_tea_tiles(tmp_path, ruleset, tea):
    code, out, _ = run(
        "play",
        tmp_path / "game.yaml",
        "-r",
        ruleset,
        "--seat",
        "Ann",
        "--seat",
        "Ben",
        "--seat",
        "Cy",
        "--no-color",
        stdin="help\nquit\n",
    )
    assert code == 0
    assert f"Type a placement (grey K8, roof C10{', tea' if tea else ''}), or:" in out


def test_moves_that_list_nothing_at_the_table_say_which_rule_refuses(tmp_path):
    code, out, _ = run(
        "play",
        tmp_path / "game.yaml",
        "-r",
        "original-2001",
        "--seat",
        "Ann",
        "--seat",
        "Ben",
        "--seat",
        "Cy",
        "--merchant",
        "K7",
        "--no-color",
        stdin="moves roof K8\nquit\n",
    )
    assert (
        code == 0
        and (
            "0 legal placements, roof on K8:\n  roof K8: a roof must go on a building "
            "[roof-not-on-building]\n"
        )
        in out
    )


def test_a_piece_typed_without_its_cell_gets_no_shell_advice(tmp_path):
    code, out, _ = run(
        "play",
        tmp_path / "game.yaml",
        "-r",
        "original-2001",
        "--seat",
        "Ann",
        "--seat",
        "Ben",
        "--seat",
        "Cy",
        "--no-color",
        stdin="grey\nquit\n",
    )
    assert (
        code == 0
        and "'grey' has no cell: a placement is `<piece> <cell>`, e.g. `roof K8` [bad-placement]"
        in out
    )
    assert "quote" not in out


def test_an_agent_chooses_inside_the_callers_thinking_context(tmp_path):
    """`run(thinking=...)`: every agent placement is made inside `thinking(name)`, a person's outside."""
    from contextlib import contextmanager

    from medina_cli.session.table import Table, read_seats
    from medina_cli.session.table import run as play

    table = Table.start(
        str(tmp_path / "game.yaml"),
        "original-2001",
        read_seats(["greedy", "Ann", "random"]),
        seed=3,
    )
    inside: list[tuple[str, int]] = []

    @contextmanager
    def thinking(name):
        before = len(table.game.move_stack)
        yield
        inside.append((name, len(table.game.move_stack) - before))

    def ask(prompt: str) -> str:
        return "quit" if len(table.game.move_stack) > 8 else str(table.game.legal_placements()[0])

    play(table, ask=ask, tell=lambda line: None, draw=lambda game, key: "", thinking=thinking)
    assert {name for name, _ in inside} == {"greedy", "random"}
    assert all(placed == 1 for _, placed in inside)
    by_agents = [placements for player, placements in table.game.turns() if player != "Ann"]
    assert len(inside) == sum(len(placements) for placements in by_agents) > 0
