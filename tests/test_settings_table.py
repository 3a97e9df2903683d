"""bots/options.py and bots/counters.py declare every setting and counter once.

The native engine's lists, the docs' tables and the names each bot accepts
must follow them, and an option's name must stay in few files of bots/.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pyspiel
import pytest

import bots
from bots import native_engine, native_header, settings_docs
from bots.counters import COUNTERS, MCMS_STAT_KEYS, STAT_KEYS
from bots.native_searcher import make_searcher, native_settings
from bots.options import (
    BOT_NAMES,
    BOT_SETTINGS,
    SearchOptions,
    accepted,
    bot_settings,
    native_setting_names,
    native_setting_types,
    option_settings,
)

ROOT = Path(__file__).resolve().parent.parent


def _native():
    module = native_engine.native()
    if module is None:
        pytest.skip(f"native engine unavailable: {native_engine.problem()}")
    return module


def test_the_native_engine_reads_the_settings_the_table_sends():
    assert sorted(_native().setting_names()) == sorted(native_setting_names())


def test_the_native_settings_header_is_generated_from_the_table(tmp_path):
    assert native_header.is_current(), "run: python -m bots.native_header"
    text = native_header.render()
    for name, kind, _ in native_setting_types():
        assert f"X({kind}, {name})" in text
    stale = tmp_path / "search_settings.h"
    stale.write_text(text.replace("X(bool, reachable_probes)", "X(int, reachable_probes)"))
    assert not native_header.is_current(stale)


def test_every_native_row_names_its_cpp_type():
    types = {kind for _, kind, _ in native_setting_types()}
    assert all(types) and "True" not in types
    header = (ROOT / "bots/native/search.h").read_text()
    for kind in types - {"bool", "int", "double", "std::string", "std::int64_t", "std::uint64_t"}:
        assert kind.startswith("std::vector") or re.search(
            rf"\b(enum class|using) {kind}\b", header
        )


def test_the_native_engine_counts_the_counters_of_the_table_in_order():
    assert list(_native().counter_names()) == [counter.name for counter in COUNTERS]


def test_native_settings_holds_every_name_the_engine_reads():
    game = pyspiel.load_game("pig")
    for options in (
        SearchOptions.create("star2", tt_size=10, reachable_probes=True),
        SearchOptions.create("star2", samples=3, seed=5),
        SearchOptions.create("expectiminimax"),
    ):
        assert sorted(native_settings(game, 0, options, -1.0, 1.0)) == sorted(
            native_setting_names()
        )


def test_the_native_engine_refuses_a_missing_or_unknown_setting():
    module = _native()
    game = pyspiel.load_game("pig")
    settings = native_settings(game, 0, SearchOptions.create("star2"), -1.0, 1.0)
    evaluator = bots.evaluators.make_evaluator(None, game)
    for broken, message in (
        ({**settings, "reachable_probe": True}, "unknown native setting 'reachable_probe'"),
        ({k: v for k, v in settings.items() if k != "tt_size"}, "lack 'tt_size'"),
        ({**settings, "probing": "zigzag"}, "unknown native setting value 'zigzag'"),
    ):
        with pytest.raises(ValueError, match=message):
            module.Searcher(game, broken, evaluator, "", "x", False)


@pytest.mark.parametrize("algorithm", ["star2", "mcms"])
def test_stats_report_the_counters_of_the_table(algorithm, engine):
    game = pyspiel.load_game("pig")
    settings = {"samples": 2} if algorithm == "mcms" else {}
    searcher = make_searcher(engine, game, 0, "star2", **settings)
    searcher.search(game.new_initial_state(), 2)
    keys = MCMS_STAT_KEYS if algorithm == "mcms" else STAT_KEYS
    assert tuple(searcher.stats()) == keys


def test_last_search_holds_the_result_and_every_counter(engine):
    game = pyspiel.load_game("pig")
    bot = bots.make_bot("mcms(max_depth=2,samples=2)", game, 0, engine=engine)
    bot.step(game.new_initial_state())
    result = {"value", "action", "depth", "time", "completed", "partial_depth"}
    assert set(bot.last_search) == result | {"iterations", "engine"} | set(MCMS_STAT_KEYS)


def test_each_bot_accepts_its_rows_and_says_so():
    for name in BOT_NAMES:
        assert set(accepted(name)) == {
            row.name for row in BOT_SETTINGS + option_settings() if name in row.bots
        }
    with pytest.raises(ValueError) as error:
        bots.make_bot("star1(probing_factor=2)", "pig", 0)
    assert f"accepted: {', '.join(accepted('star1'))}" in str(error.value)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("star2(max_depth=0)", "max_depth must be an integer >= 1 or none, got 0"),
        ("star2(time_limit=0)", "time_limit must be a number > 0 or none, got 0"),
        ("star2(engine=fast)", "unknown engine 'fast'; accepted: auto, native, python"),
        ("star2(reachable_probes=1)", "reachable_probes must be true or false, got 1"),
        ("chanceprobcut(R=0)", "R must be an integer >= 1 or none, got 0"),
        ("mcts(evaluator=nn)", "unknown evaluator 'nn'; accepted: rollout, heuristic"),
        ("mcts(seed=none)", "seed must be an integer >= 0, got None"),
        ("random(seed=-1)", "seed must be an integer >= 0 or none, got -1"),
    ],
)
def test_a_value_outside_its_row_is_refused_with_name_value_and_range(spec, message):
    with pytest.raises(ValueError) as error:
        bots.make_bot(spec, "pig", 0)
    assert message in str(error.value)


def test_every_row_default_passes_its_own_check():
    for name in BOT_NAMES:
        for row in bot_settings(name).values():
            if row.kind != "object":
                row.check(row.default)
                if row.bot_default is not None:
                    row.check(row.bot_default)
                for entry in row.game_defaults:
                    row.check(entry.value)


def test_the_docs_tables_are_the_rendered_rows():
    assert settings_docs.stale_pages() == [], "run: python -m bots.settings_docs"
    for page in settings_docs.PAGES:
        text = (settings_docs.DOCS / page).read_text()
        assert "<!-- settings:" in text, page


def test_render_replaces_only_what_is_between_the_markers():
    text = "a\n<!-- settings:counters:begin -->\nold\n<!-- settings:counters:end -->\nb\n"
    rendered = settings_docs.render(text)
    assert rendered.startswith("a\n<!-- settings:counters:begin -->\n| counter |")
    assert rendered.endswith("<!-- settings:counters:end -->\nb\n") and "old" not in rendered
    with pytest.raises(ValueError, match="unknown settings table 'nope'"):
        settings_docs.render("<!-- settings:nope:begin -->\n<!-- settings:nope:end -->")


@pytest.mark.parametrize("name", ["reachable_probes", "deeper_cutoffs", "history_min_depth"])
def test_an_option_is_named_in_at_most_four_code_files_of_bots(name):
    """The table's row, the Python engine's use, and the C++ engine's member and use (the
    games' adapters, which hold per-game defaults, not counted)."""
    files = subprocess.run(
        ["grep", "-rl", name, "bots", "--include=*.py", "--include=*.cc", "--include=*.h"]
        + ["--exclude-dir=adapters"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    assert len(files) <= 4, files
