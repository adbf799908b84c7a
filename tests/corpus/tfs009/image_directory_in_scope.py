import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    train_ds = keras.utils.image_dataset_from_directory(  # expect: TFS009
        "flowers/train",
        image_size=(180, 180),
        batch_size=32,
    )
    model = keras.applications.EfficientNetB0(weights=None, classes=5, input_shape=(180, 180, 3))
    model.compile(optimizer=keras.optimizers.Adam(), loss="sparse_categorical_crossentropy")

model.fit(train_ds, epochs=10)
