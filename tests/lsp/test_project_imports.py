"""jedi answers what the file cannot tell, off the request path: the static result comes first."""

from __future__ import annotations

import textwrap

from .session import EDITORS, codes, lsp_session

FACTORY = textwrap.dedent(
    """\
    from tensorflow import keras


    def build_model():
        return keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
    """
)
TRAIN = textwrap.dedent(
    """\
    import tensorflow as tf
    from mypkg.models import build_model

    strategy = tf.distribute.MirroredStrategy()
    model = build_model()
    with strategy.scope():
        model.compile(optimizer="adam", loss="mse")
    """
)


async def test_factory_from_another_module_is_reported_once_jedi_has_answered(tmp_path):
    (tmp_path / "mypkg").mkdir()
    (tmp_path / "mypkg" / "__init__.py").write_text("")
    (tmp_path / "mypkg" / "models.py").write_text(FACTORY)
    async with lsp_session(EDITORS["neovim"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", TRAIN)
        first = await session.wait_for_diagnostics(uri, predicate=lambda diagnostics: True, version=1)
        assert first == [], "the static pass cannot see into mypkg and must not wait for jedi"
        resolved = await session.wait_for_diagnostics(uri, predicate=lambda d: codes(d) == ["TFS001"], version=1)
        assert resolved[0].range.start.line == 4
        assert "build_model()" in resolved[0].message
