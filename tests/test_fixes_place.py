"""PlaceInScope: "Move into `with S.scope():`" when nothing in between depends on it, else "Wrap"."""

from __future__ import annotations

import pytest

from test_fixes_support import applied, dedent, snippet, statement, titles

from tfscope.diagnostics import Applicability, PlaceInScope
from tfscope.fixes import candidate_fixes

MOVE = "Move into `with strategy.scope():`"
WRAP = "Wrap in `with strategy.scope():`"


def place(source, tree, statement_prefix, strategy="strategy", binding_prefix="strategy =", blocks=None):
    scope_blocks = tuple(statement(source, tree, "with ", n) for n in (blocks if blocks is not None else [0]))
    binding = statement(source, tree, binding_prefix) if binding_prefix else None
    intent = PlaceInScope(statement(source, tree, statement_prefix), strategy, scope_blocks, binding)
    return candidate_fixes(intent, source, tree)


def test_model_before_the_block_moves_to_its_start_with_comments_and_continuation_lines():
    source, tree = snippet(
        """
        import tensorflow as tf

        strategy = tf.distribute.MirroredStrategy()
        # The classifier head.
        model = tf.keras.Sequential([  # two layers
            tf.keras.layers.Dense(64, activation="relu"),
            tf.keras.layers.Dense(10),
        ])
        with strategy.scope():
            optimizer = tf.keras.optimizers.Adam(1e-3)
        model.compile(optimizer=optimizer, loss="mse")
        """
    )
    candidates = place(source, tree, "model =")
    assert titles(candidates) == [MOVE, WRAP]
    move = candidates[0]
    assert move.applicability is Applicability.SAFE and move.is_preferred
    assert applied(source, move) == dedent(
        """
        import tensorflow as tf

        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            # The classifier head.
            model = tf.keras.Sequential([  # two layers
                tf.keras.layers.Dense(64, activation="relu"),
                tf.keras.layers.Dense(10),
            ])
            optimizer = tf.keras.optimizers.Adam(1e-3)
        model.compile(optimizer=optimizer, loss="mse")
        """
    )


def test_optimizer_after_the_block_moves_to_its_end():
    source, tree = snippet(
        """
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = build_model()

        optimizer = tf.keras.optimizers.Adam()  # default rate
        model.compile(optimizer=optimizer)
        """
    )
    candidates = place(source, tree, "optimizer =")
    assert titles(candidates) == [MOVE, WRAP]
    assert applied(source, candidates[0]) == dedent(
        """
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = build_model()
            optimizer = tf.keras.optimizers.Adam()  # default rate

        model.compile(optimizer=optimizer)
        """
    )


def test_a_statement_in_between_that_uses_the_model_refuses_the_move_and_wrap_is_offered():
    source, tree = snippet(
        """
        strategy = tf.distribute.MirroredStrategy()
        model = build_model()
        model.summary()
        with strategy.scope():
            optimizer = tf.keras.optimizers.Adam()
        """
    )
    candidates = place(source, tree, "model =")
    assert titles(candidates) == [WRAP]
    assert candidates[0].is_preferred
    assert applied(source, candidates[0]) == dedent(
        """
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = build_model()
        model.summary()
        with strategy.scope():
            optimizer = tf.keras.optimizers.Adam()
        """
    )


def test_moving_down_past_a_rebinding_of_an_input_is_refused():
    source, tree = snippet(
        """
        strategy = tf.distribute.MirroredStrategy()
        units = 64
        model = make_model(units)
        units = 128
        with strategy.scope():
            optimizer = tf.keras.optimizers.Adam()
        """
    )
    assert titles(place(source, tree, "model =")) == [WRAP]


def test_moving_up_before_the_binding_of_an_input_is_refused():
    source, tree = snippet(
        """
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = build_model()
        learning_rate = 1e-3
        optimizer = tf.keras.optimizers.Adam(learning_rate)
        """
    )
    assert titles(place(source, tree, "optimizer =")) == [WRAP]


def test_moving_across_a_global_side_effect_is_refused():
    source, tree = snippet(
        """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        model = build_model()
        tf.keras.mixed_precision.set_global_policy("mixed_float16")
        with strategy.scope():
            optimizer = tf.keras.optimizers.Adam()
        """
    )
    assert titles(place(source, tree, "model =")) == [WRAP]


def test_a_helper_in_between_that_reads_the_moved_name_refuses_the_move():
    source, tree = snippet(
        """
        def report():
            print(model.name)

        strategy = tf.distribute.MirroredStrategy()
        model = build_model()
        status = report()
        with strategy.scope():
            optimizer = tf.keras.optimizers.Adam()
        """
    )
    assert titles(place(source, tree, "model =")) == [WRAP]


