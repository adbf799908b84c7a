"""The same host-side counter read in a TPU step: a TPU replica cannot reach a variable outside
the scope (`handle` is not available outside the replica context)."""
import tensorflow as tf

resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)
step = tf.Variable(0, name="global_step")  # expect: TFS004

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(learning_rate=1e-3)


@tf.function
def train_step(x, y):
    def step_fn(x, y):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(tf.square(model(x, training=True) - y))
            loss *= tf.cast(step < 1000, tf.float32)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
    strategy.run(step_fn, args=(x, y))


for x, y in strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(([[0.0] * 8], [[0.0]])).batch(1)):
    train_step(x, y)
    step.assign_add(1)
