import json
import os

import tensorflow as tf

tf_config = json.loads(os.environ["TF_CONFIG"])
num_workers = len(tf_config["cluster"]["worker"])
strategy = tf.distribute.MultiWorkerMirroredStrategy()
per_worker_batch_size = 64
global_batch_size = per_worker_batch_size * num_workers


def dataset_fn(input_context):
    batch_size = input_context.get_per_replica_batch_size(global_batch_size)
    (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
    dataset = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).shuffle(60000).repeat()
    dataset = dataset.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    return dataset.batch(batch_size)


# the multi-worker custom-loop tutorial distributes the dataset inside the scope on purpose
with strategy.scope():
    multi_worker_dataset = strategy.distribute_datasets_from_function(dataset_fn)
    model = tf.keras.Sequential([tf.keras.Input(shape=(28, 28)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.RMSprop(learning_rate=0.001)
    train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")


@tf.function
def train_step(iterator):
    def step_fn(inputs):
        x, y = inputs
        with tf.GradientTape() as tape:
            predictions = model(x, training=True)
            per_example_loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")(y, predictions)
            loss = tf.nn.compute_average_loss(per_example_loss)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        train_accuracy.update_state(y, predictions)
        return loss

    per_replica_losses = strategy.run(step_fn, args=(next(iterator),))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


iterator = iter(multi_worker_dataset)
for step in range(70):
    train_step(iterator)
