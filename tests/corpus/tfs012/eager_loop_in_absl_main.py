from absl import app, flags
import tensorflow as tf

flags.DEFINE_boolean("multi_gpu", False, "train on every GPU")
FLAGS = flags.FLAGS


def main(_argv):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(32,))])
        optimizer = tf.keras.optimizers.Adam(1e-3)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    dataset = tf.data.Dataset.from_tensor_slices((tf.zeros((64, 32)), tf.zeros((64,), tf.int32))).batch(8)
    for epoch in range(2):
        for images, labels in dataset:
            with tf.GradientTape() as tape:
                loss = loss_fn(labels, model(images, training=True))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))  # expect: TFS012


if __name__ == "__main__":
    app.run(main)
