"""Settings: the one object every face of tfscope passes to the engine.

They come from ``[tool.tfscope]`` in the nearest ``pyproject.toml`` (kebab-case keys) and from
editor settings (camelCase keys). Rule selection follows ruff: prefixes, the more specific
selector wins, and on a tie ``ignore`` wins.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Mapping

from tfscope.diagnostics import Severity



@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] | None = None  # None: every rule enabled by default
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    extend_exclude: tuple[str, ...] = ()  # added to exclude (both add to the built-in skip list)
    respect_gitignore: bool = True  # skip what .gitignore, .ignore and .git/info/exclude ignore
    force_exclude: bool = False  # apply exclusions to files named explicitly too (pre-commit)
    severity: dict[str, Severity] = field(default_factory=dict)
    keras_version: str = "auto"  # "auto" | "2" | "3"
    strategy_factories: tuple[str, ...] = ()  # project functions returning a strategy
    scope_helpers: tuple[str, ...] = ()  # project functions returning/entering a strategy scope
    model_factories: tuple[str, ...] = ()  # project functions returning a model
    interpreter: str | None = None  # the user's Python, for jedi and the Keras version
    docs_url: str | None = None  # rule docs: "{code}" is replaced by the lower-case code, else "/code" appended
    root: str | None = None  # folder that per-file-ignores and exclude globs are relative to


DEFAULT_SETTINGS = Settings()

ALL_RULES_SELECTOR = "ALL"
# looked for in each folder, in this order (as ruff: .ruff.toml, ruff.toml, pyproject.toml)
CONFIG_FILE_NAMES = (".tfscope.toml", "tfscope.toml", "pyproject.toml")
KERAS_VERSIONS = ("auto", "2", "3")
TABLE_NAME = "tfscope"


# ---------------------------------------------------------------- reading a mapping


class _Invalid(ValueError):
    """A setting's value is unusable; the message says what was expected."""


class _PartlyInvalid(ValueError):
    """Some items of a setting are unusable: they are dropped, ``value`` keeps the others."""

    def __init__(self, message: str, value: Any) -> None:
        super().__init__(message)
        self.value = value


