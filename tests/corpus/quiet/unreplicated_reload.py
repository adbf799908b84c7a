import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
path = "saved_model/mnist.keras"

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(28, 28)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
    model.compile(
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        optimizer=tf.keras.optimizers.Adam(),
        metrics=["accuracy"],
    )

(x_train, y_train), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
model.fit(x_train / 255.0, y_train, epochs=1)
model.save(path)

# the distributed Keras tutorial: reload without a strategy for single-device evaluation
unreplicated_model = tf.keras.models.load_model(path)
unreplicated_model.compile(
    loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    optimizer=tf.keras.optimizers.Adam(),
    metrics=["accuracy"],
)
unreplicated_model.evaluate(x_test / 255.0, y_test)

# ...and inside the scope to keep training distributed
with strategy.scope():
    replicated_model = tf.keras.models.load_model(path)
    replicated_model.compile(
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        optimizer=tf.keras.optimizers.Adam(),
        metrics=["accuracy"],
    )
replicated_model.evaluate(x_test / 255.0, y_test)
