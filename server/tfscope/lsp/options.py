"""initializationOptions as any client may send them, reduced to the shapes the settings code
reads (see ``settings.split_initialization_options``), with what was wrong said once."""

from __future__ import annotations

from typing import Any, Mapping

FOLDER_KEY = "workspace"


def checked_initialization_options(options: Any) -> tuple[Any, list[str]]:
    """(options with every wrongly typed part dropped, one text per dropped part)."""
    if options is None:
        return None, []
    if not isinstance(options, Mapping):
        return None, [f"initializationOptions must be an object (got {_shown(options)}); using the defaults"]
    if "settings" not in options and "globalSettings" not in options:
        return options, []  # one settings object: its values are checked with the settings
    checked = dict(options)
    errors = []
    global_settings = options.get("globalSettings")
    if global_settings is not None and not isinstance(global_settings, Mapping):
        errors.append(f"initializationOptions.globalSettings must be an object (got {_shown(global_settings)}); ignored")
        del checked["globalSettings"]
    settings = options.get("settings")
    if isinstance(settings, list):
        kept = [entry for entry in settings if isinstance(entry, Mapping) and isinstance(entry.get(FOLDER_KEY), str)]
        if len(kept) < len(settings):
            dropped = [_shown(entry) for entry in settings if not any(entry is k for k in kept)]
            errors.append(
                "initializationOptions.settings entries must be objects naming their folder in "
                f'"{FOLDER_KEY}" (got {", ".join(dropped[:3])}); those were ignored'
            )
        checked["settings"] = kept
    elif settings is not None and not isinstance(settings, Mapping):
        errors.append(
            "initializationOptions.settings must be a list of per-folder settings or one settings object "
            f"(got {_shown(settings)}); ignored"
        )
        del checked["settings"]
    return checked, errors


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
