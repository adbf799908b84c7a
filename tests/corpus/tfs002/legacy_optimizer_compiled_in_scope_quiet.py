import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
# a legacy (OptimizerV2) optimizer makes its variables at the first apply_gradients, which
# `fit` runs in the replica context: where it is constructed does not matter
optimizer = tf.keras.optimizers.legacy.Adam(learning_rate=1e-3)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu", input_shape=(20,)),
                                 tf.keras.layers.Dense(1)])
    model.compile(optimizer=optimizer, loss="mse")

model.fit(tf.random.normal((256, 20)), tf.random.normal((256, 1)), epochs=2)