def test_independent_statements_in_between_allow_the_move():
    source, tree = snippet(
        """
        strategy = tf.distribute.MirroredStrategy()
        model = build_model()
        print("replicas:", strategy.num_replicas_in_sync)
        dataset = tf.data.Dataset.range(10).batch(2)
        with strategy.scope():
            optimizer = tf.keras.optimizers.Adam()
        """
    )
    candidates = place(source, tree, "model =")
    assert titles(candidates) == [MOVE, WRAP]
    assert applied(source, candidates[0]) == dedent(
        """
        strategy = tf.distribute.MirroredStrategy()
        print("replicas:", strategy.num_replicas_in_sync)
        dataset = tf.data.Dataset.range(10).batch(2)
        with strategy.scope():
            model = build_model()
            optimizer = tf.keras.optimizers.Adam()
        """
    )


def test_the_nearest_scope_block_is_the_target():
    source, tree = snippet(
        """
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            encoder = build_encoder()
        dataset = load_dataset()
        decoder = build_decoder()
        with strategy.scope():
            optimizer = tf.keras.optimizers.Adam()
        """
    )
    candidates = place(source, tree, "decoder =", blocks=[0, 1])
    assert titles(candidates) == [MOVE, WRAP]
    assert applied(source, candidates[0]) == dedent(
        """
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            encoder = build_encoder()
        dataset = load_dataset()
        with strategy.scope():
            decoder = build_decoder()
            optimizer = tf.keras.optimizers.Adam()
        """
    )


def test_a_line_with_other_statements_is_never_split():
    source, tree = snippet(
        """
        strategy = tf.distribute.MirroredStrategy()
        model = build_model(); steps = 100
        with strategy.scope():
            optimizer = tf.keras.optimizers.Adam()
        """
    )
    assert place(source, tree, "model =") == []
    assert place(source, tree, "steps =") == []


def test_a_one_line_block_is_not_a_move_target():
    source, tree = snippet(
        """
        strategy = tf.distribute.MirroredStrategy()
        model = build_model()
        with strategy.scope(): optimizer = tf.keras.optimizers.Adam()
        """
    )
    assert titles(place(source, tree, "model =")) == [WRAP]


def test_no_wrap_before_the_strategy_exists():
    source, tree = snippet(
        """
        model = build_model()
        strategy = tf.distribute.MirroredStrategy()
        model.compile(optimizer="adam")
        """
    )
    assert place(source, tree, "model =", blocks=[]) == []


def test_the_move_may_carry_the_model_past_the_strategy_creation():
    source, tree = snippet(
        """
        model = build_model()
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model.compile(optimizer="adam")
        """
    )
    candidates = place(source, tree, "model =")
    assert titles(candidates) == [MOVE]
    assert applied(source, candidates[0]) == dedent(
        """
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = build_model()
            model.compile(optimizer="adam")
        """
    )


def test_wrap_after_a_strategy_chosen_in_an_if_else_and_inside_a_function_with_a_parameter():
    source, tree = snippet(
        """
        if use_tpu:
            strategy = tf.distribute.TPUStrategy(resolver)
        else:
            strategy = tf.distribute.MirroredStrategy()
        model = build_model()


        def train(strategy, data):
            # Built per call.
            model = build_model()
            model.fit(data)
        """
    )
    at_module = place(source, tree, "model = build_model()", binding_prefix="strategy = tf.distribute.Mirrored", blocks=[])
    assert applied(source, at_module[0]).splitlines()[4:6] == ["with strategy.scope():", "    model = build_model()"]
    in_function = PlaceInScope(statement(source, tree, "model = build_model()", 1), "strategy")
    assert applied(source, candidate_fixes(in_function, source, tree)[0]).splitlines()[7:11] == [
        "def train(strategy, data):",
        "    with strategy.scope():",
        "        # Built per call.",
        "        model = build_model()",
    ]


def test_no_wrap_when_the_strategy_is_bound_only_inside_another_function():
    source, tree = snippet(
        """
        def make():
            strategy = tf.distribute.MirroredStrategy()
            return strategy

        model = build_model()
        """
    )
    assert place(source, tree, "model =", blocks=[]) == []


def test_wrap_keeps_crlf_and_uses_the_files_tab_indentation():
    source, tree = snippet(
        """
        def main():
        \tstrategy = tf.distribute.MirroredStrategy()
        \tmodel = tf.keras.Sequential([
        \t\tlayers.Dense(1),
        \t])
        """,
        newline="\r\n",
    )
    candidates = place(source, tree, "model =", blocks=[])
    assert titles(candidates) == [WRAP]
    assert applied(source, candidates[0]) == (
        "def main():\r\n"
        "\tstrategy = tf.distribute.MirroredStrategy()\r\n"
        "\twith strategy.scope():\r\n"
        "\t\tmodel = tf.keras.Sequential([\r\n"
        "\t\t\tlayers.Dense(1),\r\n"
        "\t\t])\r\n"
    )


def test_move_keeps_crlf_and_non_ascii_comments_with_two_space_indentation():
    source, tree = snippet(
        """
        strategy = tf.distribute.MirroredStrategy()
        # Modèle 🚀 principal
        model = build_model(name="réseau")  # ✓
        with strategy.scope():
          optimizer = tf.keras.optimizers.Adam()
        """,
        newline="\r\n",
    )
    candidates = place(source, tree, "model =")
    assert applied(source, candidates[0]) == (
        "strategy = tf.distribute.MirroredStrategy()\r\n"
        "with strategy.scope():\r\n"
        "  # Modèle 🚀 principal\r\n"
        '  model = build_model(name="réseau")  # ✓\r\n'
        "  optimizer = tf.keras.optimizers.Adam()\r\n"
    )


