"""Settings: the one object every face of tfscope passes to the engine."""

from __future__ import annotations

from dataclasses import dataclass, field

from tfscope.diagnostics import Severity


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] | None = None  # None: every rule enabled by default
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    severity: dict[str, Severity] = field(default_factory=dict)
    keras_version: str = "auto"  # "auto" | "2" | "3"
    strategy_factories: tuple[str, ...] = ()  # project functions returning a strategy
    scope_helpers: tuple[str, ...] = ()  # project functions returning/entering a strategy scope
    model_factories: tuple[str, ...] = ()  # project functions returning a model
    interpreter: str | None = None  # the user's Python, for jedi and the Keras version


DEFAULT_SETTINGS = Settings()
