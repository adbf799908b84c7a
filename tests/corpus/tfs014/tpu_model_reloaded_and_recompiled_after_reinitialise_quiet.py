"""A Kaggle TPU notebook fine-tunes on growing subsets: before each round it initialises the TPU
again, then, in the scope, reloads every weight from the HDF5 file and compiles with a fresh
optimizer. Assigning a variable re-creates its wiped TPU buffer, so the model is whole again."""
import tensorflow as tf
from tensorflow.keras.layers import Dense, Input
from tensorflow.keras.models import Model
from tensorflow.keras.optimizers import Adam

tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(tpu)
tf.tpu.experimental.initialize_tpu_system(tpu)
strategy = tf.distribute.experimental.TPUStrategy(tpu)


def build_model(max_len=128):
    input_word_ids = Input(shape=(max_len,), dtype=tf.int32, name="input_word_ids")
    hidden = Dense(64, activation="relu")(tf.cast(input_word_ids, tf.float32))
    out = Dense(1, activation="sigmoid")(hidden)
    model = Model(inputs=input_word_ids, outputs=out)
    model.compile(Adam(learning_rate=1e-5), loss="binary_crossentropy", metrics=["accuracy"])
    return model


with strategy.scope():
    model = build_model()
model.fit(tf.zeros((64, 128), tf.int32), tf.zeros((64, 1)), epochs=3)
model.save_weights("ckpt.h5")

for subset in (1000, 2000, 5000):
    tf.tpu.experimental.initialize_tpu_system(tpu)
    with strategy.scope():
        model.load_weights("ckpt.h5")
        model.compile(Adam(learning_rate=2e-6), loss="binary_crossentropy", metrics=["accuracy"])
    model.fit(tf.zeros((subset, 128), tf.int32), tf.zeros((subset, 1)), epochs=10)
