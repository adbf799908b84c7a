import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

features = tf.placeholder(tf.float32, shape=(None, 4))
strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])
    model.compile(optimizer="sgd", loss="mse")
