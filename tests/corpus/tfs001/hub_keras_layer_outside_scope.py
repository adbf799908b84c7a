# corpus: keras-version=2
import numpy as np
import tensorflow as tf
import tensorflow_hub as hub

# hub.KerasLayer loads the SavedModel (and its variables) in its constructor, unlike a plain Keras layer
# (tensorflow/hub#515: "Trying to access a placeholder that is not supposed to be executed")
embed = hub.KerasLayer("https://tfhub.dev/google/universal-sentence-encoder-large/5", trainable=True)  # expect: TFS001


def create_model():
    return tf.keras.Sequential([
        tf.keras.layers.Input(shape=[], dtype=tf.string),
        embed,
        tf.keras.layers.Dense(4, activation="softmax"),
    ])


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = create_model()
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")

model.fit(np.array(["SOCCER", "ROWING"]), np.array([0, 3]), epochs=1)
