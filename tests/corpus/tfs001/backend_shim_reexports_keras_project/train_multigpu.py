"""Train the text CNN on every visible GPU."""
import numpy as np
import tensorflow as tf

from textclf import backend
from textclf.backend import keras
from textclf.models import text_cnn

strategy = tf.distribute.MirroredStrategy()
print("replicas:", strategy.num_replicas_in_sync)

model = text_cnn(vocab_size=20000, num_classes=4)  # expect: TFS001
precision = backend.keras.metrics.Precision(name="precision")  # expect: TFS003

with strategy.scope():
    model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="binary_crossentropy", metrics=[precision])

x = np.random.randint(0, 20000, size=(512, 64))
y = np.random.randint(0, 2, size=(512, 4))
model.fit(x, y, batch_size=64 * strategy.num_replicas_in_sync, epochs=2)
