import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    teacher = keras.Sequential([keras.Input(shape=(16,)), keras.layers.Dense(8), keras.layers.Dense(2)])
    teacher.compile(optimizer=keras.optimizers.Adam(), loss="mse")

student = keras.models.clone_model(teacher)  # expect: TFS001

with strategy.scope():
    student.compile(optimizer=keras.optimizers.Adam(1e-4), loss="mse")

data = tf.data.Dataset.from_tensor_slices((tf.random.normal((128, 16)), tf.random.normal((128, 2)))).batch(16)
student.fit(data, epochs=2)
