import tensorflow as tf
from tensorflow import keras

# TPU when there is one, several GPUs otherwise: one strategy either way
try:
    resolver = tf.distribute.cluster_resolver.TPUClusterResolver.connect()
    strategy = tf.distribute.TPUStrategy(resolver)
except ValueError:
    strategy = tf.distribute.MirroredStrategy()

# augmentation runs inside the input pipeline and never meets the strategy
augmenter = keras.Sequential([keras.layers.RandomFlip("horizontal"), keras.layers.RandomZoom(0.1)])
images = tf.data.Dataset.from_tensor_slices((tf.zeros((64, 32, 32, 3)), tf.zeros((64,)))).batch(8)
images = images.map(lambda x, y: (augmenter(x, training=True), y))

with strategy.scope():
    model = keras.applications.ResNet50(weights=None, input_shape=(32, 32, 3), classes=10)
    model.compile(optimizer=keras.optimizers.SGD(0.1, momentum=0.9), loss="sparse_categorical_crossentropy")
model.fit(images, epochs=1)
