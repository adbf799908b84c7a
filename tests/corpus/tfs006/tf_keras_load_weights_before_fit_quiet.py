"""tf_keras (TensorFlow 2.16+) runs the optimizers of TensorFlow 2.11+, which make their slot
variables at `build`, the first `apply_gradients`: a restore before it makes none, it holds the
checkpoint's values until `build` creates the slots (tf-keras optimizer.py keeps them in the tracked
`_variables` list), here in `fit`, under the model's strategy."""
import tensorflow as tf
import tf_keras as keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.layers.Dense(16, input_shape=(8,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")

model.load_weights("checkpoints/ckpt-12")
model.fit(tf.random.normal((64, 8)), tf.random.normal((64, 1)), epochs=3)
