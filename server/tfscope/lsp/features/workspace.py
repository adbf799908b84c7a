"""Workspace events: settings pulled after ``initialized`` and on ``didChangeConfiguration``,
workspace folders added or removed, watched configuration and ignore files changing."""

from __future__ import annotations

from typing import Any

from tfscope.lsp.session import Session


async def initialized(session: Session) -> None:
    configuration = session.configuration
    await configuration.pull()
    configuration.ready.set()
    configuration.apply_log_level()
    configuration.log_effective_settings()
    await configuration.watch()


async def configuration_changed(session: Session, settings: Any) -> None:
    configuration = session.configuration
    if session.client.supports("workspace.configuration"):
        await configuration.pull()
    else:
        configuration.pushed(settings)
    configuration.changed()
    configuration.log_effective_settings()


async def folders_changed(session: Session) -> None:
    await session.configuration.pull()
    session.configuration.changed()


def files_changed(session: Session, changed_uris: list[str]) -> None:
    session.configuration.files_changed(changed_uris)
