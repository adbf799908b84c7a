"""An ensemble notebook: each member is built and trained in the TPU scope, then its layers but the
head are re-stacked into a feature extractor after the block. The stacks hold only layers whose
weights were created in the scope; the ensemble's own head is built in the scope."""
import tensorflow as tf

IMAGE_SIZE = 224
NUM_CLASSES = 104

resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)


def build_member(application):
    with strategy.scope():
        base = application(weights=None, include_top=False, input_shape=(IMAGE_SIZE, IMAGE_SIZE, 3))
        member = tf.keras.Sequential([base, tf.keras.layers.GlobalAveragePooling2D(),
                                      tf.keras.layers.Dense(NUM_CLASSES, activation="softmax")])
        member.compile(optimizer="adam", loss="categorical_crossentropy")
    return member


model1 = build_member(tf.keras.applications.DenseNet201)
model2 = build_member(tf.keras.applications.EfficientNetB0)

features1 = tf.keras.Sequential()
for layer in model1.layers[:-2]:
    features1.add(layer)
features2 = tf.keras.Sequential()
for layer in model2.layers[:-2]:
    features2.add(layer)

with strategy.scope():
    inputs = tf.keras.Input(shape=(IMAGE_SIZE, IMAGE_SIZE, 3))
    merged = tf.keras.layers.concatenate([features1(inputs), features2(inputs)], axis=3)
    pooled = tf.keras.layers.GlobalAveragePooling2D()(merged)
    outputs = tf.keras.layers.Dense(NUM_CLASSES, activation="softmax")(pooled)
    ensemble = tf.keras.Model(inputs=inputs, outputs=outputs)
    ensemble.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
