"""Structured-data classification on Vertex AI (Keras 2.7): each numeric feature gets a
Normalization layer adapted outside the scope, and the model made of them is compiled inside it.
Keras 2's compile checks every model variable, the adapted mean and variance included, and raises
"Variable ... was not created in the distribution strategy scope"."""
# corpus: keras-version=2
import tensorflow as tf

FEATURES = ["Time", "V1", "V2", "V3", "Amount"]
BATCH_SIZE = 256


def read_dataset():
    features = {name: tf.random.normal((1024,)) for name in FEATURES}
    return tf.data.Dataset.from_tensor_slices((features, tf.zeros((1024,)))).batch(BATCH_SIZE)


def encode_numerical_feature(feature, name, dataset):
    normalizer = tf.keras.layers.Normalization()
    feature_ds = dataset.map(lambda x, y: tf.expand_dims(x[name], -1))
    normalizer.adapt(feature_ds)
    return normalizer(feature)


training_ds = read_dataset()
all_inputs = []
encoded_features = []
for header in FEATURES:
    numeric_col = tf.keras.Input(shape=(1,), name=header)
    all_inputs.append(numeric_col)
    encoded_features.append(encode_numerical_feature(numeric_col, header, training_ds))  # expect: TFS001

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    all_features = tf.keras.layers.concatenate(encoded_features)
    x = tf.keras.layers.Dense(64, activation="relu")(all_features)
    x = tf.keras.layers.Dropout(0.5)(x)
    output = tf.keras.layers.Dense(1, activation="sigmoid")(x)
    model = tf.keras.Model(all_inputs, output)
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])

model.fit(training_ds, epochs=3)
