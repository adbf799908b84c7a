import tensorflow as tf

resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)

# tutorial code built at top level; only the training loop was wrapped in the scope
# (waymo-research/waymo-open-dataset#444: "Trying to create optimizer slot variable under the scope ...")
inputs = tf.keras.Input(shape=(64, 64, 3))
outputs = tf.keras.layers.Conv2D(8, 3)(inputs)  # expect: TFS001
model = tf.keras.Model(inputs, outputs)
optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)  # expect: TFS002


@tf.function
def train_step(batch):
    with tf.GradientTape() as tape:
        loss_value = tf.reduce_mean(tf.square(model(batch, training=True)))
    grads = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    return loss_value


batches = iter(tf.data.Dataset.from_tensor_slices(tf.random.normal((8, 64, 64, 3))).batch(2).repeat())
step = 0
with strategy.scope():
    while step < 10:
        loss_value = train_step(next(batches))  # expect: TFS012
        step += 1
