import tensorflow as tf

GLOBAL_BATCH_SIZE = 32
strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(0.01)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)

manager = tf.train.CheckpointManager(checkpoint, directory="ckpt", max_to_keep=2)
manager.restore_or_initialize()  # expect: TFS006


def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(tf.square(model(features) - targets), global_batch_size=GLOBAL_BATCH_SIZE)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(features, targets):
    # TensorFlow 2.1-2.3's name for `run`: their OptimizerV2 makes a restore's slots under the current strategy
    return strategy.experimental_run_v2(train_step, args=(features, targets))
