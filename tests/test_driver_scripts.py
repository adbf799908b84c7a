"""A module's code run by a script of the project that creates the strategy (a trainer library
whose strategy only the training script makes): what goes wrong is reported in the module."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

from tfscope.config import DEFAULT_SETTINGS
from tfscope.engine import analyze
from tfscope.resolve.project import ProjectResolver
from tfscope.source import Source

TRAINER = """\
import tensorflow as tf


class Trainer:
    def __init__(self, strategy=None):
        self.strategy = strategy
        self.optimizer = tf.keras.optimizers.Adam()

    def fit(self, model, batches):
        @tf.function
        def train_step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
            gradients = tape.gradient(loss, model.trainable_variables)
            self.optimizer.apply_gradients(zip(gradients, model.trainable_variables))

        for x, y in batches:
            {step_call}
"""
DRIVER = """\
import tensorflow as tf

from seqlab import trainer

strategy = tf.distribute.MirroredStrategy()
batches = strategy.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4))
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(1)])
    seq_trainer = trainer.Trainer(strategy)
seq_trainer.fit(model, batches)
"""


def _project(tmp_path, step_call: str):
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(name='seqlab')\n")
    (tmp_path / "seqlab").mkdir()
    (tmp_path / "seqlab" / "__init__.py").write_text("")
    library = tmp_path / "seqlab" / "trainer.py"
    library.write_text(TRAINER.format(step_call=step_call))
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "train.py").write_text(textwrap.dedent(DRIVER))
    return library


def _findings(path, resolver):
    analysis = analyze(Source(path.read_text(), path=str(path)), DEFAULT_SETTINGS, resolver)
    if analysis.unresolved and resolver.resolve_pending():
        analysis = analyze(Source(path.read_text(), path=str(path)), DEFAULT_SETTINGS, resolver)
    return [(d.code, analysis.source.position(d.start)[0] + 1, d.message) for d in analysis.diagnostics], analysis


def test_a_step_the_library_calls_directly_is_reported_in_the_library(tmp_path):
    library = _project(tmp_path, "train_step(x, y)")
    findings, analysis = _findings(library, ProjectResolver(root=str(tmp_path)))
    assert [(code, line) for code, line, _ in findings] == [("TFS012", 18)]
    assert findings[0][2].startswith("When `bin/train.py` runs this code: `apply_gradients` of ")
    assert all(diagnostic.intent is None for diagnostic in analysis.diagnostics)  # the script's names are not here


def test_the_library_alone_and_a_step_run_through_the_strategy_stay_quiet(tmp_path):
    library = _project(tmp_path / "run", "self.strategy.run(train_step, args=(x, y))")
    assert _findings(library, ProjectResolver(root=str(tmp_path / "run")))[0] == []
    alone = _project(tmp_path / "alone", "train_step(x, y)")
    (tmp_path / "alone" / "bin" / "train.py").unlink()
    assert _findings(alone, ProjectResolver(root=str(tmp_path / "alone")))[0] == []


def test_the_module_reached_through_another_module_of_the_package(tmp_path):
    """The script calls `make_env` of `envlib.factories`, which builds `envlib.environments`'
    class: what that class's constructor does is sited in its own module, not at the script's call."""
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(name='envlib')\n")
    (tmp_path / "envlib").mkdir()
    (tmp_path / "envlib" / "__init__.py").write_text("")
    (tmp_path / "envlib" / "factories.py").write_text(textwrap.dedent("""\
        from envlib.environments import CompressionEnv


        def make_env(create_model, dataset, strategy):
            return CompressionEnv(create_model, dataset, strategy)
        """))
    environments = tmp_path / "envlib" / "environments.py"
    environments.write_text(textwrap.dedent("""\
        class CompressionEnv:
            def __init__(self, create_model, dataset, strategy=None):
                self.strategy = strategy
                self.model = create_model()
                with self.strategy.scope():
                    self.model.evaluate(dataset)
        """))
    (tmp_path / "run_tpu.py").write_text(textwrap.dedent("""\
        import tensorflow as tf

        from envlib.factories import make_env

        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="local")
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        strategy = tf.distribute.TPUStrategy(resolver)


        def create_model():
            model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(2)])
            model.compile(optimizer="adam", loss="mse")
            return model


        env = make_env(create_model, tf.data.Dataset.range(4), strategy)
        """))
    resolver = ProjectResolver(root=str(tmp_path))
    findings, _ = _findings(environments, resolver)
    for _ in range(3):  # each round reaches one import further
        if not resolver.resolve_pending():
            break
        findings, _ = _findings(environments, resolver)
    assert [(code, line) for code, line, _ in findings] == [("TFS001", 4)]
    assert findings[0][2].startswith("When `run_tpu.py` runs this code: model `self.model` (create_model()) is created")


def test_an_unsaved_buffer_keeps_what_the_scripts_saw_where_its_text_is_the_saved_files(tmp_path):
    """The scripts ran the saved file. Lines typed above move the step call: its finding moves with
    it. A step call being edited is the buffer's own to judge (alone, the library is quiet)."""
    library = _project(tmp_path, "train_step(x, y)")
    resolver = ProjectResolver(root=str(tmp_path))
    assert [(code, line) for code, line, _ in _findings(library, resolver)[0]] == [("TFS012", 18)]

    def findings_in(text):
        analysis = analyze(Source(text, path=str(library)), DEFAULT_SETTINGS, resolver)
        return [(d.code, analysis.source.position(d.start)[0] + 1) for d in analysis.diagnostics]

    assert findings_in("# a comment typed above\n\n" + library.read_text()) == [("TFS012", 20)]
    assert findings_in(library.read_text().replace("train_step(x, y)", "train_step(x, y, )")) == []


def test_the_scripts_runs_decide_the_lines_they_all_run_and_a_line_being_edited_its_own(tmp_path):
    """The trainer alone cannot tell that `fit_tape` only runs without `keras_fit`; the script that
    calls it can. Where the script ran every line of the library's own finding (the loss built,
    the step that calls it), its run decides; a line being edited, which no script ran, is judged
    by the buffer's own analysis."""
    corpus = Path(__file__).parent / "corpus" / "tfs013" / "trainer_library_loop_picked_by_script_project_quiet"
    shutil.copytree(corpus, tmp_path / "project")
    library = tmp_path / "project" / "seqtrain" / "trainer.py"
    resolver = ProjectResolver(root=str(tmp_path / "project"))
    assert _findings(library, resolver)[0] == []
    edited = library.read_text().replace("loss_fn = tf.keras.losses.Poisson()", "loss_fn = tf.keras.losses.Poisson( )")
    analysis = analyze(Source(edited, path=str(library)), DEFAULT_SETTINGS, resolver)
    assert [(d.code, analysis.source.position(d.start)[0] + 1) for d in analysis.diagnostics] == [("TFS013", 19)]
