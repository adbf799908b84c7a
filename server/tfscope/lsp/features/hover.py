"""Hover: rule docs on a code inside ``# noqa: ...``; docs and reasoning on a flagged range;
the placement of a variable bound to a model, optimizer, metric or variable."""

from __future__ import annotations

import re

from lsprotocol import types

from tfscope.lsp.session import Session
from tfscope.rules import get_rule

_NOQA_CODES = re.compile(r"#\s*noqa\s*:\s*(?P<codes>[A-Za-z]+\d+(?:\s*,?\s*[A-Za-z]+\d+)*)", re.IGNORECASE)
_CODE = re.compile(r"[A-Za-z]+\d+")


async def hover(session: Session, params: types.HoverParams) -> types.Hover | None:
    uri = params.text_document.uri
    result = await session.full_result(session.target_of(uri))
    if result is None or (view := result.snapshot.view(uri)) is None:
        return None
    markdown = session.client.reads_markdown_hovers
    offset = view.offset(params.position)
    found = _noqa_code_at(view.source, offset)
    if found:
        code, start, end = found
        return _hover(_rule_text(code, markdown), markdown, view.range(start, end))
    if result.analysis is None:
        return None
    flagged = [d for d in result.analysis.diagnostics if d.start <= offset <= d.end and view.start <= d.start <= view.end]
    if flagged:
        text = "\n\n---\n\n".join(_diagnostic_text(diagnostic, markdown) for diagnostic in flagged)
        return _hover(text, markdown, view.range(flagged[0].start, min(flagged[0].end, view.end)))
    placement = result.analysis.placement_at(offset)
    if placement:
        return _hover(placement, markdown, None)
    return None


def _noqa_code_at(source, offset: int) -> tuple[str, int, int] | None:
    line = source.line_of(offset)
    line_start = source.line_start(line)
    text = source.line_text(line)
    column = offset - line_start
    for noqa in _NOQA_CODES.finditer(text):
        for code in _CODE.finditer(text, noqa.start("codes"), noqa.end("codes")):
            if code.start() <= column <= code.end():
                return code.group().upper(), line_start + code.start(), line_start + code.end()
    return None


def _rule_text(code: str, markdown: bool) -> str:
    rule = get_rule(code)
    if rule is None:
        return f"{code}: not a tfscope rule"
    title = f"**{rule.code}** `{rule.name}`" if markdown else f"{rule.code} {rule.name}"
    return f"{title}\n\n{rule.doc.strip()}"


def _diagnostic_text(diagnostic, markdown: bool) -> str:
    parts = [f"**{diagnostic.code}**: {diagnostic.message}" if markdown else f"{diagnostic.code}: {diagnostic.message}"]
    if diagnostic.explanation:
        parts.append(diagnostic.explanation)
    rule = get_rule(diagnostic.code)
    if rule is not None:
        parts.append(rule.doc.strip())
    return "\n\n".join(parts)


def _hover(text: str, markdown: bool, hover_range: types.Range | None) -> types.Hover:
    kind = types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText
    return types.Hover(contents=types.MarkupContent(kind=kind, value=text), range=hover_range)
