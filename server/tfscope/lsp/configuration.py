"""Settings for each document, worked out once and kept until something that changes them happens.

Inputs: the initializationOptions, the ``tfscope`` section pulled with ``workspace/configuration``,
and the configuration files found above each document (pyproject.toml, tfscope.toml) together with
the ignore files its exclusion reads. The result per document is cached for one *generation*; a
settings change, a workspace folder change or a watched file changing starts the next one. An edit
never re-reads any of it.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any, Callable, Mapping, NamedTuple

from lsprotocol import types
from pygls import uris

from tfscope.config import CONFIG_FILE_NAMES
from tfscope.files import IGNORE_FILE_NAMES, is_skipped
from tfscope.lsp.client import Client
from tfscope.lsp.names import SETTINGS_SECTION
from tfscope.lsp.settings import (
    Resolved,
    ServerOptions,
    merged,
    normalize_uri,
    resolve,
    server_options,
    split_initialization_options,
)
from tfscope.stamps import modified

logger = logging.getLogger("tfscope.lsp")

WATCHED_FILE_NAMES = CONFIG_FILE_NAMES + IGNORE_FILE_NAMES
WATCHED_GLOB = "**/{" + ",".join(WATCHED_FILE_NAMES) + "}"
POLL_SECONDS = 1.0  # only when the client cannot watch files for us
CONFIGURATION_WAIT_SECONDS = 5.0  # how long the first analysis waits for workspace/configuration


class Effective(NamedTuple):
    """What applies to one document in one generation."""

    generation: int
    resolved: Resolved
    excluded: bool  # a folder walk (`exclude`, .gitignore, virtualenvs) would leave it out
    folder_path: str | None  # the workspace folder holding it: jedi's project root


class Configuration:
    def __init__(self, client: Client, initialization_options: Any) -> None:
        """``initialization_options`` as ``options.checked_initialization_options`` left them."""
        self.client = client
        self.global_mapping, self.folder_mappings = split_initialization_options(initialization_options)
        self.configured: dict[str, dict] = {}  # workspace/configuration answers; "" is the global one
        self.generation = 0
        self.ready = asyncio.Event()  # set once workspace/configuration was answered (or not asked)
        self.on_change: Callable[[], None] = lambda: None  # the session re-analyses everything
        self._folders = self._workspace_folders()
        self._effective: dict[str, Effective] = {}  # per analysis target; written by analysis threads
        self._options: dict[str, tuple[int, ServerOptions]] = {}  # per target: (generation, options)
        self._watched: dict[str, int | None] = {}  # file -> modification time, when polling or on save
        self.apply_log_level()

    # -- the editor's settings -----------------------------------------------------------------

    def _workspace_folders(self) -> tuple[str, ...]:
        return tuple(sorted({normalize_uri(folder.uri) for folder in self.client.workspace.folders.values()}))

    def folder_of(self, uri: str) -> str:
        """The workspace folder (normalised uri) holding ``uri``; "" when none does."""
        path = uris.to_fs_path(uri)
        if path is None:
            return ""
        holding = [
            folder
            for folder in {*self._folders, *self.folder_mappings}
            if (folder_path := uris.to_fs_path(folder)) and (path + os.sep).startswith(folder_path.rstrip(os.sep) + os.sep)
        ]
        return max(holding, key=len, default="")

    def editor_mapping(self, key: str) -> dict:
        folder = self.folder_of(key)
        return merged(
            self.global_mapping, self.folder_mappings.get(folder), self.configured.get(""), self.configured.get(folder)
        )

    def apply_log_level(self) -> None:
        options, _ = server_options(merged(self.global_mapping, self.configured.get("")))
        logging.getLogger("tfscope").setLevel(options.log_level.upper())

    async def pull(self) -> None:
        if not self.client.supports("workspace.configuration"):
            return
        # per folder when there are folders (a client's answer for folders already includes its
        # user-level values); the unscoped section only when no folder is open
        scopes = list(self._workspace_folders()) or [""]
        items = [types.ConfigurationItem(scope_uri=scope or None, section=SETTINGS_SECTION) for scope in scopes]
        try:
            answers = await self.client.configuration(items)
        except Exception:
            logger.exception("workspace/configuration failed; keeping the initialization options")
            return
        self.configured = {scope: dict(answer) for scope, answer in zip(scopes, answers) if isinstance(answer, Mapping)}

    def pushed(self, settings: Any) -> None:
        """A ``didChangeConfiguration`` carrying the section, from a client that cannot be asked."""
        if isinstance(settings, Mapping) and isinstance(settings.get(SETTINGS_SECTION), Mapping):
            self.configured = {"": dict(settings[SETTINGS_SECTION])}

    async def wait_until_ready(self) -> None:
        if self.ready.is_set():
            return
        try:
            await asyncio.wait_for(self.ready.wait(), CONFIGURATION_WAIT_SECONDS)
        except asyncio.TimeoutError:
            logger.warning("no workspace configuration yet; analysing with the initialization options")

    # -- per document ----------------------------------------------------------------------------

    def effective(self, key: str, path: str | None) -> Effective:
        """The settings of target ``key`` (file ``path``) in this generation; safe in any thread."""
        generation = self.generation
        found = self._effective.get(key)
        if found is not None and found.generation == generation:
            return found
        folder = self.folder_of(key)
        folder_path = uris.to_fs_path(folder) if folder else None
        resolved = resolve(self.editor_mapping(key), path, folder_path)
        excluded = path is not None and is_skipped(resolved.settings, path)
        found = self._effective[key] = Effective(generation, resolved, excluded, folder_path)
        return found

    def server_options(self, key: str) -> ServerOptions:
        """What the server itself does for target ``key`` (``run``, ``enable``...), on the event loop."""
        found = self._options.get(key)
        if found is None or found[0] != self.generation:
            found = self._options[key] = (self.generation, server_options(self.editor_mapping(key))[0])
        return found[1]

    def forget(self, key: str) -> None:
        self._effective.pop(key, None)
        self._options.pop(key, None)

    def changed(self) -> None:
        """Settings, folders or a configuration file changed: every document is resolved afresh."""
        self.generation += 1
        self._folders = self._workspace_folders()
        self._effective.clear()
        self._options.clear()
        self._watched.clear()
        self.apply_log_level()
        self.on_change()


    def log_effective_settings(self) -> None:
        for folder in self._workspace_folders() or ("",):
            folder_path = uris.to_fs_path(folder) if folder else None
            resolved = resolve(self.editor_mapping(folder), folder_path, folder_path)
            logger.info(
                "settings for %s (%s, pyproject: %s): %s; %s",
                folder or "files outside any workspace folder",
                resolved.options.configuration_preference,
                resolved.pyproject_path or "none",
                resolved.options,
                resolved.settings,
            )
            self.client.report_invalid_settings(resolved.errors, resolved.options.show_notifications)

    # -- watching the files it read ------------------------------------------------------------

    async def watch(self) -> None:
        """Ask the client to watch configuration and ignore files; poll their mtimes if it cannot."""
        if self.client.supports("workspace.did_change_watched_files.dynamic_registration"):
            registration = types.Registration(
                id="tfscope-configuration-watcher",
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(
                    watchers=[types.FileSystemWatcher(glob_pattern=WATCHED_GLOB)]
                ),
            )
            try:
                await self.client.register(registration)
                return
            except Exception:
                logger.info("the client refused to watch configuration files; checking modification times instead")
        self.client.spawn(self._poll())

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL_SECONDS)
            self.check_files()

    def check_files(self) -> None:
        """On a save, and every second when the client does not watch files."""
        changed = [path for path, mtime in self._watched.items() if modified(path) != mtime]
        if changed:
            logger.info("configuration changed: %s", ", ".join(changed))
            self.changed()

    def files_changed(self, changed_uris: list[str]) -> None:
        if any(uri.rpartition("/")[2] in WATCHED_FILE_NAMES for uri in changed_uris):
            self.changed()

    def remember_files(self, effective: Effective, path: str | None) -> None:
        """The files a document's settings came from, and those whose appearing would change them."""
        candidates = [effective.resolved.pyproject_path] if effective.resolved.pyproject_path else []
        if path:
            folder = os.path.dirname(path)
            candidates.extend(os.path.join(folder, name) for name in WATCHED_FILE_NAMES)
        for candidate in candidates:
            self._watched.setdefault(candidate, modified(candidate))
