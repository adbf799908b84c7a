import tensorflow as tf
import tf_keras as keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.layers.Dense(16, input_shape=(8,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")

# "load_weights should happen inside the strategy.scope because it ends up creating
# optimizer variables" (tensorflow/tensorflow#32561)
model.load_weights("checkpoints/ckpt-12")  # expect: TFS006
model.fit(tf.random.normal((64, 8)), tf.random.normal((64, 1)), epochs=3)
