import tensorflow as tf
from tensorflow import keras

GLOBAL_BATCH_SIZE = 128
resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)
train_accuracy = keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")  # expect: TFS003

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(20,)), keras.layers.Dense(5)])
    optimizer = keras.optimizers.Adam()
    loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


def train_step(inputs):
    features, labels = inputs
    with tf.GradientTape() as tape:
        logits = model(features, training=True)
        loss = tf.nn.compute_average_loss(loss_object(labels, logits), global_batch_size=GLOBAL_BATCH_SIZE)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    train_accuracy.update_state(labels, logits)
    return loss


@tf.function
def distributed_train_step(inputs):
    return strategy.run(train_step, args=(inputs,))
