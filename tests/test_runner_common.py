"""The rest of experiments.common: game loading, integer lists, flags."""

from __future__ import annotations

import pytest
from absl import flags as absl_flags

from experiments.common import flags, game_loader, parsing
from experiments.common.runner import RunnerOptions


def test_load_game_registers_the_custom_games_and_explains_bad_strings():
    assert game_loader.load_game("dice(n=5,k=4)").get_type().short_name == "dice"
    with pytest.raises(game_loader.GameError, match="unknown game 'no_such_game'.*backgammon"):
        game_loader.load_game("no_such_game")
    with pytest.raises(game_loader.GameError, match="cannot load game 'pig\\(no_param=1\\)'"):
        game_loader.load_game("pig(no_param=1)")
    with pytest.raises(game_loader.GameError, match="expected a game string"):
        game_loader.load_game("")


@pytest.mark.parametrize(
    "text, expected",
    [("1,2,4-6", [1, 2, 4, 5, 6]), ("3", [3]), (" 2 , 1,2 ", [1, 2]), (["1", "3-4"], [1, 3, 4])],
)
def test_parse_int_list(text, expected):
    assert parsing.parse_int_list(text) == expected


@pytest.mark.parametrize(
    "text, message",
    [
        ("1,x", "bad entry 'x'"),
        ("5-2", "empty range '5-2'"),
        ("", "no values"),
        ("0,1", "below the minimum 1"),
    ],
)
def test_parse_int_list_errors_name_the_flag(text, message):
    with pytest.raises(ValueError, match=message) as error:
        parsing.parse_int_list(text, "--depths", minimum=1)
    assert str(error.value).startswith("--depths: ")


def test_runner_flags_build_runner_options():
    flag_values, define = flags.program_flags()
    flags.define_runner_flags(define, timeout_flag="game_timeout", timeout_default=60.0)
    flag_values(["prog", "--workers=3", "--retries=1", "--game_timeout=5", "--noprogress"])
    options = flags.runner_options(flag_values, timeout_flag="game_timeout")
    assert options == RunnerOptions(workers=3, retries=1, task_timeout=5.0, progress=False)
    flag_values(["prog", "--rerun_errors"])
    assert flags.runner_options(flag_values, timeout_flag="game_timeout").rerun_errors


def test_two_programs_can_define_the_same_flag_in_one_process():
    first, define_first = flags.program_flags()
    second, define_second = flags.program_flags()
    define_first.string("game", "pig", "a game")
    define_second.string("game", "backgammon", "a game")
    first(["prog"])
    second(["prog", "--game=dice"])
    assert (first.game, second.game) == ("pig", "dice")
    assert "game" not in absl_flags.FLAGS


def test_a_bad_flag_exits_2_with_one_message(capsys):
    flag_values, define = flags.program_flags()
    define.integer("workers", 1, "workers", lower_bound=1)
    with pytest.raises(SystemExit) as stop:
        flags.parse(flag_values, ["prog", "--workers=0"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "--help" in err and "Traceback" not in err
