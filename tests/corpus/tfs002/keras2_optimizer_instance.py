import tensorflow as tf
import tf_keras as keras

strategy = tf.distribute.MirroredStrategy()

# Keras 2: "Optimizer (...) passed to model.compile was created inside of a different
# distribution strategy scope than the model"
sgd = keras.optimizers.SGD(learning_rate=0.01, momentum=0.9)  # expect: TFS002

with strategy.scope():
    model = keras.Sequential([keras.layers.Dense(8, input_shape=(4,)), keras.layers.Dense(1)])
    model.compile(optimizer=sgd, loss="mse")

model.fit(tf.random.normal((64, 4)), tf.random.normal((64, 1)), epochs=3)
