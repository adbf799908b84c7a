import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    # the def statement sits in the scope block, but the body only runs when main() calls it
    def build_model():
        return keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])


def main():
    model = build_model()  # expect: TFS001
    with strategy.scope():
        model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse")
    model.fit(tf.data.Dataset.from_tensor_slices(([[0.0] * 8], [0.0])).batch(1), epochs=1)


if __name__ == "__main__":
    main()
