"""A Kaggle TPU notebook builds the backbone in the scope but stacks the classification head on it
after the block: the head's `Dense` weights are created where the stack is built, outside."""
import tensorflow as tf

IMAGE_SIZE = [512, 512]
NUM_CLASSES = 104

resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)

with strategy.scope():
    backbone = tf.keras.applications.Xception(weights="imagenet", include_top=False, input_shape=[*IMAGE_SIZE, 3])
    backbone.trainable = False

model = tf.keras.Sequential([  # expect: TFS001
    backbone,
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(NUM_CLASSES, activation="softmax"),
])

with strategy.scope():
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["sparse_categorical_accuracy"])
