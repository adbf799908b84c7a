import tensorflow as tf
from official.common import distribute_utils


def run_training(strategy, dataset, steps):
    # tensorflow/models' helper returns strategy.scope() (or a null context when strategy is None)
    with distribute_utils.get_strategy_scope(strategy):
        model = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(1)])
        optimizer = tf.keras.optimizers.SGD(0.1)
        train_loss = tf.keras.metrics.Mean("train_loss", dtype=tf.float32)

    @tf.function
    def train_step(iterator):
        def step_fn(inputs):
            features, labels = inputs
            with tf.GradientTape() as tape:
                per_example_loss = tf.square(labels - model(features, training=True))
                loss = tf.nn.compute_average_loss(per_example_loss)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            train_loss.update_state(loss)

        strategy.run(step_fn, args=(next(iterator),))

    iterator = iter(strategy.experimental_distribute_dataset(dataset))
    for _ in range(steps):
        train_step(iterator)
    return train_loss.result()


if __name__ == "__main__":
    strategy = distribute_utils.get_distribution_strategy(distribution_strategy="mirrored", num_gpus=2)
    data = tf.data.Dataset.from_tensor_slices((tf.random.normal((64, 8)), tf.random.normal((64, 1)))).batch(16)
    print(run_training(strategy, data, steps=4))
