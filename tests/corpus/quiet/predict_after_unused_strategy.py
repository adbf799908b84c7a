"""Scoring notebook: the set-up cell made a strategy (only to size batches), and a saved model is
loaded and run on test data. Inference on one device is slower, not wrong: nothing to report."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 64 * strategy.num_replicas_in_sync

(_, _), (test_images, test_labels) = tf.keras.datasets.cifar10.load_data()
test_dataset = tf.data.Dataset.from_tensor_slices((test_images / 255.0, test_labels)).batch(BATCH_SIZE)

scorer = tf.keras.models.load_model("./models/HDF5/cifar10.h5")
predictions = scorer.predict(test_dataset)
print(predictions.argmax(axis=-1)[:10])

probe = tf.keras.Sequential([tf.keras.Input(shape=(32, 32, 3)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
print(probe.predict(test_dataset).shape)
