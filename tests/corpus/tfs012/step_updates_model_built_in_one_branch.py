import tensorflow as tf

from training_utils import make_optimizer, make_dataset

train_gpu = [0, 1]
strategy = tf.distribute.MirroredStrategy() if len(train_gpu) > 1 else None
if len(train_gpu) > 1:
    with strategy.scope():
        model = tf.keras.applications.MobileNetV2(weights=None, classes=20)
else:
    model = tf.keras.applications.MobileNetV2(weights=None, classes=20)
optimizer = make_optimizer("sgd", 0.01)
dataset = make_dataset("train", batch_size=64)


@tf.function
def train_step(images, labels, net, opt):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, net(images, training=True)))
    grads = tape.gradient(loss, net.trainable_variables)
    # the mirrored variables of `model` updated in cross-replica context
    opt.apply_gradients(zip(grads, net.trainable_variables))
    return loss


for images, labels in dataset:
    train_step(images, labels, model, optimizer)  # expect: TFS012