def glob_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not a usable glob (``[z-a]``: a reversed range), or None."""
    if not isinstance(pattern, str) or not pattern.strip():
        return "an empty glob"
    try:
        _glob_regex(pattern.strip().removeprefix("./").rstrip("/"))
    except re.error as error:
        return f"invalid glob {pattern!r}: {error.msg}"
    return None


def _globs(value: Any) -> tuple[str, ...]:
    patterns = _string_list(value)
    problems = [problem for pattern in patterns if (problem := glob_problem(pattern))]
    kept = tuple(pattern for pattern in patterns if not glob_problem(pattern))
    if problems:
        raise _PartlyInvalid(f"{'; '.join(problems)} (left out, the other globs apply)", kept)
    return kept


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Invalid(f"expected true or false, got {value!r}")
    return value


def _string_list(value: Any) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
        raise _Invalid(f"expected a list of strings, got {value!r}")
    return tuple(value)


def _rule_selectors(value: Any) -> tuple[str, ...]:
    selectors = tuple(selector.strip().upper() for selector in _string_list(value))
    unknown = [selector for selector in selectors if not is_known_selector(selector)]
    if unknown:
        raise _Invalid(f"unknown rule code{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}")
    return selectors


def _per_file_ignores(value: Any) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, Mapping):
        raise _Invalid(f"expected a table of glob = [codes], got {value!r}")
    ignores = {str(pattern): _rule_selectors(codes) for pattern, codes in value.items()}
    problems = [problem for pattern in ignores if (problem := glob_problem(pattern))]
    if problems:
        kept = {pattern: codes for pattern, codes in ignores.items() if not glob_problem(pattern)}
        raise _PartlyInvalid(f"{'; '.join(problems)} (left out, the other globs apply)", kept)
    return ignores


def _severities(value: Any) -> dict[str, Severity]:
    if not isinstance(value, Mapping):
        raise _Invalid(f"expected a table of code = severity, got {value!r}")
    allowed = ", ".join(severity.value for severity in Severity)
    severities: dict[str, Severity] = {}
    for code, level in value.items():
        selector = str(code).strip().upper()
        if not is_known_selector(selector):
            raise _Invalid(f"unknown rule code {code}")
        if not isinstance(level, str) or level.lower() not in {severity.value for severity in Severity}:
            raise _Invalid(f"{code} = {level!r} is not one of {allowed}")
        severities[selector] = Severity(level.lower())
    return severities


def _keras_version(value: Any) -> str:
    version = str(value).strip().lower() if isinstance(value, (str, int)) and not isinstance(value, bool) else None
    if version not in KERAS_VERSIONS:
        raise _Invalid(f"expected one of {', '.join(KERAS_VERSIONS)}, got {value!r}")
    return version


def _optional_path(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise _Invalid(f"expected a path string, got {value!r}")
    return value


def _optional_url(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not re.match(r"^[a-z][a-z0-9+.-]*://", value):
        raise _Invalid(f"expected a URL such as 'https://example.org/rules/{{code}}', got {value!r}")
    return value


def rule_docs_url(settings: Settings, code: str) -> str | None:
    """The ``docs-url`` for one rule: ``{code}`` replaced by the lower-case code, else ``/<code>`` appended."""
    if not settings.docs_url:
        return None
    if "{code}" in settings.docs_url:
        return settings.docs_url.replace("{code}", code.lower())
    return f"{settings.docs_url.rstrip('/')}/{code.lower()}"


# kebab-case key -> (Settings field, converter)
_KEYS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "select": ("select", _rule_selectors),
    "extend-select": ("extend_select", _rule_selectors),
    "ignore": ("ignore", _rule_selectors),
    "per-file-ignores": ("per_file_ignores", _per_file_ignores),
    "exclude": ("exclude", _globs),
    "extend-exclude": ("extend_exclude", _globs),
    "respect-gitignore": ("respect_gitignore", _boolean),
    "force-exclude": ("force_exclude", _boolean),
    "severity": ("severity", _severities),
    "keras-version": ("keras_version", _keras_version),
    "strategy-factories": ("strategy_factories", _string_list),
    "scope-helpers": ("scope_helpers", _string_list),
    "model-factories": ("model_factories", _string_list),
    "interpreter": ("interpreter", _optional_path),
    "docs-url": ("docs_url", _optional_url),
}


def _kebab(key: str) -> str:
    """``extendSelect`` and ``extend_select`` -> ``extend-select``."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"-\1", key).replace("_", "-").lower()


def settings_from_mapping(mapping: Mapping, base: Settings = DEFAULT_SETTINGS) -> tuple[Settings, list[str]]:
    """Settings from a ``[tool.tfscope]`` table or an editor settings object, over ``base``.

    Each unusable key gives one message naming it and keeps its value from ``base``.
    """
    if not isinstance(mapping, Mapping):
        return base, [f"settings must be a table of keys, got {mapping!r}; using the defaults"]
    changes: dict[str, Any] = {}
    errors: list[str] = []
    for key, value in mapping.items():
        known = _KEYS.get(_kebab(str(key)))
        if known is None:
            errors.append(f"unknown setting '{key}' (known: {', '.join(_KEYS)}); ignored")
            continue
        field_name, convert = known
        try:
            changes[field_name] = convert(value)
        except _PartlyInvalid as problem:
            changes[field_name] = problem.value
            errors.append(f"'{key}': {problem}")
        except _Invalid as problem:
            errors.append(f"invalid '{key}': {problem}; using the default")
    return replace(base, **changes), errors


# ---------------------------------------------------------------- pyproject.toml


