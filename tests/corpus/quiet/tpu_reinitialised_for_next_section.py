import tensorflow as tf

resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)

features = tf.random.normal((256, 16))
labels = tf.random.uniform((256,), maxval=2, dtype=tf.int32)
dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(32, drop_remainder=True)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(16,)), tf.keras.layers.Dense(2)])
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="sparse_categorical_crossentropy")
model.fit(dataset, epochs=1)

# a later notebook section starts over on purpose: the system was initialised first,
# re-initialising only wipes the previous section's TPU state, which nothing uses again
resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(16,)), tf.keras.layers.Dense(2)])
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="sparse_categorical_crossentropy")
model.fit(dataset, epochs=1)
