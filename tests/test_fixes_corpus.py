"""Every candidate fix on every statement of the rule corpus keeps the code: it applies, parses,
and keeps every token and comment (LF and CRLF). A property check over real-looking scripts."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tfscope.diagnostics import (
    AverageLossPerExample,
    CallDirectly,
    CallInstead,
    JoinScopes,
    MoveBefore,
    MoveOutOfScope,
    PlaceInScope,
    RunThroughStrategy,
)
from tfscope.fixes import apply_edits, candidate_fixes, is_suppressed, noqa_fix, noqa_suppressions, preserves_code
from tfscope.source import Source

CORPUS = sorted((Path(__file__).parent / "corpus").rglob("*.py"))


def every_intent(tree: ast.Module):
    statements = [node for node in ast.walk(tree) if isinstance(node, ast.stmt)]
    scope_blocks = tuple(node for node in statements if isinstance(node, ast.With))
    for statement in statements:
        yield PlaceInScope(statement, "strategy", scope_blocks)
    for block in scope_blocks:
        for statement in block.body:
            yield MoveOutOfScope(statement, block)
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    for call in calls:
        if isinstance(call.func, ast.Name):  # what a step call looks like
            yield RunThroughStrategy(call, ("strategy",))
        if isinstance(call.func, ast.Attribute) and call.func.attr == "run":
            yield CallDirectly(call)
        yield CallInstead(call, "distributed_steps")
    assignments = [node for node in statements if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)]
    for assignment in assignments:
        creation = assignment.value
        names = {target.id for target in assignment.targets if isinstance(target, ast.Name)}
        yield AverageLossPerExample(creation, tuple(
            call for call in calls if isinstance(call.func, ast.Name) and call.func.id in names))
        earlier = [call for call in calls if call.lineno < creation.lineno]
        if earlier:
            yield MoveBefore(creation, min(earlier, key=lambda call: call.lineno))
    for creation_block in scope_blocks:
        for use_block in scope_blocks:
            for statement in creation_block.body:
                yield JoinScopes(statement, use_block.body[-1], (creation_block,), (use_block,))


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_every_candidate_fix_on_the_corpus_keeps_the_code(newline):
    assert CORPUS, "the rule corpus is missing"
    checked = 0
    for path in CORPUS:
        source = Source(path.read_text(encoding="utf-8").replace("\n", newline))
        tree = ast.parse(source.code)
        for intent in every_intent(tree):
            for fix in candidate_fixes(intent, source, tree):
                fixed = apply_edits(source.text, fix.edits)
                assert preserves_code(source, fixed, fix), f"{path.name}: {intent} {fix.title}"
                ast.parse(Source(fixed).code)
                checked += 1
    assert checked > len(CORPUS)


def test_every_noqa_fix_on_the_corpus_suppresses_its_line():
    for path in CORPUS:
        source = Source(path.read_text(encoding="utf-8"))
        for line in range(source.line_count):
            fix = noqa_fix(source, "TFS001", line)
            if fix is None:
                assert is_suppressed(noqa_suppressions(source), line, "TFS001"), f"{path.name}:{line + 1}"
                continue
            fixed = Source(apply_edits(source.text, fix.edits))
            assert is_suppressed(noqa_suppressions(fixed), line, "TFS001"), f"{path.name}:{line + 1}"
            ast.parse(fixed.code)
