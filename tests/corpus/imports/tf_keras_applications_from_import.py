import tensorflow as tf
from tensorflow.keras.applications import EfficientNetB0

strategy = tf.distribute.MirroredStrategy()
model = EfficientNetB0(weights=None, classes=10, input_shape=(64, 64, 3))  # expect: TFS001

with strategy.scope():
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="sparse_categorical_crossentropy")