def find_config_file(path: str | os.PathLike) -> Path | None:
    """The nearest configuration at or above ``path``: a ``.tfscope.toml`` or ``tfscope.toml``,
    or a ``pyproject.toml`` with a ``[tool.tfscope]`` table or that does not parse (so that its
    error is reported rather than the file silently passed by)."""
    start = Path(path).resolve()
    folder = start if start.is_dir() else start.parent
    for candidate_folder in (folder, *folder.parents):
        for name in CONFIG_FILE_NAMES:
            candidate = candidate_folder / name
            if not candidate.is_file():
                continue
            if name != "pyproject.toml":
                return candidate
            table, problem = _tool_table(candidate)
            if table is not None or problem is not None:
                return candidate
    return None


find_pyproject = find_config_file  # the name before tfscope.toml was discovered too


def load_settings_for(
    path: str | os.PathLike, base: Settings = DEFAULT_SETTINGS
) -> tuple[Settings, list[str], Path | None]:
    """Settings for a file or folder: ``base`` with the nearest ``[tool.tfscope]`` applied."""
    pyproject = find_config_file(path)
    if pyproject is None:
        return base, [], None
    settings, errors = load_config_file(pyproject, base)
    return settings, errors, pyproject


def load_config_file(config_path: str | os.PathLike, base: Settings = DEFAULT_SETTINGS) -> tuple[Settings, list[str]]:
    """Settings from one TOML file: its ``[tool.tfscope]`` table, or the whole file if it has none.

    A ``pyproject.toml`` without the table adds nothing; any other file (``tfscope.toml``) is
    read as the table itself. Globs in it are relative to its folder.
    """
    config_path = Path(config_path).resolve()
    table, problem = _tool_table(config_path)
    if problem:
        return replace(base, root=str(config_path.parent)), [f"{config_path}: {problem}; using the defaults"]
    if table is None and config_path.name != "pyproject.toml":
        table = _read_toml(config_path)[0]
    settings, errors = settings_from_mapping(table or {}, replace(base, root=str(config_path.parent)))
    return settings, [f"{config_path}: {message}" for message in errors]


def _tool_table(config_path: Path) -> tuple[Mapping | None, str | None]:
    """(``[tool.tfscope]`` or None, a read/parse problem or None)."""
    document, problem = _read_toml(config_path)
    if problem:
        return None, problem
    tool = document.get("tool", {})
    table = tool.get(TABLE_NAME) if isinstance(tool, Mapping) else None
    if table is not None and not isinstance(table, Mapping):
        return None, f"[tool.{TABLE_NAME}] must be a table"
    return table, None


def _read_toml(config_path: Path) -> tuple[Mapping, str | None]:
    try:
        status = config_path.stat()
    except OSError as error:
        return {}, f"cannot read: {error.strerror or error}"
    return _parsed_toml(str(config_path), status.st_mtime_ns, status.st_size)


