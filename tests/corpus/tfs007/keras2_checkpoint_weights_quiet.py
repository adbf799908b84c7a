"""Keras weights saved in the TF checkpoint format: only Keras 2 (TF <= 2.15) accepts that, and
Keras 2's compile enters the model's strategy itself."""
import tensorflow as tf

mirrored_strategy = tf.distribute.MirroredStrategy()


def get_model():
    with mirrored_strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(784,))])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    return model


checkpoint_path = "{}/cp.ckpt".format("saved/model")
callback = tf.keras.callbacks.ModelCheckpoint(filepath=checkpoint_path, save_weights_only=True)
model = get_model()
model.fit(tf.zeros((8, 784)), tf.zeros((8,)), epochs=1, callbacks=[callback])
