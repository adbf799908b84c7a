"""Run from detector/ as `python -m keras.train`: `keras` is this project's own package here."""
import tensorflow as tf

import hparams
from keras import train_lib


def main():
    config = hparams.default_config()
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = train_lib.DetectorTrain(num_classes=config["num_classes"])
        model.compile(
            optimizer=tf.keras.optimizers.SGD(config["learning_rate"], momentum=0.9),
            loss={"seg_loss": tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)},  # expect: TFS013
        )
    images = tf.zeros((config["batch_size"], 64, 64, 3))
    masks = tf.zeros((config["batch_size"], 64, 64, 1), dtype=tf.int32)
    model.fit(tf.data.Dataset.from_tensor_slices((images, masks)).batch(8), epochs=1)


if __name__ == "__main__":
    main()
