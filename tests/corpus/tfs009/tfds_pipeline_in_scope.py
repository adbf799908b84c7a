import tensorflow as tf
import tensorflow_datasets as tfds


def normalize(image, label):
    return tf.cast(image, tf.float32) / 255.0, label


strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(28, 28, 1)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="sparse_categorical_crossentropy")
    ds_train = tfds.load("mnist", split="train", as_supervised=True)  # expect: TFS009
    ds_train = ds_train.map(normalize, num_parallel_calls=tf.data.AUTOTUNE).batch(64).prefetch(tf.data.AUTOTUNE)  # expect: TFS009

model.fit(ds_train, epochs=1)
