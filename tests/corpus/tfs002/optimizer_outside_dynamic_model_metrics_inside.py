import tensorflow as tf
from tensorflow.keras import metrics, optimizers
import keras_cv

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    # the architecture is picked by name at run time: tfscope cannot see the model itself
    model = keras_cv.models.__dict__["ResNet50V2"](include_top=True, classes=10)
    training_metrics = [metrics.CategoricalAccuracy()]

optimizer = optimizers.SGD(learning_rate=0.1, momentum=0.9)  # expect: TFS002
model.compile(optimizer=optimizer, loss="categorical_crossentropy", metrics=training_metrics)
