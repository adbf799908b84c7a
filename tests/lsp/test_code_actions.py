"""Code actions end to end: quick fix, ignore-on-line, fix-all; lazily resolved, versioned edits."""

from __future__ import annotations

import ast

import pytest
from lsprotocol import types

from .session import EDITORS, MODEL_LINE, MODEL_OUTSIDE_SCOPE, codes, lsp_session

TWO_OBJECTS_OUTSIDE = MODEL_OUTSIDE_SCOPE.replace(
    'model.compile(optimizer="adam"', "model.compile(optimizer=optimizer"
).replace("with strategy.scope():", "optimizer = tf.keras.optimizers.Adam()\nwith strategy.scope():")


def by_title(actions: list[types.CodeAction], start: str) -> types.CodeAction:
    matching = [action for action in actions if action.title.startswith(start)]
    assert matching, [action.title for action in actions]
    return matching[0]


@pytest.mark.parametrize("editor", ["vscode", "neovim", "neovim-0.7"])
async def test_quick_fix_applied_removes_the_diagnostic(tmp_path, editor):
    async with lsp_session(EDITORS[editor](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        (diagnostic,) = await session.diagnostics(uri)
        actions = await session.code_actions(uri, MODEL_LINE, diagnostics=[diagnostic])
        quick_fixes = [action for action in actions if action.kind == types.CodeActionKind.QuickFix]
        preferred = [action for action in quick_fixes if action.is_preferred]
        assert len(preferred) == 1, [action.title for action in quick_fixes]
        assert "scope" in preferred[0].title
        assert preferred[0].diagnostics[0].code == "TFS001"
        if session.client.capabilities.text_document.code_action.resolve_support:
            assert preferred[0].edit is None, "edits should wait for codeAction/resolve"
        action = await session.resolved(preferred[0])
        session.apply(action.edit)
        assert await session.diagnostics(uri) == []
        fixed = session.texts[uri]
        ast.parse(fixed)
        assert "    model = tf.keras.Sequential(" in fixed, fixed


async def test_edits_carry_the_document_version_they_were_computed_for(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", "# first version\n")
        await session.diagnostics(uri)
        version = session.change(uri, MODEL_OUTSIDE_SCOPE)
        await session.diagnostics(uri)
        actions = await session.code_actions(uri, MODEL_LINE)
        action = await session.resolved(by_title(actions, "Ignore TFS001"))
        (change,) = action.edit.document_changes
        assert change.text_document.uri == uri
        assert change.text_document.version == version


async def test_resolving_an_action_for_an_older_version_gives_no_edit(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        await session.diagnostics(uri)
        actions = await session.code_actions(uri, MODEL_LINE)
        session.change(uri, MODEL_OUTSIDE_SCOPE + "# edited meanwhile\n")
        await session.diagnostics(uri)
        stale = await session.client.code_action_resolve_async(by_title(actions, "Ignore TFS001"))
        assert stale.edit is None


@pytest.mark.parametrize("editor", ["vscode", "neovim-0.7"])
async def test_ignore_on_this_line(tmp_path, editor):
    async with lsp_session(EDITORS[editor](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        await session.diagnostics(uri)
        actions = await session.code_actions(uri, MODEL_LINE)
        action = await session.resolved(by_title(actions, "Ignore TFS001 on this line"))
        assert action.kind == types.CodeActionKind.QuickFix
        session.apply(action.edit)
        assert await session.diagnostics(uri) == []
        assert "# noqa: TFS001" in session.texts[uri].splitlines()[MODEL_LINE]


@pytest.mark.parametrize("editor", ["vscode", "neovim"])
async def test_fix_all_applies_every_safe_fix(tmp_path, editor):
    async with lsp_session(EDITORS[editor](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", TWO_OBJECTS_OUTSIDE)
        assert sorted(codes(await session.diagnostics(uri))) == ["TFS001", "TFS002"]
        actions = await session.code_actions(uri, 0, only=[types.CodeActionKind.SourceFixAll])
        (fix_all,) = actions
        assert fix_all.kind == "source.fixAll.tfscope"
        session.apply((await session.resolved(fix_all)).edit)
        assert await session.diagnostics(uri) == []
        ast.parse(session.texts[uri])


async def test_only_source_kinds_requested_gives_no_quick_fixes(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        await session.diagnostics(uri)
        actions = await session.code_actions(uri, MODEL_LINE, only=[types.CodeActionKind.Source])
        assert [action.kind for action in actions] == ["source.fixAll.tfscope"]


async def test_apply_fix_all_command_sends_the_edit(tmp_path):
    applied: list[types.ApplyWorkspaceEditParams] = []

    def apply_edit(ls, params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        applied.append(params)
        return types.ApplyWorkspaceEditResult(applied=True)

    features = {types.WORKSPACE_APPLY_EDIT: apply_edit}
    async with lsp_session(EDITORS["vscode"](), [tmp_path], client_features=features) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        await session.diagnostics(uri)
        await session.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="tfscope.applyFixAll", arguments=[uri])
        )
        (params,) = applied
        session.apply(params.edit)
        assert await session.diagnostics(uri) == []


async def test_actions_still_work_for_a_file_whose_analysis_was_evicted(tmp_path):
    from tfscope.lsp.session import KEPT_ANALYSES

    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        first = session.open(tmp_path / "train_0.py", MODEL_OUTSIDE_SCOPE)
        await session.diagnostics(first)
        for number in range(1, KEPT_ANALYSES + 2):  # more open files than full analyses kept
            await session.diagnostics(session.open(tmp_path / f"train_{number}.py", MODEL_OUTSIDE_SCOPE))
        actions = await session.code_actions(first, MODEL_LINE)
        (move,) = [action for action in actions if action.is_preferred]
        session.apply((await session.resolved(move)).edit)
        assert await session.diagnostics(first) == []


STEP_AND_LATE_STRATEGY = """\
import tensorflow as tf

features = tf.random.normal((32, 4))
strategy = tf.distribute.MultiWorkerMirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD()


@tf.function
def train_step(x):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x))
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))


train_step(features)
"""


async def test_the_new_rule_fixes_reach_the_editor_safe_ones_through_fix_all(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", STEP_AND_LATE_STRATEGY)
        assert sorted(codes(await session.diagnostics(uri))) == ["TFS012", "TFS014"]
        step_line = STEP_AND_LATE_STRATEGY.splitlines().index("train_step(features)")
        run = await session.resolved(by_title(await session.code_actions(uri, step_line), "Run it through `strategy.run`"))
        assert run.kind == types.CodeActionKind.QuickFix and run.is_preferred
        (fix_all,) = await session.code_actions(uri, 0, only=[types.CodeActionKind.SourceFixAll])
        session.apply((await session.resolved(fix_all)).edit)
        # fix-all takes only the safe TFS014 move; the unsafe TFS012 rewrite stays a quick fix
        assert codes(await session.diagnostics(uri)) == ["TFS012"]
        assert session.texts[uri].startswith(
            "import tensorflow as tf\n\nstrategy = tf.distribute.MultiWorkerMirroredStrategy()\nfeatures ="
        )
