"""A TensorFlow 1.14 eager script: its Keras optimizers are OptimizerV2, which make their
variables at the first step in the replica context, so one built before the scope and compiled
inside it works."""
import tensorflow as tf

tf.enable_eager_execution()

strategy = tf.distribute.MirroredStrategy()
opt = tf.keras.optimizers.Adam(0.001)
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(784,))])
    model.compile(optimizer=opt, loss="sparse_categorical_crossentropy")

images = tf.zeros((64, 784))
labels = tf.zeros((64,), dtype=tf.int32)
model.fit(tf.data.Dataset.from_tensor_slices((images, labels)).batch(16), epochs=1)
