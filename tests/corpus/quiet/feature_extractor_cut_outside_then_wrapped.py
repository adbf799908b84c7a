"""A feature extractor cut outside the scope from a base made inside it, then wrapped with a
head made inside: the extractor is a functional model holding only the base's weights, so the
wrapped model has none made outside."""
import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    base = keras.applications.ResNet50(include_top=False, weights="imagenet", input_shape=(224, 224, 3))

extractor = keras.Model(inputs=base.input, outputs=base.get_layer("conv4_block6_out").output)

with strategy.scope():
    inputs = keras.Input(shape=(224, 224, 3))
    features = extractor(inputs)
    outputs = keras.layers.Dense(10)(keras.layers.GlobalAveragePooling2D()(features))
    classifier = keras.Model(inputs, outputs)
    classifier.compile(optimizer=keras.optimizers.Adam(1e-4), loss="sparse_categorical_crossentropy")
