import tensorflow as tf
import tf_keras as keras

GLOBAL_BATCH_SIZE = 64
strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.layers.Dense(5, input_shape=(20,))])
    optimizer = keras.optimizers.Adam()
    loss_object = keras.losses.SparseCategoricalCrossentropy(
        from_logits=True, reduction=keras.losses.Reduction.NONE
    )


def train_step(features, labels):
    with tf.GradientTape() as tape:
        per_example_loss = loss_object(labels, model(features, training=True))
        loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH_SIZE)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(features, labels):
    return strategy.run(train_step, args=(features, labels))
