"""A pytest test whose model comes from a fixture (a call tfscope cannot see) inside the scope:
compiling it makes it a Keras model of that scope, so the optimizer made before the scope is
misplaced on the path that distributes."""
import pytest
import tensorflow as tf


@pytest.mark.parametrize("use_mirrored_strategy", [True, False])
def test_training(get_model, mnist_dataset, use_mirrored_strategy):
    optimizer = tf.keras.optimizers.Adam()  # expect: TFS002
    if use_mirrored_strategy:
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = get_model("functional")
    else:
        model = get_model("functional")
    model.compile(optimizer=optimizer, loss="sparse_categorical_crossentropy")
    model.fit(mnist_dataset, epochs=1)
