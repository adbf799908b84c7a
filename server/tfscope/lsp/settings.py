"""Editor settings: where they come from, how they combine per workspace folder and with pyproject.

Sources, later ones win key by key (a ``null`` value never overrides): ``globalSettings`` of the
initializationOptions, that folder's entry of ``settings``, the ``tfscope`` section pulled with
``workspace/configuration`` (global, then the folder's). ``configurationPreference`` then decides
how the result meets ``[tool.tfscope]``, with ruff's meaning and default (``editorFirst``).
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any, Mapping, NamedTuple

from pygls import uris

from tfscope.config import (
    DEFAULT_SETTINGS,
    Settings,
    load_config_file,
    load_settings_for,
    settings_from_mapping,
)

LOG_LEVELS = ("error", "warning", "info", "debug")
CONFIGURATION_PREFERENCES = ("editorFirst", "filesFirst", "editorOnly")
NOTIFICATION_LEVELS = ("off", "onError", "onWarning", "always")  # ruff-vscode's showNotifications
RUN_MODES = ("onType", "onSave")  # ruff-vscode's lint.run


class ServerOptions(NamedTuple):
    """The settings the server itself acts on (the engine never sees them)."""

    enable: bool = True
    log_level: str = "info"
    docs_url: str | None = None
    configuration_preference: str = "editorFirst"
    configuration: str | None = None  # a tfscope.toml / pyproject.toml to use instead of discovery
    show_notifications: str = "onWarning"  # which problems also pop up (the log always has them)
    run: str = "onType"  # onSave: analyse the text as opened or last saved, not each edit
    inlay_hints: bool = True  # the owning strategy after each named variable owner
    code_lens: bool = False  # "creates 3 distributed objects" over scope blocks; off, as ruff and Pylance show none


def _is_boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


# editor key -> (ServerOptions field, validator returning an error text or None)
_SERVER_KEYS = {
    "enable": ("enable", _is_boolean),
    "inlayHints": ("inlay_hints", _is_boolean),
    "codeLens": ("code_lens", _is_boolean),
    "logLevel": (
        "log_level",
        lambda value: None if value in LOG_LEVELS else f"must be one of {', '.join(LOG_LEVELS)}",
    ),
    "docsUrl": ("docs_url", lambda value: None if isinstance(value, str) else "must be a URL string"),
    "configuration": ("configuration", lambda value: None if isinstance(value, str) else "must be a path string"),
    "showNotifications": (
        "show_notifications",
        lambda value: None if value in NOTIFICATION_LEVELS else f"must be one of {', '.join(NOTIFICATION_LEVELS)}",
    ),
    "run": ("run", lambda value: None if value in RUN_MODES else f"must be one of {', '.join(RUN_MODES)}"),
    "configurationPreference": (
        "configuration_preference",
        lambda value: None
        if value in CONFIGURATION_PREFERENCES
        else f"must be one of {', '.join(CONFIGURATION_PREFERENCES)}",
    ),
}
_FOLDER_KEY = "workspace"  # names the folder an entry of the per-folder list belongs to
# read by an editor's own launcher (the VS Code extension's bundled-libraries switch), not the server
_CLIENT_ONLY_KEYS = frozenset({"importStrategy"})


class Resolved(NamedTuple):
    options: ServerOptions
    settings: Settings
    errors: tuple[str, ...]
    pyproject_path: str | None


def split_initialization_options(options: Any) -> tuple[dict, dict[str, dict]]:
    """(global mapping, {folder uri: mapping}) from either accepted initializationOptions shape."""
    if not isinstance(options, Mapping):
        return {}, {}
    if "settings" in options or "globalSettings" in options:
        global_mapping = dict(options.get("globalSettings") or {})
        per_folder = options.get("settings") or []
        if isinstance(per_folder, Mapping):  # a single settings object under "settings"
            return {**global_mapping, **per_folder}, {}
        folders = {
            normalize_uri(entry[_FOLDER_KEY]): dict(entry)
            for entry in per_folder
            if isinstance(entry, Mapping) and isinstance(entry.get(_FOLDER_KEY), str)
        }
        return global_mapping, folders
    return dict(options), {}


def normalize_uri(uri: str) -> str:
    path = uris.to_fs_path(uri)
    return uris.from_fs_path(path) if path else uri


def merged(*mappings: Mapping | None) -> dict:
    result: dict = {}
    for mapping in mappings:
        for key, value in (mapping or {}).items():
            if value is not None:
                result[key] = value
    return result


def server_options(mapping: Mapping) -> tuple[ServerOptions, list[str]]:
    values: dict = {}
    errors: list[str] = []
    for key, (field_name, validate) in _SERVER_KEYS.items():
        if key not in mapping:
            continue
        problem = validate(mapping[key])
        if problem:
            errors.append(f"{key} {problem} (got {mapping[key]!r}); using the default")
        else:
            values[field_name] = mapping[key]
    return ServerOptions(**values), errors


def resolve(editor_mapping: Mapping, path: str | None, folder_path: str | None = None) -> Resolved:
    """The effective options and engine Settings for a document at ``path`` (None: unsaved).

    Globs of editor settings (``exclude``, ``perFileIgnores``) are relative to the workspace
    folder; those of a ``[tool.tfscope]`` table to its ``pyproject.toml``."""
    options, errors = server_options(editor_mapping)
    engine_mapping = {
        key: value
        for key, value in editor_mapping.items()
        if key not in _SERVER_KEYS and key != _FOLDER_KEY and key not in _CLIENT_ONLY_KEYS
    }
    pyproject_path = None
    preference = options.configuration_preference
    load_file = load_settings_for
    if options.configuration:  # like `tfscope check --config PATH`: one file for every document
        config_path = os.path.join(folder_path or os.getcwd(), os.path.expanduser(options.configuration))
        if os.path.isfile(config_path):
            path = path or config_path

            def load_file(_document_path, base):
                settings, file_errors = load_config_file(config_path, base)
                return settings, file_errors, config_path
        else:
            errors.append(f"configuration: no such file: {config_path}; discovering the nearest one instead")
    if preference == "editorOnly" or path is None:
        settings, editor_errors = settings_from_mapping(engine_mapping, DEFAULT_SETTINGS)
        errors += editor_errors
    elif preference == "filesFirst":
        editor_settings, editor_errors = settings_from_mapping(engine_mapping, DEFAULT_SETTINGS)
        settings, file_errors, pyproject_path = load_file(path, editor_settings)
        errors += editor_errors + file_errors
    else:
        file_settings, file_errors, pyproject_path = load_file(path, DEFAULT_SETTINGS)
        settings, editor_errors = settings_from_mapping(engine_mapping, file_settings)
        errors += file_errors + editor_errors
    if settings.root is None and folder_path:
        settings = replace(settings, root=folder_path)
    return Resolved(options, settings, tuple(errors), str(pyproject_path) if pyproject_path else None)
