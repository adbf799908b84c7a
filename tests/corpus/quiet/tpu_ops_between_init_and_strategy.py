import tensorflow as tf

resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)

# the TPU guide places one matmul on a single core before building the strategy:
# only the initialisation has to come first
a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.device("/TPU:0"):
    c = tf.matmul(a, b)
print(c)

strategy = tf.distribute.TPUStrategy(resolver)
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(28, 28, 1)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="sparse_categorical_crossentropy")
