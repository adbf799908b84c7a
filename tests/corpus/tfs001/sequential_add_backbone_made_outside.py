"""A transfer-learning script fills an empty Sequential with `add`: the backbone it adds was built
before the scope, so its weights are ordinary single-device variables of the model compiled in it."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
backbone = tf.keras.applications.MobileNetV2(include_top=False, weights="imagenet", input_shape=(224, 224, 3))  # expect: TFS001
backbone.trainable = False

with strategy.scope():
    model = tf.keras.Sequential()
    model.add(backbone)
    model.add(tf.keras.layers.GlobalAveragePooling2D())
    model.add(tf.keras.layers.Dense(5, activation="softmax"))
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