def toml():
    """tomllib, imported with the first TOML file read: most folders have none (with the datetime
    module it brings, a tenth of the engine's import)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    return tomllib


@lru_cache(maxsize=64)
def _parsed_toml(config_path: str, mtime_ns: int, size: int) -> tuple[Mapping, str | None]:
    """Keyed by modification time and size, so an edited file is read again without a restart."""
    try:
        with open(config_path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        return {}, f"cannot read: {error.strerror or error}"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return {}, f"invalid TOML: not UTF-8 ({error.reason} at byte {error.start})"
    tomllib = toml()
    try:
        return tomllib.loads(text), None
    except tomllib.TOMLDecodeError as error:
        return {}, f"invalid TOML: {_toml_error_text(str(error), text)}"
    except RecursionError:  # tomllib recurses once per nested array or inline table
        return {}, "invalid TOML: nested too deeply to read"


def _toml_error_text(message: str, text: str) -> str:
    """``line 3, column 1: Invalid value``: where first (the end of the file spelled out), then why."""
    found = re.fullmatch(r"(?s)(.*?) \((?:at line (\d+), column (\d+)|at end of document)\)", message)
    if not found:
        return message
    reason, line, column = found.groups()
    if line is None:  # "at end of document": the position after the last character
        lines = text.split("\n")
        line, column = len(lines), len(lines[-1]) + 1
    return f"line {line}, column {column}: {reason}"


# ---------------------------------------------------------------- rule selection


def _rule_codes() -> list[str]:
    from tfscope.rules import (
        all_rules,  # lazy: the rule modules import the engine, which imports this one
    )

    return [rule.code for rule in all_rules()]


def is_known_selector(selector: str) -> bool:
    """``ALL``, a full rule code, or a prefix of one (``TFS``, ``TFS00``)."""
    selector = selector.upper()
    return selector == ALL_RULES_SELECTOR or any(code.startswith(selector) for code in _rule_codes())


def _specificity(selector: str, code: str) -> int | None:
    """How specific ``selector`` is for ``code`` (longer prefix = more specific); None if it does not match."""
    if selector == ALL_RULES_SELECTOR:
        return 0
    return len(selector) if code.startswith(selector) else None


def _strongest(selectors: tuple[str, ...], code: str) -> int | None:
    matches = [specificity for selector in selectors if (specificity := _specificity(selector, code)) is not None]
    return max(matches, default=None)


def is_enabled(settings: Settings, code: str, path: str | os.PathLike | None = None) -> bool:
    """Whether rule ``code`` runs for ``path`` under ``settings`` (ruff's select/ignore semantics)."""
    code = code.upper()
    if settings.select is None:
        from tfscope.rules import get_rule

        rule = get_rule(code)
        # the default selection is the least specific selector of all: any ignore beats it
        selected = -1 if rule is not None and rule.default_enabled else None
    else:
        selected = _strongest(settings.select, code)
    extended = _strongest(settings.extend_select, code)
    if extended is not None:
        selected = max(extended, selected if selected is not None else -1)
    if selected is None:
        return False
    ignored = _strongest(settings.ignore + _file_ignores(settings, path), code)
    return ignored is None or selected > ignored


def with_rule_overrides(
    settings: Settings,
    select: tuple[str, ...] | None = None,
    extend_select: tuple[str, ...] = (),
    ignore: tuple[str, ...] = (),
) -> Settings:
    """``settings`` with a later layer of selectors on top (the command line over pyproject).

    As in ruff, a later layer wins over an earlier one whatever the specificity: ``--select``
    starts over, ``--ignore TFS`` turns off a configured ``select = ["TFS001"]``, and
    ``--extend-select TFS`` turns back on a configured ``ignore = ["TFS001"]``.
    """
    if select is not None:
        return replace(settings, select=select, extend_select=extend_select, ignore=ignore)
    return replace(
        settings,
        select=None if settings.select is None else _not_covered(settings.select, ignore),
        extend_select=_not_covered(settings.extend_select, ignore) + extend_select,
        ignore=_not_covered(settings.ignore, extend_select) + ignore,
    )


def _not_covered(selectors: tuple[str, ...], later: tuple[str, ...]) -> tuple[str, ...]:
    """The selectors that no ``later`` selector (of the opposite kind) covers completely."""
    return tuple(
        selector
        for selector in selectors
        if not any(later_selector == ALL_RULES_SELECTOR or selector.startswith(later_selector) for later_selector in later)
    )


def _file_ignores(settings: Settings, path: str | os.PathLike | None) -> tuple[str, ...]:
    if path is None or not settings.per_file_ignores:
        return ()
    relative = relative_posix_path(path, settings.root)
    return tuple(
        code
        for pattern, codes in settings.per_file_ignores.items()
        if _matches_safely(pattern, relative)
        for code in codes
    )


_IN_EFFECT: dict[int, tuple[Settings, list]] = {}  # id -> (the settings, kept alive so the id stays theirs; rules)
_IN_EFFECT_BOUND = 64  # settings objects: a server keeps a few, `check` one per configuration file


def rules_in_effect(settings: Settings, path: str | os.PathLike | None = None) -> list:
    """The rules that run for ``path``, each with its severity: worked out once per settings object
    (every analysis asks), per path only when per-file ignores make the path matter."""
    if settings.per_file_ignores and path is not None:
        return _rules_in_effect(settings, path)
    cached = _IN_EFFECT.get(id(settings))
    if cached is None or cached[0] is not settings:
        if len(_IN_EFFECT) >= _IN_EFFECT_BOUND:
            _IN_EFFECT.clear()
        cached = _IN_EFFECT[id(settings)] = (settings, _rules_in_effect(settings, None))
    return cached[1]


def _rules_in_effect(settings: Settings, path: str | os.PathLike | None) -> list:
    from tfscope.rules import all_rules

    return [(rule, severity_for(settings, rule.code)) for rule in all_rules() if is_enabled(settings, rule.code, path)]


def severity_for(settings: Settings, code: str) -> Severity:
    """The configured severity of ``code`` (most specific selector wins), else the rule's default."""
    code = code.upper()
    overrides = [
        (specificity, severity)
        for selector, severity in settings.severity.items()
        if (specificity := _specificity(selector, code)) is not None
    ]
    if overrides:
        return max(overrides, key=lambda override: override[0])[1]
    from tfscope.rules import get_rule

    rule = get_rule(code)
    return rule.severity if rule is not None else Severity.WARNING


# ---------------------------------------------------------------- path globs


def is_excluded(settings: Settings, path: str | os.PathLike) -> bool:
    """Whether ``path`` (or a folder above it, up to the settings root) matches an ``exclude`` glob."""
    patterns = settings.exclude + settings.extend_exclude
    if not patterns:
        return False
    relative = relative_posix_path(path, settings.root)
    return any(_matches_safely(pattern, relative) for pattern in patterns)


def _matches_safely(pattern: str, relative_path: str) -> bool:
    """A glob that slipped past validation (a hand-built Settings) matches nothing."""
    try:
        return path_matches(pattern, relative_path)
    except re.error:
        return False


def relative_posix_path(path: str | os.PathLike, root: str | None) -> str:
    """``path`` relative to ``root`` (or the working folder) with ``/`` separators."""
    absolute = Path(os.path.abspath(path))
    base = Path(os.path.abspath(root or os.getcwd()))
    try:
        return absolute.relative_to(base).as_posix()
    except ValueError:
        return absolute.as_posix()


def path_matches(pattern: str, relative_path: str) -> bool:
    """Glob match like ruff's: ``**`` crosses folders, a pattern without ``/`` matches any name
    in the path, and a pattern matching a folder matches everything under it."""
    pattern = pattern.strip().removeprefix("./").rstrip("/")
    parts = PurePosixPath(relative_path).parts
    if "/" not in pattern:
        return any(_glob_regex(pattern).fullmatch(part) for part in parts)
    prefixes = ("/".join(parts[: length + 1]) for length in range(len(parts)))
    return any(_glob_regex(pattern).fullmatch(prefix) for prefix in prefixes)


@lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    translated = ""
    position = 0
    while position < len(pattern):
        if pattern.startswith("**/", position):
            translated, position = translated + "(?:.*/)?", position + 3
        elif pattern.startswith("**", position):
            translated, position = translated + ".*", position + 2
        elif pattern[position] == "*":
            translated, position = translated + "[^/]*", position + 1
        elif pattern[position] == "?":
            translated, position = translated + "[^/]", position + 1
        elif pattern[position] == "[" and "]" in pattern[position + 1 :]:
            closing = pattern.index("]", position + 1)
            body = pattern[position + 1 : closing].replace("\\", "\\\\")
            translated += "[" + ("^" + body[1:] if body.startswith("!") else body) + "]"
            position = closing + 1
        else:
            translated, position = translated + re.escape(pattern[position]), position + 1
    return re.compile(translated)
