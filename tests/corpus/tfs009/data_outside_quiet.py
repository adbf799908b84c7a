import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

(x_train, y_train), _ = keras.datasets.fashion_mnist.load_data()
train_ds = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).shuffle(10_000).batch(256)
train_dist_ds = strategy.experimental_distribute_dataset(train_ds)

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(28, 28)), keras.layers.Flatten(), keras.layers.Dense(10)])
    model.compile(optimizer=keras.optimizers.Adam(), loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    # keras.io trains inside the scope: not an error, and not data loading
    model.fit(train_ds, epochs=2)
