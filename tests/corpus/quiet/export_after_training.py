import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(28, 28)), keras.layers.Flatten(), keras.layers.Dense(10)])
    model.compile(optimizer=keras.optimizers.Adam(), loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))

(x_train, y_train), _ = keras.datasets.mnist.load_data()
model.fit(x_train / 255.0, y_train, epochs=1)

# an export wrapper for serving, built after training and never trained
probability_model = keras.Sequential([model, keras.layers.Softmax()])
probability_model.export("exported/mnist")
serving = tf.saved_model.load("exported/mnist")
print(serving.serve(tf.zeros((1, 28, 28))))
