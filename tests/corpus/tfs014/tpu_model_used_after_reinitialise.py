import tensorflow as tf

resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(32,))])
    model.compile(optimizer="adam", loss="mse")
model.fit(tf.zeros((64, 32)), tf.zeros((64, 10)), epochs=1)

# section 2: start the TPU afresh, then keep training the first model
tf.tpu.experimental.initialize_tpu_system(resolver)
model.fit(tf.zeros((64, 32)), tf.zeros((64, 10)), epochs=1)  # expect: TFS014
