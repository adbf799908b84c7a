import tensorflow as tf

gpus = tf.config.list_physical_devices("GPU")
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)

# configuration calls above create no ops: the strategy still comes first
strategy = tf.distribute.MultiWorkerMirroredStrategy()
global_batch_size = 64 * strategy.num_replicas_in_sync

dataset = tf.data.Dataset.from_tensor_slices(tf.random.normal((1024, 32))).batch(global_batch_size)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(32,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
