"""TF 2.1-2.3 (`experimental_run_v2`): an OptimizerV2 built outside the scope owns no variable
until its first `apply_gradients`, which runs in the replica context of the TPU strategy."""
import tensorflow as tf

resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.experimental.TPUStrategy(resolver)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(16,))])

fine_tune_optimizer = tf.keras.optimizers.Adam(1e-5)


@tf.function
def fine_tune_step(x, y):
    def step_fn(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        fine_tune_optimizer.apply_gradients(zip(grads, model.trainable_variables))
    strategy.experimental_run_v2(step_fn, args=(x, y))
