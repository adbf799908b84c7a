"""Configuration: [tool.tfscope] and editor settings, validation, discovery, ruff-style selection."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

from tfscope.config import (
    DEFAULT_SETTINGS,
    Settings,
    find_pyproject,
    is_enabled,
    is_excluded,
    load_config_file,
    load_settings_for,
    path_matches,
    rules_in_effect,
    settings_from_mapping,
    severity_for,
    with_rule_overrides,
)
from tfscope.diagnostics import Severity
from tfscope.rules import all_rules


# ---------------------------------------------------------------- reading a mapping


def test_every_pyproject_key_is_read():
    settings, errors = settings_from_mapping(
        {
            "select": ["TFS00"],
            "extend-select": ["TFS010"],
            "ignore": ["tfs005"],
            "per-file-ignores": {"tests/*.py": ["TFS001"]},
            "exclude": ["generated/"],
            "severity": {"TFS009": "warning", "TFS00": "Error"},
            "keras-version": 2,
            "strategy-factories": ["project.dist.make_strategy"],
            "scope-helpers": ["project.dist.scope_of"],
            "model-factories": ["project.models.build"],
            "interpreter": ".venv/bin/python",
        }
    )
    assert errors == []
    assert settings == Settings(
        select=("TFS00",),
        extend_select=("TFS010",),
        ignore=("TFS005",),
        per_file_ignores={"tests/*.py": ("TFS001",)},
        exclude=("generated/",),
        severity={"TFS009": Severity.WARNING, "TFS00": Severity.ERROR},
        keras_version="2",
        strategy_factories=("project.dist.make_strategy",),
        scope_helpers=("project.dist.scope_of",),
        model_factories=("project.models.build",),
        interpreter=".venv/bin/python",
    )


def test_editor_camel_case_spelling_is_read():
    settings, errors = settings_from_mapping(
        {"extendSelect": ["TFS010"], "perFileIgnores": {"a.py": ["TFS"]}, "kerasVersion": "3", "scopeHelpers": ["h"]}
    )
    assert errors == []
    assert (settings.extend_select, settings.per_file_ignores, settings.keras_version, settings.scope_helpers) == (
        ("TFS010",),
        {"a.py": ("TFS",)},
        "3",
        ("h",),
    )


@pytest.mark.parametrize(
    ("key", "value", "named"),
    [
        ("select", "TFS001", "'select'"),
        ("ignore", ["TFS999"], "TFS999"),
        ("extend-select", ["E501"], "E501"),
        ("severity", {"TFS001": "fatal"}, "fatal"),
        ("severity", {"XYZ": "error"}, "XYZ"),
        ("keras-version", "4", "'keras-version'"),
        ("per-file-ignores", ["a.py"], "'per-file-ignores'"),
        ("interpreter", 3, "'interpreter'"),
        ("colour", "blue", "'colour'"),
    ],
)
def test_a_bad_key_gives_one_message_naming_it_and_keeps_its_value_from_base(key, value, named):
    base = Settings(
        select=("TFS002",),
        extend_select=("TFS010",),
        ignore=("TFS009",),
        per_file_ignores={"b.py": ("TFS",)},
        severity={"TFS001": Severity.HINT},
        keras_version="2",
        interpreter="python3",
    )
    settings, errors = settings_from_mapping({key: value, "exclude": ["scratch"]}, base)
    assert len(errors) == 1
    assert named in errors[0] and key in errors[0]
    assert settings.exclude == ("scratch",)  # the rest still applies
    assert replace(settings, exclude=()) == base


def test_settings_from_mapping_never_raises_on_a_non_table():
    settings, errors = settings_from_mapping(["select"])  # type: ignore[arg-type]
    assert settings == DEFAULT_SETTINGS
    assert len(errors) == 1


# ---------------------------------------------------------------- pyproject discovery and loading


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_nearest_pyproject_with_the_table_wins(tmp_path):
    outer = _write(tmp_path / "pyproject.toml", '[tool.tfscope]\nignore = ["TFS001"]\n')
    _write(tmp_path / "pkg" / "pyproject.toml", "[project]\nname = 'pkg'\n")  # no table: keep walking up
    script = _write(tmp_path / "pkg" / "src" / "train.py", "")
    assert find_pyproject(script) == outer
    settings, errors, found = load_settings_for(script)
    assert (settings.ignore, errors, found) == (("TFS001",), [], outer)
    assert settings.root == str(tmp_path)


def test_no_pyproject_gives_the_base_settings(tmp_path):
    script = _write(tmp_path / "train.py", "")
    base = Settings(keras_version="2")
    assert load_settings_for(script, base) == (base, [], None)


def test_an_edited_pyproject_is_picked_up_without_restarting(tmp_path):
    pyproject = _write(tmp_path / "pyproject.toml", '[tool.tfscope]\nignore = ["TFS001"]\n')
    assert load_settings_for(tmp_path)[0].ignore == ("TFS001",)
    pyproject.write_text('[tool.tfscope]\nignore = ["TFS002", "TFS003"]\n', encoding="utf-8")
    later = os.stat(pyproject).st_mtime_ns + 1_000_000_000
    os.utime(pyproject, ns=(later, later))
    assert load_settings_for(tmp_path)[0].ignore == ("TFS002", "TFS003")


def test_invalid_toml_is_reported_with_the_file_and_defaults_are_used(tmp_path):
    _write(tmp_path / "pyproject.toml", "[tool.tfscope]\nignore = [\n")
    # a pyproject that does not parse is found (not passed by), so its error is reported
    assert find_pyproject(tmp_path) == (tmp_path / "pyproject.toml").resolve()
    settings, errors, _ = load_settings_for(tmp_path)
    assert len(errors) == 1 and "invalid TOML" in errors[0] and "pyproject.toml" in errors[0]
    assert "line 3, column 1" in errors[0] and errors[0].endswith("; using the defaults")
    assert settings.ignore == ()


def test_tfscope_toml_is_discovered_before_pyproject(tmp_path):
    _write(tmp_path / "pyproject.toml", '[tool.tfscope]\nignore = ["TFS001"]\n')
    _write(tmp_path / "tfscope.toml", 'ignore = ["TFS002"]\n')
    _write(tmp_path / "sub" / ".tfscope.toml", 'ignore = ["TFS003"]\n')
    _write(tmp_path / "sub" / "tfscope.toml", 'ignore = ["TFS004"]\n')
    assert load_settings_for(tmp_path / "x.py")[0].ignore == ("TFS002",)
    assert load_settings_for(tmp_path / "sub" / "x.py")[0].ignore == ("TFS003",)


def test_bad_keys_in_pyproject_name_the_file_and_the_key(tmp_path):
    _write(tmp_path / "pyproject.toml", '[tool.tfscope]\nselect = ["TFS001"]\nkeras-version = "5"\n')
    settings, errors, _ = load_settings_for(tmp_path)
    assert settings.select == ("TFS001",) and settings.keras_version == "auto"
    assert len(errors) == 1
    assert "pyproject.toml" in errors[0] and "'keras-version'" in errors[0]


def test_a_standalone_config_file_is_the_table_itself(tmp_path):
    config = _write(tmp_path / "tfscope.toml", 'ignore = ["TFS009"]\n')
    settings, errors = load_config_file(config)
    assert (settings.ignore, errors, settings.root) == (("TFS009",), [], str(tmp_path))


# ---------------------------------------------------------------- rule selection

CODES = [rule.code for rule in all_rules()]
DEFAULT_ON = {rule.code for rule in all_rules() if rule.default_enabled}


def _enabled(settings: Settings, path=None) -> set[str]:
    return {code for code in CODES if is_enabled(settings, code, path)}


def test_default_selection_is_every_rule_enabled_by_default():
    assert _enabled(DEFAULT_SETTINGS) == DEFAULT_ON
    assert "TFS010" not in DEFAULT_ON  # fit-in-scope is off by default


def test_select_prefix_enables_every_rule_under_it_including_off_by_default_ones():
    assert _enabled(Settings(select=("TFS01",))) == {code for code in CODES if code.startswith("TFS01")}
    assert _enabled(Settings(select=("ALL",))) == set(CODES)


def test_extend_select_adds_to_the_default_selection():
    assert _enabled(Settings(extend_select=("TFS010",))) == DEFAULT_ON | {"TFS010"}


def test_ignore_beats_the_default_selection_and_a_less_specific_select():
    assert _enabled(Settings(ignore=("TFS",))) == set()
    assert _enabled(Settings(select=("TFS",), ignore=("TFS00",))) == {code for code in CODES if not code.startswith("TFS00")}


def test_the_more_specific_selector_wins_and_ignore_wins_a_tie():
    assert _enabled(Settings(select=("TFS001",), ignore=("TFS",))) == {"TFS001"}
    assert _enabled(Settings(select=("TFS001",), ignore=("TFS001",))) == set()


def test_per_file_ignores_are_relative_to_the_config_folder(tmp_path):
    settings = Settings(per_file_ignores={"tests/**/*.py": ("TFS00",), "conftest.py": ("TFS",)}, root=str(tmp_path))
    assert _enabled(settings, tmp_path / "tests" / "unit" / "test_a.py") == DEFAULT_ON - {c for c in CODES if c.startswith("TFS00")}
    assert _enabled(settings, tmp_path / "src" / "conftest.py") == set()
    assert _enabled(settings, tmp_path / "src" / "train.py") == DEFAULT_ON
    assert _enabled(settings) == DEFAULT_ON


def test_the_rules_in_effect_follow_each_settings_object_and_each_path_under_per_file_ignores(tmp_path):
    """Worked out once per settings object: another object (as a changed configuration makes)
    gets its own answer, and per-file ignores still decide per path."""
    def in_effect(settings, path=None):
        return {rule.code: severity for rule, severity in rules_in_effect(settings, path)}

    assert set(in_effect(DEFAULT_SETTINGS)) == DEFAULT_ON
    quieter = Settings(ignore=("TFS001",), severity={"TFS002": Severity.INFO})
    assert set(in_effect(quieter)) == DEFAULT_ON - {"TFS001"} and in_effect(quieter)["TFS002"] is Severity.INFO
    assert set(in_effect(DEFAULT_SETTINGS)) == DEFAULT_ON and in_effect(DEFAULT_SETTINGS)["TFS002"] is not Severity.INFO
    per_file = Settings(per_file_ignores={"tests/*.py": ("TFS00",)}, root=str(tmp_path))
    assert set(in_effect(per_file, tmp_path / "tests" / "test_a.py")) == DEFAULT_ON - {c for c in CODES if c.startswith("TFS00")}
    assert set(in_effect(per_file, tmp_path / "train.py")) == DEFAULT_ON


def test_severity_overrides_the_rule_default_most_specific_first():
    settings = Settings(severity={"TFS": Severity.INFO, "TFS008": Severity.HINT})
    assert severity_for(settings, "TFS008") == Severity.HINT
    assert severity_for(settings, "TFS001") == Severity.INFO
    assert severity_for(DEFAULT_SETTINGS, "TFS008") == Severity.ERROR
    assert severity_for(DEFAULT_SETTINGS, "TFS005") == Severity.INFO


def test_exclude_matches_files_and_whole_folders(tmp_path):
    settings = Settings(exclude=("generated", "legacy/*.py", "**/scratch_*.ipynb"), root=str(tmp_path))
    assert is_excluded(settings, tmp_path / "generated" / "deep" / "model.py")
    assert is_excluded(settings, tmp_path / "legacy" / "old.py")
    assert not is_excluded(settings, tmp_path / "legacy" / "keep" / "old.py")
    assert is_excluded(settings, tmp_path / "notebooks" / "scratch_1.ipynb")
    assert not is_excluded(settings, tmp_path / "src" / "train.py")


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("*.py", "a/b/c.py", True),
        ("a/*.py", "a/b/c.py", False),
        ("a/**/c.py", "a/b/c.py", True),
        ("a/**/c.py", "a/c.py", True),
        ("./a/", "a/x.py", True),
        ("test_[ab].py", "test_b.py", True),
        ("test_[!ab].py", "test_b.py", False),
        ("te?t.py", "test.py", True),
    ],
)
def test_glob_patterns(pattern, path, matches):
    assert path_matches(pattern, path) is matches


# ---------------------------------------------------------------- layering (the command line over pyproject)


def test_a_later_ignore_turns_off_a_more_specific_earlier_select():
    configured = Settings(select=("TFS001", "TFS002"))
    assert _enabled(with_rule_overrides(configured, ignore=("TFS",))) == set()


def test_a_later_extend_select_turns_back_on_an_earlier_ignore():
    configured = Settings(ignore=("TFS001",))
    assert "TFS001" in _enabled(with_rule_overrides(configured, extend_select=("TFS",)))


def test_a_later_select_starts_over():
    configured = Settings(ignore=("TFS001",), extend_select=("TFS010",))
    assert _enabled(with_rule_overrides(configured, select=("TFS001",))) == {"TFS001"}
