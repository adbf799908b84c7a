import tensorflow as tf
import tf_keras as keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.layers.Dense(3, input_shape=(6,))])
    optimizer = keras.optimizers.Adam()
    # Keras 2 raises "Please use tf.keras.losses.Reduction.SUM or ... NONE" for AUTO in custom loops
    loss_fn = keras.losses.CategoricalCrossentropy(from_logits=True, reduction=keras.losses.Reduction.AUTO)  # expect: TFS013


def train_step(features, labels):
    with tf.GradientTape() as tape:
        loss = loss_fn(labels, model(features, training=True))
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(features, labels):
    return strategy.run(train_step, args=(features, labels))