def test_lines_inside_a_multi_line_string_keep_their_text():
    source, tree = snippet(
        '''
        strategy = tf.distribute.MirroredStrategy()
        model = build_model(description="""first line
        second line
          third line""")
        with strategy.scope():
            optimizer = tf.keras.optimizers.Adam()
        '''
    )
    move = place(source, tree, "model =")[0]
    assert applied(source, move) == dedent(
        '''
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = build_model(description="""first line
        second line
          third line""")
            optimizer = tf.keras.optimizers.Adam()
        '''
    )


def test_move_into_a_parenthesised_multi_line_header_and_a_last_line_without_newline():
    source, tree = snippet(
        """
        strategy = tf.distribute.MirroredStrategy()
        model = build_model()
        with (
            strategy.scope()
        ):
            optimizer = tf.keras.optimizers.Adam()
        """
    )
    assert applied(source, place(source, tree, "model =")[0]) == dedent(
        """
        strategy = tf.distribute.MirroredStrategy()
        with (
            strategy.scope()
        ):
            model = build_model()
            optimizer = tf.keras.optimizers.Adam()
        """
    )
    unterminated, unterminated_tree = snippet(
        """
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = build_model()
        optimizer = tf.keras.optimizers.Adam()"""
    )
    assert applied(unterminated, place(unterminated, unterminated_tree, "optimizer =")[0]) == dedent(
        """
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = build_model()
            optimizer = tf.keras.optimizers.Adam()
        """
    )


def test_a_decorated_definition_moves_with_its_decorators():
    source, tree = snippet(
        """
        strategy = tf.distribute.MirroredStrategy()
        @tf.keras.utils.register_keras_serializable()
        class Head(tf.keras.layers.Layer):
            pass
        with strategy.scope():
            optimizer = tf.keras.optimizers.Adam()
        """
    )
    assert applied(source, place(source, tree, "class Head")[0]) == dedent(
        """
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            @tf.keras.utils.register_keras_serializable()
            class Head(tf.keras.layers.Layer):
                pass
            optimizer = tf.keras.optimizers.Adam()
        """
    )


@pytest.mark.parametrize(
    "between",
    [
        "if model is None:\n        return None",  # reads the model
        "if not ready:\n        return None",  # the model would stop being built on this path
        "from helpers import *",  # binds names nobody can see
        "setup_logging()",  # a bare call to anything may touch global state
        "os.environ['TF_CONFIG'] = config",  # a store into a module
        "registry[name] = build_model",  # mutates what the model is built from
        "name = 'encoder'",  # rebinds an input of the model
        "layers = [model]",  # reads the model
        "del helper",  # unbinds a name the model line reads (below)
        "for name in names:\n        pass",  # rebinds an input
    ],
)
def test_moves_are_refused_across_anything_the_statement_could_depend_on(between):
    between = between.replace("\n", "\n" + " " * 8)  # to the snippet's indentation before dedent
    source, tree = snippet(
        f"""
        import os
        def train(strategy, names, registry, ready, config):
            model = registry[name](helper)
            {between}
            with strategy.scope():
                optimizer = tf.keras.optimizers.Adam()
        """
    )
    intent = PlaceInScope(statement(source, tree, "model ="), "strategy", (statement(source, tree, "with "),))
    assert titles(candidate_fixes(intent, source, tree)) == [WRAP]


@pytest.mark.parametrize(
    "between",
    [
        "print('building')",
        "logging.info('building %s', name)",
        "steps = 100 * strategy.num_replicas_in_sync",
        "dataset = tf.data.Dataset.range(8).batch(2)",
        "def loss_fn(labels, logits):\n        return model(labels)",  # its body runs later
        "callbacks = [tf.keras.callbacks.TensorBoard(log_dir)]",
    ],
)
def test_moves_are_allowed_across_independent_statements(between):
    between = between.replace("\n", "\n" + " " * 8)
    source, tree = snippet(
        f"""
        import logging
        import tensorflow as tf
        def train(strategy, name, registry, log_dir):
            model = registry[name]()
            {between}
            with strategy.scope():
                optimizer = tf.keras.optimizers.Adam()
        """
    )
    intent = PlaceInScope(statement(source, tree, "model ="), "strategy", (statement(source, tree, "with "),))
    assert titles(candidate_fixes(intent, source, tree)) == [MOVE, WRAP]


def test_a_scope_block_is_never_moved_into_itself():
    source, tree = snippet(
        """
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = build_model()
        """
    )
    block = statement(source, tree, "with ")
    intent = PlaceInScope(block, "strategy", (block,))
    assert titles(candidate_fixes(intent, source, tree)) == [WRAP]
