import tensorflow as tf
from tensorflow import keras

GLOBAL_BATCH_SIZE = 64
strategy = tf.distribute.MirroredStrategy()
# a learnable temperature for calibration, trained together with the model
temperature = tf.Variable(1.0, trainable=True, name="temperature")  # expect: TFS004

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(16,)), keras.layers.Dense(4)])
    optimizer = keras.optimizers.Adam()
    loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


def train_step(features, labels):
    with tf.GradientTape() as tape:
        logits = model(features, training=True) / temperature
        loss = tf.nn.compute_average_loss(loss_object(labels, logits), global_batch_size=GLOBAL_BATCH_SIZE)
    variables = model.trainable_variables + [temperature]
    optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
    return loss


@tf.function
def distributed_train_step(features, labels):
    return strategy.run(train_step, args=(features, labels))
