"""The tests of a library that supports TF 2.x both sides of 2.11 pick the optimizer by version:
the legacy module from 2.11 on, the plain one before it, which is the same OptimizerV2. Built
before the scope, it makes its slots at the first step in the replica context."""
# corpus: keras-version=2
import tensorflow as tf
from packaging import version

if version.parse(tf.__version__) >= version.parse("2.11.0"):
    from tensorflow.keras.optimizers.legacy import Adam
else:
    from tensorflow.keras.optimizers import Adam


def test_fit_under_mirrored_strategy():
    strategy = tf.distribute.MirroredStrategy()
    opt = Adam()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((28, 28)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
        model.compile(optimizer=opt, loss="sparse_categorical_crossentropy")
    images = tf.zeros((32, 28, 28))
    labels = tf.zeros((32,), dtype=tf.int32)
    model.fit(tf.data.Dataset.from_tensor_slices((images, labels)).batch(8), epochs=1)
