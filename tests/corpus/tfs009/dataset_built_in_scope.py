import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    (x_train, y_train), _ = keras.datasets.mnist.load_data()  # expect: TFS009
    train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(60_000).batch(128)  # expect: TFS009
    model = keras.Sequential([
        keras.Input(shape=(28, 28)),
        keras.layers.Flatten(),
        keras.layers.Dense(10),
    ])
    model.compile(
        optimizer=keras.optimizers.Adam(),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    )

model.fit(train_ds, epochs=2)
