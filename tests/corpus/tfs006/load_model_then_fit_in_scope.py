import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

model = keras.models.load_model("artifacts/pretrained.keras")  # expect: TFS006

with strategy.scope():
    model.compile(optimizer=keras.optimizers.Adam(1e-5), loss="sparse_categorical_crossentropy")

finetune_ds = tf.data.Dataset.load("artifacts/finetune_ds")
model.fit(finetune_ds, epochs=2)
